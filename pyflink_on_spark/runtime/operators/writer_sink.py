"""A sink subtask that hands each record to a writer of an external system (a database, a
search engine): the shape the JDBC, Cassandra and Elasticsearch sinks share.

Each record, converted to the stream's declared type when the spec says so, goes to the
writer (``write``); the writer's and the conversion's errors fail the job with their own
message (``user_error``: the writers' messages say what to check). The writer flushes at the
end of input and at each micro-batch's end (Flink: at each checkpoint), and, for a writer with
a flush interval, on processing time (``has_timers``). Nothing leaves the task."""
from __future__ import annotations

from typing import Any, Callable

from pyflink_on_spark.runtime.operators.base import Operator


class WriterSinkOperator(Operator):
    """Subclasses say how to build the writer (``make_writer``) and how a record reaches it
    (``write``); a writer has ``flush()`` and ``close()``, and ``open()`` /
    ``flush_if_due(now)`` when it needs them."""

    def __init__(self, spec: Any) -> None:
        super().__init__()
        self.spec = spec
        self.writer = None
        self._convert = spec.converter

    def make_writer(self):
        raise NotImplementedError

    def write(self, value) -> None:
        raise NotImplementedError

    def open(self) -> None:
        writer = self.make_writer()
        if hasattr(writer, "open"):
            self._run(writer.open)
        self.writer = writer

    def _run(self, action: Callable, *args) -> None:
        try:
            action(*args)
        except Exception as e:
            raise self.user_error(e) from None

    def process_element(self, value, timestamp) -> None:
        try:
            if self._convert is not None:
                value = self._convert(value)
            self.write(value)
        except Exception as e:
            raise self.user_error(e) from None

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark

    def advance_processing_time(self, now: int) -> None:
        self._run(self.writer.flush_if_due, now)

    def flush(self) -> None:
        self._run(self.writer.flush)

    def end_input(self) -> None:
        self.flush()

    def end_batch(self, now: int) -> None:
        self.flush()    # the batch's records are written before the batch is done

    def close(self) -> None:
        if self.writer is not None:
            writer, self.writer = self.writer, None
            self.close_writer(writer)

    def close_writer(self, writer) -> None:
        writer.close()
