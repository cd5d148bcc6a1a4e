"""The upsert sink of a jdbc table with a primary key (table/jdbc_tables.py): each changelog
row (a Row with its kind) goes to codecs.jdbc.upsert_writer.JdbcUpsertWriter, +I / +U as an
upsert, -U / -D as a delete by key (Flink's JDBC table sink: its reduced executor deletes on
UPDATE_BEFORE and DELETE). Batching and flushing as the DataStream JDBC sink's."""
from __future__ import annotations

from pyflink_on_spark.codecs.jdbc.drivers import driver_for
from pyflink_on_spark.codecs.jdbc.upsert_writer import JdbcUpsertWriter
from pyflink_on_spark.common.types import RowKind
from pyflink_on_spark.runtime.operators.jdbc_sink import JdbcSinkOperator

_DELETES = (RowKind.UPDATE_BEFORE, RowKind.DELETE)


class JdbcUpsertSinkOperator(JdbcSinkOperator):

    def make_writer(self) -> JdbcUpsertWriter:
        spec = self.spec
        return JdbcUpsertWriter(spec.sql, spec.delete_sql, spec.key_indexes,
                                driver_for(spec.url, spec.user_name, spec.password),
                                spec.batch_size, spec.batch_interval_ms, spec.max_retries,
                                clock=self.task.clock, sql_types=spec.sql_types)

    def write(self, value) -> None:
        self.writer.add(tuple(value), value.get_row_kind() in _DELETES)
