"""Python user-defined functions of the Table API as a task runs them (pure Python: the Spark
layer hands each batch's columns as Python lists, spark/table_udfs.py).

A runner opens the user's function once (open(FunctionContext)), calls it row by row as
PyFlink's Python worker does (NULL is None), converts each result to the declared type as
PyFlink 1.20.5's coders do, and closes it at the end. A function that raises, or a result
the declared type cannot hold, fails the task with the user's traceback (UserFunctionError).

Seen on PyFlink 1.20.5 (result conversion by its coders): a float for an integer type is
truncated (2.7 -> 2), an int for DOUBLE is 3.0, an int too large for INT fails with
`OverflowError: value too large to convert to int32_t`, a str for an integer type fails with
`TypeError: an integer is required`, an int for STRING with `AttributeError: 'int' object
has no attribute 'encode'`."""
from __future__ import annotations

import os
from typing import Any, Callable, Iterable, List, Optional, Sequence

from pyflink_on_spark.runtime.errors import UserFunctionError

# integer types: (bits, the C type PyFlink's coder names in its overflow error)
_INTEGERS = {"TINYINT": (8, "int8_t"), "SMALLINT": (16, "int16_t"), "INT": (32, "int32_t"),
             "BIGINT": (64, "int64_t")}
_STRINGS = ("STRING", "VARCHAR", "CHAR")


def result_converter(sql_type: str) -> Callable[[Any], Any]:
    """value -> the value the declared Flink type holds (None stays None), raising as PyFlink's
    coder does for a value the type cannot hold."""
    base = sql_type.split("(")[0].strip()
    if base in _INTEGERS:
        bits, c_type = _INTEGERS[base]
        low, high = -2 ** (bits - 1), 2 ** (bits - 1)

        def integer(value):
            if value is None:
                return None
            if isinstance(value, float):
                value = int(value)
            elif not isinstance(value, int):
                raise TypeError("an integer is required")
            if not low <= value < high:
                raise OverflowError("value too large to convert to %s" % c_type)
            return int(value)
        return integer
    if base in ("FLOAT", "DOUBLE"):
        def floating(value):
            if value is None:
                return None
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return float(value)     # float()'s own error for what is no number
            return float(value)
        return floating
    if base in _STRINGS:
        def string(value):
            if value is None or isinstance(value, str):
                return value
            # PyFlink's coder encodes the value: anything but a str has no encode()
            raise AttributeError("'%s' object has no attribute 'encode'"
                                 % type(value).__name__)
        return string
    return lambda value: value      # other types: Arrow converts (and refuses) them


# the shim's frames between the task and the user's function: this module, the delegating
# wrappers of plain callables and Table.map's one-row table function
_CALLERS = (os.path.abspath(__file__).rsplit(".", 1)[0],
            os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "table", "udf"),
            os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "table", "map_tables"))


def _from_user_frames(error: BaseException) -> BaseException:
    """The error with its traceback starting at the user's first frame (the shim's calling
    frames say nothing to the user); unchanged when it holds no frame of the user's (a
    result the declared type cannot hold)."""
    tb = error.__traceback__
    while tb is not None and \
            os.path.abspath(tb.tb_frame.f_code.co_filename).rsplit(".", 1)[0] in _CALLERS:
        tb = tb.tb_next
    return error if tb is None else error.with_traceback(tb)


def _subtask() -> int:
    try:
        from pyspark import TaskContext
        context = TaskContext.get()
        return context.partitionId() if context is not None else 0
    except ImportError:     # pragma: no cover - the Spark layer runs this
        return 0


class _Runner:
    """One opened user function of a task."""

    def __init__(self, function, name: str, job_parameters) -> None:
        from pyflink_on_spark.table.udf import FunctionContext
        self.function = function
        self.name = name
        try:
            function.open(FunctionContext(None, dict(job_parameters)))
        except Exception as e:
            raise self.failure(e) from None

    def failure(self, error: BaseException) -> UserFunctionError:
        return UserFunctionError(self.name, _subtask(), _from_user_frames(error))

    def close(self) -> None:
        try:
            self.function.close()
        except Exception as e:
            raise self.failure(e) from None


class ScalarRunner(_Runner):
    def __init__(self, function, name: str, result_type: str, job_parameters=()) -> None:
        super().__init__(function, name, job_parameters)
        self.convert = result_converter(result_type)

    def call(self, columns: Sequence[List[Any]], rows: Optional[int] = None) -> List[Any]:
        """The results of one batch: `columns` the arguments' values, column by column."""
        evaluate, convert = self.function.eval, self.convert
        try:
            if not columns:
                return [convert(evaluate()) for _ in range(rows or 0)]
            return [convert(evaluate(*args)) for args in zip(*columns)]
        except Exception as e:
            raise self.failure(e) from None


