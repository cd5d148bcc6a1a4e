"""Drive one runtime operator by hand, without a graph, a task or Spark: the operator test
harness (the role of Flink's OneInputStreamOperatorTestHarness / TwoInputStreamOperatorTestHarness).

    harness = OperatorHarness(KeyedProcessOperator(MyFunction(), key_selector))
    harness.element(("a", 1), timestamp=10).watermark(10).processing_time(2_000)
    harness.element2(...)            # a two-input operator's second input
    harness.end()                    # final watermark, end of input, close
    harness.values()                 # main output values; harness.out has (value, timestamp)
    harness.side_values("late")      # a side output's values (tags given to the constructor)

The operator runs through its whole lifecycle (setup -> prepare -> open -> ... -> close) as a
task runs it; processing time is a settable clock.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Tuple

from pyflink_on_spark.runtime.context import TaskContext
from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.runtime.output import Output
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK


class ManualClock:
    """A processing-time clock the test sets (milliseconds)."""

    def __init__(self, now: int = 0) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


class OperatorHarness:
    """One operator instance, opened. ``out``: the main output as [(value, timestamp)];
    ``side[tag_id]``: a side output's [(value, timestamp)] for each tag id in ``side_tags``;
    ``watermarks``: the watermarks the operator emitted."""

    def __init__(self, operator: Operator, *, side_tags: Iterable[str] = (),
                 clock: Optional[ManualClock] = None, name: str = "operator",
                 subtask_index: int = 0, parallelism: int = 1, max_parallelism: int = 128,
                 runtime_mode: str = "STREAMING", state_backend: Any = None,
                 work_dir: Optional[str] = None, **task_fields: Any) -> None:
        self.clock = clock if clock is not None else ManualClock()
        self.out: List[Tuple[Any, Optional[int]]] = []
        self.side: Dict[str, List[Tuple[Any, Optional[int]]]] = {}
        self.watermarks: List[int] = []
        output = Output()
        output.add_main_target(self._collect, self.watermarks.append)
        for tag_id in side_tags:
            records = self.side[tag_id] = []
            output.add_side_target(tag_id, lambda v, t, _r=records: _r.append((v, t)),
                                   self.watermarks.append)
        self.task = TaskContext(task_name=name, subtask_index=subtask_index,
                                parallelism=parallelism, max_parallelism=max_parallelism,
                                clock=self.clock, runtime_mode=runtime_mode,
                                state_backend=state_backend, work_dir=work_dir, **task_fields)
        self.operator = operator
        operator.setup(output, self.task, name)
        operator.prepare()
        operator.open()

    def _collect(self, value, timestamp) -> None:
        self.out.append((value, timestamp))

    # -- in ---------------------------------------------------------------------------------

    def element(self, value, timestamp: Optional[int] = None) -> "OperatorHarness":
        self.operator.process_element(value, timestamp)
        return self

    def element2(self, value, timestamp: Optional[int] = None) -> "OperatorHarness":
        self.operator.process_element2(value, timestamp)
        return self

    def elements(self, values_and_timestamps) -> "OperatorHarness":
        """(value, timestamp) pairs into input 1."""
        process = self.operator.process_element
        for value, timestamp in values_and_timestamps:
            process(value, timestamp)
        return self

    def watermark(self, watermark: int) -> "OperatorHarness":
        self.operator.process_watermark(watermark)
        return self

    def processing_time(self, now: int) -> "OperatorHarness":
        self.clock.now = now
        self.operator.advance_processing_time(now)
        return self

    def end(self) -> "OperatorHarness":
        """The end of a bounded input, as a task ends it: the final watermark, end_input,
        close."""
        self.operator.process_watermark(MAX_WATERMARK)
        self.operator.end_input()
        self.operator.close()
        return self

    def close(self) -> "OperatorHarness":
        self.operator.close()
        return self

    # -- out --------------------------------------------------------------------------------

    def values(self) -> list:
        return [v for v, _ in self.out]

    def take(self) -> list:
        """The main output values so far, clearing them."""
        taken = self.values()
        del self.out[:]
        return taken

    def side_values(self, tag_id: str) -> list:
        return [v for v, _ in self.side[tag_id]]
