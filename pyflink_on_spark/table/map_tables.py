"""Table.map: each row to exactly one row by a Python scalar function (pyflink.table.udf.udf),
called on expressions (`tab.map(f(col('a')))`) or not called (`tab.map(f)`: it takes each row
as one Row of the table's columns).

The columns, as PyFlink 1.20.5 names them (seen): a ROW result's fields, under the ROW's field
names; any other result one column `f0`. It runs on the path Table.flat_map takes (a LATERAL
TABLE of a table function, table/sql/udf_calls.py): the scalar function is wrapped as a table
function giving one row per call, so its open / close, job parameters and errors are the
scalar function's. A pandas scalar function (func_type='pandas') runs batch by batch there
instead, as PyFlink calls it: the rows as one DataFrame, or its arguments as Series
(runtime/table_udfs.py PandasMapRunner).

On PyFlink 1.20.5 a map whose Python function has a non-ROW result never gets past planning
(seen: its planner loops in RemoteCalcSplitProjectionRule); here it runs (docs/table.md)."""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

from pyflink_on_spark.table.udf import (
    TableFunction, UserDefinedScalarFunctionWrapper, UserDefinedTableFunctionWrapper)

__all__ = ['is_builtin', 'map_call', 'OneRowOfScalar']

# seen on PyFlink 1.20.5: tab.map(f(col('a')).alias('u', 'v'))
NOT_A_SCALAR_FUNCTION = ("org.apache.flink.table.api.ValidationException: Only a scalar "
                         "function can be used in the map operator.")


class OneRowOfScalar(TableFunction):
    """A scalar function as a table function of one row per call: a ROW result's fields as
    the row (a None result a row of NULLs), any other result a row of one column."""

    def __init__(self, scalar, width: Optional[int]) -> None:
        self.scalar = scalar
        self.width = width          # the ROW's field count; None: not a ROW result

    def open(self, function_context) -> None:
        self.scalar.open(function_context)

    def close(self) -> None:
        self.scalar.close()

    def is_deterministic(self) -> bool:
        return self.scalar.is_deterministic()

    def eval(self, *args):
        value = self.scalar.eval(*args)
        if self.width is None:
            yield (value,)
        elif value is None:
            yield (None,) * self.width
        else:
            yield value


def _row_fields(result_type) -> Optional[Tuple[List[str], list]]:
    """A ROW result type's field names and types; None for any other type."""
    from pyflink_on_spark.table.types import RowType
    if isinstance(result_type, str):
        from pyflink_on_spark.table.sql.flink_types import parse_type
        result_type = parse_type(result_type)
    if isinstance(result_type, RowType):
        return [f.name for f in result_type.fields], [f.data_type for f in result_type.fields]
    return None


def _as_table_function(scalar: UserDefinedScalarFunctionWrapper
                       ) -> Tuple[UserDefinedTableFunctionWrapper, List[str]]:
    """The one-row table function running `scalar`, and the map's column names."""
    fields = _row_fields(scalar.result_types()[0])
    names, types = fields if fields is not None else (["f0"], scalar.result_types())
    if scalar._func_type == 'pandas':
        # called once per batch by the tasks' pandas map runner (runtime/table_udfs.py)
        wrapper = UserDefinedTableFunctionWrapper(scalar.delegate(), None, types,
                                                  scalar._deterministic, scalar._name)
        wrapper._func_type = 'pandas'
        return wrapper, names
    wrapper = UserDefinedTableFunctionWrapper(
        OneRowOfScalar(scalar.delegate(), len(names) if fields is not None else None),
        None, types, scalar._deterministic, scalar._name)
    return wrapper, names


def is_builtin(func) -> bool:
    """Whether `func` is an expression of built-in functions only (`col('a') + 1`), which
    PyFlink 1.20.5 maps to one column f0 (seen)."""
    from pyflink_on_spark.table.expression import Expression
    return isinstance(func, Expression) and func.udf_call is None and func.name is None \
        and func.udtf_aliases is None


def map_call(func, table_columns: Sequence[str]):
    """The table function call Table.map runs for `func` over a table of `table_columns`,
    and the names of the map's columns."""
    from pyflink_on_spark.table.expression import Expression
    from pyflink_on_spark.table.expressions import col
    if isinstance(func, UserDefinedScalarFunctionWrapper):
        function, names = _as_table_function(func)
        call = function.takes_rows_of(table_columns)(*[col(n) for n in table_columns])
    elif isinstance(func, Expression) and func.udf_call is not None and \
            func.udf_call[0].kind == 'scalar':
        scalar, arguments = func.udf_call
        function, names = _as_table_function(scalar)
        call = function(*arguments)
    elif isinstance(func, Expression):
        from pyflink_on_spark.table.sql.errors import SqlValidationError
        raise SqlValidationError(NOT_A_SCALAR_FUNCTION)
    else:
        raise TypeError("Table.map takes a scalar function (pyflink.table.udf.udf) or its "
                        "call on expressions, got %r" % (func,))
    return call, tuple(names)
