"""pyflink.table.udf: Python user-defined functions of the Table API (PyFlink 1.20's classes
and helpers). A function is declared here (its Python callable or ScalarFunction /
TableFunction / AggregateFunction object and its DataTypes); registering it with an
environment, or calling it on expressions, names it in a query, and the query's Spark job runs
it in Spark tasks over Arrow batches (spark/table_udfs.py, runtime/table_udfs.py;
docs/table.md)."""
from __future__ import annotations

import abc
import functools
import inspect
import itertools
from typing import Callable, Dict, Generic, Iterable, List, Optional, Type, TypeVar, Union

from pyflink_on_spark.table.types import DataType, RowType

__all__ = ['FunctionContext', 'AggregateFunction', 'ScalarFunction', 'TableFunction',
           'TableAggregateFunction', 'udf', 'udtf', 'udaf', 'udtaf']

T = TypeVar('T')
ACC = TypeVar('ACC')


class FunctionContext(object):
    """What open() gets: the job's global parameters (`pipeline.global-job-parameters`)."""

    def __init__(self, base_metric_group, job_parameters) -> None:
        self._base_metric_group = base_metric_group
        self._job_parameters = dict(job_parameters or {})

    def get_metric_group(self):
        if self._base_metric_group is None:     # PyFlink's text (metrics are off by default)
            raise RuntimeError("Metric has not been enabled. You can enable "
                               "metric with the 'python.metric.enabled' configuration.")
        return self._base_metric_group

    def get_job_parameter(self, key: str, default_value: str) -> str:
        return self._job_parameters[key] if key in self._job_parameters else default_value


class UserDefinedFunction(abc.ABC):
    def open(self, function_context: FunctionContext) -> None:
        pass

    def close(self) -> None:
        pass

    def is_deterministic(self) -> bool:
        return True


class ScalarFunction(UserDefinedFunction):
    @abc.abstractmethod
    def eval(self, *args):
        pass


class TableFunction(UserDefinedFunction):
    @abc.abstractmethod
    def eval(self, *args):
        pass


class ImperativeAggregateFunction(UserDefinedFunction, Generic[T, ACC]):
    @abc.abstractmethod
    def create_accumulator(self) -> ACC:
        pass

    @abc.abstractmethod
    def accumulate(self, accumulator: ACC, *args):
        pass

    # PyFlink 1.20.5's texts (its udf.py): a query that needs a method the function lacks
    # fails with them (seen: a udaf without retract over an updating input, "RuntimeError:
    # Method retract is not implemented")
    def retract(self, accumulator: ACC, *args):
        raise RuntimeError("Method retract is not implemented")

    def merge(self, accumulator: ACC, accumulators):
        raise RuntimeError("Method merge is not implemented")

    def get_result_type(self) -> Union[DataType, str]:
        raise RuntimeError("Method get_result_type is not implemented")

    def get_accumulator_type(self) -> Union[DataType, str]:
        raise RuntimeError("Method get_accumulator_type is not implemented")


class AggregateFunction(ImperativeAggregateFunction):
    @abc.abstractmethod
    def get_value(self, accumulator: ACC) -> T:  # type: ignore[type-var]
        pass


class TableAggregateFunction(ImperativeAggregateFunction):
    @abc.abstractmethod
    def emit_value(self, accumulator: ACC) -> Iterable[T]:  # type: ignore[type-var]
        pass


class DelegatingScalarFunction(ScalarFunction):
    """A plain Python callable as a ScalarFunction."""

    def __init__(self, func) -> None:
        self.func = func

    def eval(self, *args):
        return self.func(*args)


class DelegationTableFunction(TableFunction):
    """A plain Python generator function as a TableFunction."""

    def __init__(self, func) -> None:
        self.func = func

    def eval(self, *args):
        return self.func(*args)


# every wrapper gets its own Spark function name once, when first named in a query
_spark_names = itertools.count(1)
# wrappers called on expressions without being registered (t.select(f(t.a))), by the name
# their calls use in the query's SQL text
_inline: Dict[str, 'UserDefinedFunctionWrapper'] = {}


def inline_functions() -> Dict[str, 'UserDefinedFunctionWrapper']:
    """The functions Table API expressions call without a registration, by call name."""
    return dict(_inline)


def _type_list(types, what: str) -> Optional[List]:
    if types is None:
        return None
    if isinstance(types, RowType):
        types = [f.data_type for f in types.fields]
    elif isinstance(types, (DataType, str)):
        types = [types]
    else:
        types = list(types)
    for t in types:
        if not isinstance(t, (DataType, str)):
            raise TypeError("Invalid %s: %s should be DataType or str but contains %s"
                            % (what, what, t))
    return types


