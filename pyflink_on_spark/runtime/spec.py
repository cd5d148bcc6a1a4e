"""What a task runs: the frozen description of one stage (a chain of operators).

The graph layer compiles a job into StageSpecs; the Spark layer ships each StageSpec (pickled
once) to its tasks; `runtime.task.StreamTask` builds and runs the chain from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Tuple

MIN_WATERMARK = -(2 ** 63)
MAX_WATERMARK = 2 ** 63 - 1

# Row kinds of the stage-boundary schema (see spark/batch_schema.py).
KIND_RECORDS = 0      # payload: pickled (values, timestamps-or-None)
KIND_WATERMARK = 1    # payload: pickled int
KIND_SPLIT = 2        # payload: pickled source split
KIND_DRIVER = 3       # payload: pickled (values, None) for a driver sink (print / collect)


@dataclass(frozen=True)
class OperatorSpec:
    node_id: int
    name: str
    factory: Callable[[], Any]      # builds the runtime Operator (holds the user function)
    parallelism: int
    max_parallelism: int
    routes_side_outputs: bool = True  # False: `yield tag, value` stays on the main output


@dataclass(frozen=True)
class ChainLink:
    """Inside a stage: the output (main, or side output `side_tag`) of `source` feeds `target`."""
    source: int
    target: int
    side_tag: Optional[str] = None
    converter: Any = None      # side outputs: value -> value of the OutputTag's declared type


@dataclass(frozen=True)
class Partitioning:
    """Flink's channel selection for an exchange between stages."""
    kind: str                          # forward rebalance rescale shuffle broadcast global keyed custom driver
    key_selector: Any = None           # keyed / custom
    partitioner: Any = None            # custom: Partitioner
    key_type: Any = None               # keyed: the declared key type (decides the key's hash)


@dataclass(frozen=True)
class ExitSpec:
    """An edge leaving the stage: records are chunked per destination subtask."""
    edge_id: int
    source: int
    side_tag: Optional[str]
    partitioning: Partitioning
    target_parallelism: int
    target_max_parallelism: int
    converter: Any = None      # value -> value as PyFlink's serializer of the declared type
                               # turns it at an unchained boundary (None: unchanged)


@dataclass(frozen=True)
class InputSpec:
    edge_id: int
    input_index: int          # 1 or 2: which input of the head operator
    upstream_parallelism: int


@dataclass(frozen=True)
class JobConfig:
    runtime_mode: str = "STREAMING"          # STREAMING | BATCH
    auto_watermark_interval: int = 200
    job_parameters: Mapping[str, str] = field(default_factory=dict)
    state_backend: Any = None                 # the API's StateBackend object or None
    job_name: str = "Flink Streaming Job"


@dataclass(frozen=True)
class StageSpec:
    stage_id: int
    parallelism: int
    head: int                                # node id of the chain head
    operators: Tuple[OperatorSpec, ...]      # topological order, head first
    links: Tuple[ChainLink, ...]
    exits: Tuple[ExitSpec, ...]
    inputs: Tuple[InputSpec, ...]
    task_name: str                           # Flink's chained name, e.g. "Map -> Filter"
    config: JobConfig
