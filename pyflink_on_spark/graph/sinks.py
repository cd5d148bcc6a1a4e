"""Sink definitions: sinks that write outside the driver (files, Kafka).

Two kinds, both leaving their stage through a "driver" exit addressed by edge id:
* "commit": the operator writes in the task (file parts into a hidden staging directory) and
  emits small committables; the executor collects them on the driver and calls
  `committer.commit(committables)` after the job succeeded, `committer.abort()` otherwise.
* "frame": the operator encodes records; the Spark layer writes the stage's rows of that
  edge with Spark's own writer (`frame_writer`, e.g. Kafka), see spark/frame_sinks.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class SinkDefinition:
    name: str
    kind: str                             # "commit" | "frame"
    operator_factory: Callable[[], Any]   # builds the runtime operator inside a task
    committer: Any = None                 # commit(committables), abort(): on the driver
    frame_writer: Any = None              # a description the Spark layer writes with