class UserDefinedFunctionWrapper(object):
    """A declared function (PyFlink's wrapper): the callable, its DataTypes, its name."""

    kind = ''

    def __init__(self, func, input_types, func_type, deterministic=None, name=None) -> None:
        if inspect.isclass(func) or (
                not isinstance(func, UserDefinedFunction) and not callable(func)):
            raise TypeError(
                "Invalid function: not a function or callable (__call__ is not defined): {0}"
                .format(type(func)))
        self._func = func
        self._input_types = _type_list(input_types, 'input_type')
        self._name = name or (
            func.__name__ if hasattr(func, '__name__') else func.__class__.__name__)
        if deterministic is not None and isinstance(func, UserDefinedFunction) and \
                deterministic != func.is_deterministic():
            raise ValueError("Inconsistent deterministic: {} and {}".format(
                deterministic, func.is_deterministic()))
        self._deterministic = deterministic if deterministic is not None else (
            func.is_deterministic() if isinstance(func, UserDefinedFunction) else True)
        self._func_type = func_type
        self._alias_names: tuple = ()
        self._spark_name: Optional[str] = None
        # Table.flat_map: the function takes each row as one Row of these fields
        self._row_fields: Optional[tuple] = None

    def spark_name(self) -> str:
        """The name this function has in Spark SQL (unique to this wrapper)."""
        if self._spark_name is None:
            self._spark_name = "pyflink_udf_%d" % next(_spark_names)
        return self._spark_name

    def __call__(self, *args):
        """A call of this function on expressions (or values, as literals)."""
        from pyflink_on_spark.table.expression import combined, expression_of
        name = self.spark_name()
        _inline.setdefault(name, self)
        parts = [expression_of(a) for a in args]
        call = combined("%s(%s)" % (name, ", ".join(p.sql for p in parts)), *parts)
        if self.kind == 'aggregate':
            from pyflink_on_spark.table.expression import Expression
            aggregate = Expression(call.sql, aggregates=None, reads=call.reads)
            aggregate.udf_call = (self, tuple(parts))     # Table.aggregate reads its function
            return aggregate
        if self.kind == 'table':        # join_lateral reads its columns' names
            call.udtf_aliases = self._alias_names
        call.udf_call = (self, tuple(parts))
        return call

    def row_fields(self) -> Optional[tuple]:
        """The fields of the Row the function takes (Table.flat_map), else None."""
        return self._row_fields

    def takes_rows_of(self, fields) -> 'UserDefinedFunctionWrapper':
        """The function takes each row of a table of these columns as one Row (PyFlink's
        _set_takes_row_as_input, Table.flat_map)."""
        self._row_fields = tuple(fields)
        return self

    def alias(self, *alias_names: str) -> 'UserDefinedFunctionWrapper':
        self._alias_names = tuple(alias_names)
        return self

    def delegate(self):
        """The UserDefinedFunction the tasks run (a plain callable wrapped)."""
        raise NotImplementedError

    def result_types(self) -> List:
        """The declared DataTypes of the result (one column, or a table function's)."""
        raise NotImplementedError


class UserDefinedScalarFunctionWrapper(UserDefinedFunctionWrapper):
    kind = 'scalar'

    def __init__(self, func, input_types, result_type, func_type, deterministic, name) -> None:
        super().__init__(func, input_types, func_type, deterministic, name)
        if not isinstance(result_type, (DataType, str)):
            raise TypeError(
                "Invalid returnType: returnType should be DataType or str but is {}".format(
                    result_type))
        self._result_type = result_type

    def delegate(self):
        return self._func if isinstance(self._func, UserDefinedFunction) else \
            DelegatingScalarFunction(self._func)

    def result_types(self) -> List:
        return [self._result_type]


class UserDefinedTableFunctionWrapper(UserDefinedFunctionWrapper):
    kind = 'table'

    def __init__(self, func, input_types, result_types, deterministic=None, name=None) -> None:
        super().__init__(func, input_types, "general", deterministic, name)
        if isinstance(result_types, str):
            raise NotImplementedError(
                "udtf(result_types=%r): pyflink_on_spark takes the result types as DataTypes "
                "(a SQL type string is not parsed yet)" % result_types)
        self._result_types = _type_list(result_types, 'result_type')

    def delegate(self):
        return self._func if isinstance(self._func, UserDefinedFunction) else \
            DelegationTableFunction(self._func)

    def result_types(self) -> List:
        return list(self._result_types)


