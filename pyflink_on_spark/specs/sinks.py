"""What a sink node runs, and what happens to the rows its tasks send out of the stage.

Every sink leaves its stage through an exit of its own (stage.SinkExit). `reaches_driver`:
its rows are read on the driver (printed, collected, committed); otherwise the Spark layer
writes them with Spark's own writer.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Optional


@dataclass(frozen=True)
class PrintSinkSpec:
    """print(): lines rendered in the task ("{identifier}:{subtask}> value"), written by the
    driver."""
    identifier: Optional[str] = None
    input_type: Any = None              # the printed stream's declared type (its format)
    reaches_driver: ClassVar[bool] = True


@dataclass(frozen=True)
class CollectSinkSpec:
    """execute_and_collect(): values handed to the driver's iterator."""
    reaches_driver: ClassVar[bool] = True


@dataclass(frozen=True)
class CommittingSinkSpec:
    """Files: the operator writes in the task and emits small committables; the driver calls
    committer.commit(committables) once the job succeeded, committer.abort() otherwise."""
    operator_factory: Callable[[], Any]  # builds the writing operator inside the task
    committer: Any
    reaches_driver: ClassVar[bool] = True


@dataclass(frozen=True)
class FrameSinkSpec:
    """Kafka: the operator encodes records in the task; the Spark layer writes the encoded
    rows with Spark's writer described by `frame_writer`."""
    operator_factory: Callable[[], Any]  # builds the encoding operator inside the task
    frame_writer: Any
    reaches_driver: ClassVar[bool] = False
