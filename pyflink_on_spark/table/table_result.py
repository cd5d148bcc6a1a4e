"""TableResult (Table.execute(), TableEnvironment.execute_sql()) and ResultKind."""
from __future__ import annotations

from typing import Iterator, List, Optional

__all__ = ['TableResult', 'ResultKind']


class ResultKind(object):
    """As PyFlink's: plain int constants (a DDL statement's result is SUCCESS, a query's
    SUCCESS_WITH_CONTENT)."""
    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1


class TableResult(object):
    """The result of a query: its rows come from Spark when collect() or print() asks for
    them."""

    def __init__(self, table=None, result_kind: int = ResultKind.SUCCESS_WITH_CONTENT) -> None:
        self._table = table
        self._result_kind = result_kind

    def get_job_client(self):
        return None

    def wait(self, timeout_ms: int = None) -> None:
        return None

    def get_table_schema(self):
        from pyflink_on_spark.table.schema import TableSchema
        if self._table is None:
            from pyflink_on_spark.specs.tables import TableColumn
            return TableSchema(columns=[TableColumn("result", "STRING", True)])
        return self._table.get_schema()

    def get_result_kind(self) -> int:
        return self._result_kind

    def collect(self):
        """The rows, as PyFlink gives them: Row objects (positional, row kind +I) in a
        closeable iterator (a context manager)."""
        from pyflink_on_spark.datastream.data_stream import CloseableIterator
        if self._table is None:
            from pyflink_on_spark.common.types import Row
            return CloseableIterator(iter([Row("OK")]))
        rows = self._table._rows()
        converters = _collected_converters(self._table._resolved_columns())
        return CloseableIterator(_with_converted(rows, converters) if converters else rows)

    def print(self) -> None:
        """The result in Flink's tableau rendering (table/tableau.py)."""
        from pyflink_on_spark.table.tableau import tableau
        if self._table is None:
            print("OK")
            return
        table = self._table
        lines = tableau(table._resolved_columns(), table._t_env._executor().table_rows(
            table._description), table._t_env._is_streaming())
        print("\n".join(lines))


def rows_of(rows: Iterator[tuple]):
    """Row objects of (values, RowKind value) pairs."""
    from pyflink_on_spark.common.types import Row, RowKind
    for values, kind in rows:
        row = Row(*values)
        if kind:
            row.set_row_kind(RowKind(kind))
        yield row


def collected_float(value: Optional[float]) -> Optional[float]:
    """A FLOAT value as PyFlink's collect() gives it: PyFlink 1.20.5's
    pickled_bytes_to_python_converter reads a FLOAT with ast.literal_eval of Java's
    Float.toString of the value (seen: 1.1 is 1.1, f / 3 of 1 0.33333334, where to_data_stream
    and to_pandas give the single's own value, 1.100000023841858; an infinite value fails
    there with literal_eval's ValueError, `malformed node or string ...`, seen for
    CAST('Infinity' AS FLOAT): literal_eval raises the same here)."""
    if value is None:
        return None
    from pyflink_on_spark.common._java_text import java_float_str
    text = java_float_str(value)
    if text[-1] in "yN":      # Infinity, -Infinity, NaN: not a Python literal
        import ast
        return ast.literal_eval(text)
    return float(text)


def _collected_converters(columns) -> List[tuple]:
    """(position, converter) of each column whose values collect() gives otherwise than the
    rows hold them: FLOAT (collected_float) and ARRAY / MAP / ROW (codecs/nested_values.py:
    a ROW is Row([values]), a FLOAT inside as collected_float gives it)."""
    from pyflink_on_spark.codecs.nested_values import collected_converter, is_nested
    converters = []
    for i, column in enumerate(columns):
        if column.sql_type == "FLOAT":
            converters.append((i, collected_float))
        elif is_nested(column.sql_type):
            converters.append((i, collected_converter(column.sql_type, collected_float)))
    return converters


def _with_converted(rows: Iterator, converters: List[tuple]) -> Iterator:
    for row in rows:
        values = row._values
        for i, convert in converters:
            values[i] = convert(values[i])
        yield row
