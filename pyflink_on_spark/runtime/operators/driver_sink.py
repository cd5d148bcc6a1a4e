"""Sinks that end at the driver: print() renders lines in the task, execute_and_collect()
passes values. Their output leaves the stage through a "driver" exit."""
from __future__ import annotations

from pyflink_on_spark.runtime.operators.base import Operator


class PrintSinkOperator(Operator):
    """Flink's PrintSinkFunction format: "{identifier}:{subtask+1}> value" / "{subtask+1}> "
    when the sink runs with parallelism > 1, just "{identifier}> " or nothing at 1."""

    def __init__(self, identifier, render) -> None:
        super().__init__()
        self.identifier = identifier
        self.render = render

    def open(self) -> None:
        task = self.task
        if task.parallelism > 1:
            prefix = "%d> " % (task.subtask_index + 1)
            if self.identifier:
                prefix = "%s:%s" % (self.identifier, prefix)
        else:
            prefix = "%s> " % self.identifier if self.identifier else ""
        self._prefix = prefix

    def process_element(self, value, timestamp) -> None:
        self.output.collect(self._prefix + self.render(value), None)

    def process_stamped(self, values, stamps) -> None:
        prefix, render = self._prefix, self.render
        self.output.collect_many([prefix + render(value) for value in values], None)

    def runs_user_code(self) -> bool:
        return False   # the values' own str(), and the driver exit after it

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark


class CollectSinkOperator(Operator):
    def process_element(self, value, timestamp) -> None:
        self.output.collect(value, None)

    def process_stamped(self, values, stamps) -> None:
        self.output.collect_many(values, None)

    def runs_user_code(self) -> bool:
        return False   # the driver exit after it runs none

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark
