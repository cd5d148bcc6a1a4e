"""TableResult (Table.execute(), TableEnvironment.execute_sql()) and ResultKind."""
from __future__ import annotations

from typing import Iterator

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
        return CloseableIterator(self._table._rows())

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


