"""Per-task information and the RuntimeContext handed to user functions' open()."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional

from pyflink_on_spark.datastream.functions import RuntimeContext
from pyflink_on_spark.runtime.metrics import MetricGroup


def wall_clock_ms() -> int:
    return int(time.time() * 1000)


def _no_progress() -> None:
    pass


@dataclass
class TaskContext:
    """What every operator of one running task shares."""
    task_name: str
    subtask_index: int
    parallelism: int
    max_parallelism: int
    attempt_number: int = 0
    job_parameters: Mapping[str, str] = field(default_factory=dict)
    runtime_mode: str = "STREAMING"
    auto_watermark_interval: int = 200
    state_backend: Any = None
    work_dir: Optional[str] = None
    clock: Callable[[], int] = wall_clock_ms
    metrics: MetricGroup = field(default_factory=MetricGroup)
    # called by an operator that runs long inside one call (a source reading its split)
    # every so many records: lets the task end a bundle on time (runtime/task.py)
    progress: Callable[[], None] = _no_progress


class StreamingRuntimeContext(RuntimeContext):
    """RuntimeContext of one operator instance; keyed state when the operator is keyed."""

    def __init__(self, task: TaskContext, keyed_state_backend=None):
        self._task = task
        self._backend = keyed_state_backend

    def get_task_name(self) -> str:
        return self._task.task_name

    def get_number_of_parallel_subtasks(self) -> int:
        return self._task.parallelism

    def get_max_number_of_parallel_subtasks(self) -> int:
        return self._task.max_parallelism

    def get_index_of_this_subtask(self) -> int:
        return self._task.subtask_index

    def get_attempt_number(self) -> int:
        return self._task.attempt_number

    def get_task_name_with_subtasks(self) -> str:
        return "%s (%d/%d)#%d" % (self._task.task_name, self._task.subtask_index + 1,
                                  self._task.parallelism, self._task.attempt_number)

    def get_job_parameter(self, key: str, default_value: str):
        return self._task.job_parameters.get(key, default_value)

    def get_metrics_group(self) -> MetricGroup:
        return self._task.metrics

    def _keyed(self, method: str):
        if self._backend is None:
            raise RuntimeError(
                "Keyed state can only be used on a 'keyed stream', i.e., after a 'key_by()' "
                "operation (called %s)." % method)
        return self._backend

    def get_state(self, state_descriptor):
        return self._keyed("get_state").get_partitioned_state(state_descriptor)

    def get_list_state(self, state_descriptor):
        return self._keyed("get_list_state").get_partitioned_state(state_descriptor)

    def get_map_state(self, state_descriptor):
        return self._keyed("get_map_state").get_partitioned_state(state_descriptor)

    def get_reducing_state(self, state_descriptor):
        return self._keyed("get_reducing_state").get_partitioned_state(state_descriptor)

    def get_aggregating_state(self, state_descriptor):
        return self._keyed("get_aggregating_state").get_partitioned_state(state_descriptor)
