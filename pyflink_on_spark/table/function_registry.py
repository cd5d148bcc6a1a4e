"""The user-defined functions of a TableEnvironment (create_temporary_function,
create_temporary_system_function) and what a query needs of them: their signatures for the
translator (table/sql/udf_calls.py) and, for the functions the translated query calls, the
specs the Spark layer registers and runs (specs/table_functions.py)."""
from __future__ import annotations

import re
from typing import Dict, List, Mapping, Tuple

from pyflink_on_spark.specs.table_functions import UserFunctionSpec
from pyflink_on_spark.table.sql.udf_calls import FunctionSignature
from pyflink_on_spark.table.udf import (AggregateFunction, UserDefinedFunctionWrapper,
                                        inline_functions, udaf)

__all__ = ['FunctionRegistry', 'job_parameters']

_SPARK_NAME = re.compile(r"\bpyflink_udf_\d+\b", re.IGNORECASE)


def _wrapper(path: str, function, method: str) -> UserDefinedFunctionWrapper:
    if isinstance(function, UserDefinedFunctionWrapper):
        return function
    if isinstance(function, AggregateFunction):       # PyFlink wraps one itself
        return udaf(function)
    raise TypeError("TableEnvironment.%s(%r, %r): the function must be made with udf, udtf "
                    "or udaf (pyflink.table.udf)" % (method, path, function))


def _type_text(data_type) -> str:
    if isinstance(data_type, str):
        from pyflink_on_spark.table.sql.flink_types import parse_type
        data_type = parse_type(data_type)
    from pyflink_on_spark.table.sql import flink_type_string
    text = flink_type_string(data_type)
    return text[:-len(" NOT NULL")] if text.endswith(" NOT NULL") else text


class FunctionRegistry(object):
    """Functions by lowercase name: Flink resolves them case-insensitively (seen on PyFlink
    1.20.5: a function registered as plus1 is called as PLUS1)."""

    def __init__(self) -> None:
        self._system: Dict[str, UserDefinedFunctionWrapper] = {}
        self._catalog: Dict[str, UserDefinedFunctionWrapper] = {}

    def register(self, path: str, function, system: bool, method: str) -> None:
        (self._system if system else self._catalog)[path.lower()] = \
            _wrapper(path, function, method)

    def drop(self, path: str, system: bool) -> bool:
        """True when it was registered (PyFlink's drop_temporary_*function results)."""
        return (self._system if system else self._catalog).pop(path.lower(), None) \
            is not None

    def names(self) -> List[str]:
        """list_user_defined_functions: the names, sorted (as PyFlink 1.20.5 lists them)."""
        return sorted(set(self._system) | set(self._catalog))

    def signatures(self) -> Mapping[str, FunctionSignature]:
        """What the translator resolves: registered functions by name, and the functions
        Table API expressions call unregistered, by their Spark name."""
        out: Dict[str, FunctionSignature] = {}
        for name, wrapper in inline_functions().items():
            out[name] = _signature(name, wrapper, True)
        for name, wrapper in self._catalog.items():
            out[name] = _signature(name, wrapper, False)
        for name, wrapper in self._system.items():
            out[name] = _signature(name, wrapper, True)
        return out

    def aggregate_functions(self, is_builtin) -> Dict[str, UserDefinedFunctionWrapper]:
        """The Python aggregate functions a call resolves to, by lowercase call name (a
        temporary catalog function named like a built-in is the built-in's name there)."""
        out = {name: w for name, w in inline_functions().items() if w.kind == 'aggregate'}
        out.update((name, w) for name, w in self._catalog.items()
                   if w.kind == 'aggregate' and not is_builtin(name))
        out.update((name, w) for name, w in self._system.items() if w.kind == 'aggregate')
        return out

    def specs(self, spark_sql: str, parameters: Mapping[str, str]
              ) -> Tuple[UserFunctionSpec, ...]:
        """The functions the translated query calls, ready for the Spark layer."""
        called = {m.lower() for m in _SPARK_NAME.findall(spark_sql)}
        if not called:
            return ()
        by_spark_name = {w.spark_name(): (name, w) for name, w in inline_functions().items()}
        for registry in (self._catalog, self._system):
            by_spark_name.update({w.spark_name(): (name, w) for name, w in registry.items()})
        return tuple(_spec(by_spark_name[s][0], by_spark_name[s][1], parameters)
                     for s in sorted(called) if s in by_spark_name)


def _signature(name: str, wrapper: UserDefinedFunctionWrapper,
               system: bool) -> FunctionSignature:
    return FunctionSignature(name, wrapper.kind, wrapper.spark_name(),
                             tuple(_type_text(t) for t in wrapper.result_types()), system)


def _spec(name: str, wrapper: UserDefinedFunctionWrapper,
          parameters: Mapping[str, str]) -> UserFunctionSpec:
    import cloudpickle
    return UserFunctionSpec(
        wrapper.spark_name(), wrapper._name if name.startswith("pyflink_udf_") else name,
        wrapper.kind, cloudpickle.dumps(wrapper.delegate()),
        tuple(_type_text(t) for t in wrapper.result_types()),
        tuple(sorted(parameters.items())), wrapper._deterministic, wrapper._func_type,
        wrapper.row_fields())


def job_parameters(table_config, env) -> Dict[str, str]:
    """FunctionContext.get_job_parameter's values: the environment's global job parameters
    and the table config's `pipeline.global-job-parameters` (`k1:v1,k2:v2`)."""
    out: Dict[str, str] = {}
    if env is not None:
        out.update(env.get_config().get_global_job_parameters())
    text = table_config.get("pipeline.global-job-parameters", None)
    for item in (text or "").split(","):
        if ":" in item:
            key, value = item.split(":", 1)
            out[key.strip()] = value.strip()
    return out
