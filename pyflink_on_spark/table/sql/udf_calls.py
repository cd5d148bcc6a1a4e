"""Calls of Python user-defined functions in Flink SQL, translated to calls of the Spark
functions that run them (spark/table_udfs.py registers them under `spark_name`).

Names resolve as on PyFlink 1.20.5 (seen): case-insensitively; a temporary system function
before a built-in function of the same name, a built-in before a temporary (catalog)
function (`create_temporary_function('split', f)` then `LATERAL TABLE(split(s))` fails with
`Function 'split' cannot be used as a table function.`: the built-in SPLIT). A Python
function declared without input types takes any arguments (PyFlink validates nothing; a
wrong count fails in the worker, as a TypeError of the call). A table function
(`LATERAL TABLE(f(x)) [AS T(a, b)]`) becomes Spark's `LATERAL VIEW [OUTER] inline(f(x))`:
its columns are f0, f1... unless aliased."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Mapping, Optional, Tuple

from sqlglot import exp

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import parse_type
from pyflink_on_spark.table.sql.tokens import tokenize
from pyflink_on_spark.table.types import DataType

__all__ = ['FunctionSignature', 'find_function', 'function_call', 'lateral_view',
           'mark_lateral_tables', 'LATERAL_TABLE']

# `LATERAL TABLE(` is read as a call of this name, so that window TVFs (TABLE(TUMBLE(...)),
# windows.py) are told apart from table functions before parsing
LATERAL_TABLE = '_LATERAL_TABLE'


@dataclass(frozen=True)
class FunctionSignature:
    """A user-defined function as the translator sees it: `kind` 'scalar' / 'table' /
    'aggregate'; `result_types` Flink type strings (a table function's columns);
    `system`: registered with create_temporary_system_function (before built-ins)."""
    name: str
    kind: str
    spark_name: str
    result_types: Tuple[str, ...]
    system: bool = True


def find_function(functions: Mapping[str, FunctionSignature], name: str,
                  is_builtin) -> Optional[FunctionSignature]:
    """The user function a call of `name` means, or None (a built-in, or unknown)."""
    signature = functions.get(name.lower())
    if signature is None or (not signature.system and is_builtin(name)):
        return None
    return signature


def function_call(signature: FunctionSignature, args: List[exp.Expression]
                  ) -> Tuple[exp.Expression, DataType]:
    """A scalar or aggregate function's call as its Spark call, of its declared type."""
    if signature.kind == 'table':
        raise SqlValidationError("Function '%s' is a table function: call it in "
                                 "LATERAL TABLE(...)" % signature.name)
    return (exp.Anonymous(this=signature.spark_name, expressions=args),
            parse_type(signature.result_types[0]))


def table_call(functions: Mapping[str, FunctionSignature], call: exp.Expression,
               is_builtin) -> FunctionSignature:
    """The table function of `LATERAL TABLE(call)`."""
    if not isinstance(call, exp.Anonymous):
        raise UnsupportedSqlError('LATERAL TABLE of %s is not supported by pyflink_on_spark'
                                  % call.sql())
    signature = find_function(functions, call.name, is_builtin)
    if signature is None or signature.kind != 'table':
        raise SqlValidationError("Function '%s' cannot be used as a table function."
                                 % call.name)
    return signature


def lateral_view(signature: FunctionSignature, args: List[exp.Expression],
                 alias: Optional[exp.TableAlias], outer: bool
                 ) -> Tuple[exp.Lateral, Optional[str], List[Tuple[str, DataType]]]:
    """Spark's `LATERAL VIEW [OUTER] inline(f(args)) T AS a, b`, its qualifier and its
    columns (name, type)."""
    names = ['f%d' % i for i in range(len(signature.result_types))]
    qualifier = None
    if alias is not None:
        qualifier = alias.name or None
        if alias.columns:
            if len(alias.columns) != len(names):
                raise SqlValidationError(
                    'LATERAL TABLE(%s(...)) has %d columns, its alias names %d'
                    % (signature.name, len(names), len(alias.columns)))
            names = [c.name for c in alias.columns]
    generator = exp.Anonymous(this='inline', expressions=[
        exp.Anonymous(this=signature.spark_name, expressions=args)])
    view = exp.Lateral(this=generator, view=True, outer=outer, alias=exp.TableAlias(
        this=exp.to_identifier(qualifier or 'lateral_table'),
        columns=[exp.to_identifier(n, quoted=True) for n in names]))
    columns = [(n, parse_type(t)) for n, t in zip(names, signature.result_types)]
    return view, qualifier, columns


def mark_lateral_tables(sql: str) -> str:
    """`LATERAL TABLE(` as `LATERAL _LATERAL_TABLE(`."""
    toks = tokenize(sql)
    for before, tok, after in reversed(list(zip(toks, toks[1:], toks[2:]))):
        if before.is_word('LATERAL') and tok.is_word('TABLE') and after.text == '(':
            sql = sql[:tok.start] + LATERAL_TABLE + sql[tok.end:]
    return sql