class UserDefinedAggregateFunctionWrapper(UserDefinedFunctionWrapper):
    kind = 'aggregate'

    def __init__(self, func, input_types, result_type, accumulator_type, func_type,
                 deterministic, name, is_table_aggregate=False) -> None:
        super().__init__(func, input_types, func_type, deterministic, name)
        if accumulator_type is None and func_type == "general":
            accumulator_type = func.get_accumulator_type()
        if result_type is None:
            result_type = func.get_result_type()
        if not isinstance(result_type, (DataType, str)):
            raise TypeError(
                "Invalid returnType: returnType should be DataType or str but is {}"
                .format(result_type))
        from pyflink_on_spark.table.types import MapType
        if func_type == 'pandas' and isinstance(result_type, MapType):
            raise TypeError(
                "Invalid returnType: Pandas UDAF doesn't support DataType type {} currently"
                .format(result_type))
        if accumulator_type is not None and not isinstance(accumulator_type, (DataType, str)):
            raise TypeError(
                "Invalid accumulator_type: accumulator_type should be DataType or str but is {}"
                .format(accumulator_type))
        # PyFlink's check as it is: a DataType result needs a DataType accumulator type (a
        # str result passes whatever the accumulator type)
        if func_type == "general" and isinstance(result_type, DataType) and \
                not isinstance(accumulator_type, DataType):
            raise TypeError("result_type and accumulator_type should be DataType or str "
                            "at the same time.")
        self._result_type = result_type
        self._accumulator_type = accumulator_type
        self._is_table_aggregate = is_table_aggregate

    def delegate(self):
        if self._func_type == 'pandas' and not isinstance(self._func, UserDefinedFunction):
            return DelegatingScalarFunction(self._func)     # series of a group -> a value
        return self._func

    def result_types(self) -> List:
        return [self._result_type]


def _create_udf(f, input_types, result_type, func_type, deterministic, name):
    return UserDefinedScalarFunctionWrapper(
        f, input_types, result_type, func_type, deterministic, name)


def _create_udtf(f, input_types, result_types, deterministic, name):
    return UserDefinedTableFunctionWrapper(f, input_types, result_types, deterministic, name)


def _create_udaf(f, input_types, result_type, accumulator_type, func_type, deterministic,
                 name):
    return UserDefinedAggregateFunctionWrapper(
        f, input_types, result_type, accumulator_type, func_type, deterministic, name)


def _func_type(func_type: str) -> None:
    if func_type not in ('general', 'pandas'):
        raise ValueError("The func_type must be one of 'general, pandas', got %s."
                         % func_type)


def udf(f: Union[Callable, ScalarFunction, Type] = None, input_types=None,
        result_type: Union[DataType, str] = None, deterministic: bool = None,
        name: str = None, func_type: str = "general", udf_type: str = None):
    """A scalar function: udf(f, result_type=...) or @udf(result_type=...)."""
    if udf_type:
        func_type = udf_type
    _func_type(func_type)
    if f is None:
        return functools.partial(_create_udf, input_types=input_types, result_type=result_type,
                                 func_type=func_type, deterministic=deterministic, name=name)
    return _create_udf(f, input_types, result_type, func_type, deterministic, name)


def udtf(f: Union[Callable, TableFunction, Type] = None, input_types=None,
         result_types=None, deterministic: bool = None, name: str = None):
    """A table function (rows by `yield`): udtf(f, result_types=[...]) or @udtf(...)."""
    if f is None:
        return functools.partial(_create_udtf, input_types=input_types,
                                 result_types=result_types, deterministic=deterministic,
                                 name=name)
    return _create_udtf(f, input_types, result_types, deterministic, name)


def udaf(f: Union[Callable, AggregateFunction, Type] = None, input_types=None,
         result_type: Union[DataType, str] = None, accumulator_type=None,
         deterministic: bool = None, name: str = None, func_type: str = "general"):
    """An aggregate function (an AggregateFunction object): udaf(f[, result_type=...])."""
    _func_type(func_type)
    if f is None:
        return functools.partial(_create_udaf, input_types=input_types,
                                 result_type=result_type, accumulator_type=accumulator_type,
                                 func_type=func_type, deterministic=deterministic, name=name)
    return _create_udaf(f, input_types, result_type, accumulator_type, func_type,
                        deterministic, name)


def _create_udtaf(f, input_types, result_type, accumulator_type, func_type, deterministic,
                  name):
    return UserDefinedAggregateFunctionWrapper(
        f, input_types, result_type, accumulator_type, func_type, deterministic, name, True)


def udtaf(f: Union[Callable, TableAggregateFunction, Type] = None, input_types=None,
          result_type: Union[DataType, str] = None, accumulator_type=None,
          deterministic: bool = None, name: str = None, func_type: str = "general"):
    """A table aggregate function (a TableAggregateFunction object: emit_value yields the
    rows of a group), for Table.flat_aggregate: udtaf(f[, result_type=...])."""
    if func_type != 'general':      # PyFlink 1.20.5's check and text
        raise ValueError("The func_type must be 'general', got %s." % func_type)
    if f is None:
        return functools.partial(_create_udtaf, input_types=input_types,
                                 result_type=result_type, accumulator_type=accumulator_type,
                                 func_type=func_type, deterministic=deterministic, name=name)
    return _create_udtaf(f, input_types, result_type, accumulator_type, func_type,
                         deterministic, name)
