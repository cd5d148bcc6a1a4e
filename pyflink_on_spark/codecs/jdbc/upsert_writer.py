"""The JDBC writer of a jdbc table with a primary key (table/jdbc_tables.py), as Flink's
TableBufferReducedStatementExecutor runs it: each row is an upsert (+I, +U) or a delete by
its key (-U, -D); the batch keeps one entry per key, the last one (here in the order the keys
first came; Flink's buffer is a hash map, its order its own: docs/table.md); a flush runs the
batch's upserts, then its deletes. The batch is
flushed when `batch_size` rows were added since the last flush (rows, not keys: Flink counts
each record), on the interval and at the end, with the retries of JdbcBatchWriter, whose
batching, retry and error text this writer shares. Seen on PyFlink 1.20.5 (the server's
statement log): three rows of two keys in one buffer are two upserts."""
from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

from pyflink_on_spark.codecs.jdbc.drivers import adapt_row
from pyflink_on_spark.codecs.jdbc.statements import convert_placeholders
from pyflink_on_spark.codecs.jdbc.writer import JdbcBatchWriter


class JdbcUpsertWriter(JdbcBatchWriter):
    """`sql` upserts a row (its fields in order), `delete_sql` deletes by the key (the fields
    at `key_indexes`, in that order); both with `?` markers."""

    def __init__(self, sql: str, delete_sql: str, key_indexes: Sequence[int], driver,
                 batch_size: int, batch_interval_ms: int, max_retries: int,
                 **kwargs: Any) -> None:
        super().__init__(sql, driver, batch_size, batch_interval_ms, max_retries, **kwargs)
        self.delete_sql = delete_sql
        self.delete_statement, _ = convert_placeholders(delete_sql, driver.paramstyle,
                                                        driver.dialect)
        self.key_indexes = tuple(key_indexes)
        self._positions: Dict[Tuple[Any, ...], int] = {}   # key -> its entry in _batch
        self._added = 0                                    # rows added since the last flush

    def add(self, values: Sequence[Any], delete: bool = False) -> None:
        row = adapt_row(self.driver, values, self.sql_types)
        key = tuple(row[i] for i in self.key_indexes)
        at = self._positions.get(key)
        if at is None:
            self._positions[key] = len(self._batch)
            self._batch.append((delete, row))
        else:
            self._batch[at] = (delete, row)
        self._added += 1
        if 0 < self.batch_size <= self._added:
            self.flush()

    def flush(self) -> None:
        super().flush()
        if not self._batch:          # written: the next rows start a new batch
            self._positions = {}
            self._added = 0

    def close(self) -> None:
        self._positions = {}
        super().close()

    def _key(self, row: Tuple[Any, ...]) -> Tuple[Any, ...]:
        return tuple(row[i] for i in self.key_indexes)

    def _execute(self, entries: List[Tuple[bool, Tuple[Any, ...]]]) -> None:
        upserts = [row for delete, row in entries if not delete]
        deletes = [self._key(row) for delete, row in entries if delete]
        cursor = self.driver.cursor(self._connection)
        try:
            if upserts:
                cursor.executemany(self.statement, upserts)
            if deletes:
                cursor.executemany(self.delete_statement, deletes)
        finally:
            cursor.close()
        self._connection.commit()

    def _execute_one(self, cursor, entry: Tuple[bool, Tuple[Any, ...]]) -> None:
        delete, row = entry
        if delete:
            cursor.execute(self.delete_statement, self._key(row))
        else:
            cursor.execute(self.statement, row)

    def _row_of(self, entry: Tuple[bool, Tuple[Any, ...]]) -> Tuple[Any, ...]:
        return entry[1]

    def _sql_of(self, entry: Tuple[bool, Tuple[Any, ...]]) -> str:
        return self.delete_sql if entry[0] else self.sql