class PandasScalarRunner(ScalarRunner):
    """A pandas scalar function (udf(func_type='pandas')): called once per batch with its
    arguments as pandas Series, giving a Series (or list) of the batch's results."""

    def call_series(self, series: Sequence[Any], rows: int) -> List[Any]:
        try:
            result = self.function.eval(*series)
            values = result.tolist() if hasattr(result, "tolist") else list(result)
            if len(values) != rows:
                raise ValueError("the pandas function %s gave %d results for %d rows"
                                 % (self.name, len(values), rows))
            return [None if _is_missing(v) else self.convert(v) for v in values]
        except Exception as e:
            raise self.failure(e) from None


def _is_missing(value) -> bool:
    return value is None or (isinstance(value, float) and value != value)


class TableRunner(_Runner):
    """A table function: each input row's rows (what eval yields or returns), each as a tuple
    of the declared columns."""

    def __init__(self, function, name: str, result_types: Sequence[str],
                 job_parameters=(), row_fields: Optional[Sequence[str]] = None) -> None:
        super().__init__(function, name, job_parameters)
        self.converts = [result_converter(t) for t in result_types]
        self.row_fields = None if row_fields is None else list(row_fields)

    def call(self, columns: Sequence[List[Any]], rows: Optional[int] = None
             ) -> List[List[tuple]]:
        out = []
        try:
            for args in (zip(*columns) if columns else [()] * (rows or 0)):
                if self.row_fields is not None:       # Table.flat_map: the row as one Row
                    args = (_row(args, self.row_fields),)
                out.append([self._row(r) for r in _rows_of(self.function.eval(*args))])
        except Exception as e:
            raise self.failure(e) from None
        return out

    def _row(self, value) -> tuple:
        from pyflink_on_spark.common.types import Row
        if len(self.converts) == 1 and not isinstance(value, (tuple, list, Row)):
            value = (value,)
        values = tuple(value)
        if len(values) != len(self.converts):
            raise ValueError("the table function %s gave a row of %d fields for %d declared "
                             "result types: %r" % (self.name, len(values), len(self.converts),
                                                   value))
        return tuple(c(v) for c, v in zip(self.converts, values))


class PandasMapRunner(TableRunner):
    """Table.map of a pandas scalar function (udf(func_type='pandas')): called once per
    batch, as PyFlink 1.20.5 calls it (seen): with the batch's rows as one pandas DataFrame
    of the table's columns when the map does not call it (`tab.map(f)`), else with its
    arguments as Series. Its result, a DataFrame of the ROW's fields by position (or a
    Series of one column), gives each input row its one row; NaN is NULL."""

    def call_frames(self, series: Sequence[Any], rows: int) -> List[List[tuple]]:
        import pandas as pd
        try:
            if self.row_fields is not None:
                args = (pd.DataFrame(dict(zip(self.row_fields, series)), index=range(rows)),)
            else:
                args = tuple(series)
            result = self.function.eval(*args)
            if isinstance(result, pd.DataFrame):
                columns = [result.iloc[:, i].tolist() for i in range(result.shape[1])]
                values = list(zip(*columns)) if columns else [()] * len(result)
            else:
                values = [(v,) for v in (result.tolist() if hasattr(result, "tolist")
                                         else list(result))]
            if len(values) != rows:
                raise ValueError("the pandas function %s gave %d rows for %d rows"
                                 % (self.name, len(values), rows))
            return [[self._row(tuple(None if _is_missing(v) else v for v in value))]
                    for value in values]
        except Exception as e:
            raise self.failure(e) from None


def _row(values, fields):
    from pyflink_on_spark.common.types import Row
    row = Row(*values)
    row.set_field_names(fields)
    return row


def _rows_of(result) -> Iterable:
    if result is None:
        return ()
    return result


class AggregateRunner(_Runner):
    """An aggregate function over one group's rows: create_accumulator, accumulate each row,
    get_value."""

    def __init__(self, function, name: str, result_type: str, job_parameters=()) -> None:
        super().__init__(function, name, job_parameters)
        self.convert = result_converter(result_type)

    def aggregate(self, columns: Sequence[List[Any]]) -> Any:
        f = self.function
        try:
            accumulator = f.create_accumulator()
            for args in zip(*columns):
                f.accumulate(accumulator, *args)
            return self.convert(f.get_value(accumulator))
        except Exception as e:
            raise self.failure(e) from None

    def aggregate_series(self, series: Sequence[Any]) -> Any:
        """A pandas aggregate function (udaf(func_type='pandas')): the group's columns as
        pandas Series -> its value."""
        try:
            value = self.function.eval(*series)
            value = value.item() if hasattr(value, "item") else value
            return None if _is_missing(value) else self.convert(value)
        except Exception as e:
            raise self.failure(e) from None
