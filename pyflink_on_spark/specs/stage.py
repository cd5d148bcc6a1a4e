"""The compiled job: stages (Flink's operator chains) and how they connect.

The graph compiler (graph/compile.py) builds a CompiledJob; an executor runs it: it feeds
each stage's tasks their rows (source splits, or the exits of upstream stages) and does what
each sink exit needs on the driver. A task receives only its StageSpec (pickled once per
stage) and builds the operators from their specs (runtime/registry.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Tuple

from pyflink_on_spark.specs.partitioning import Partitioning


@dataclass(frozen=True)
class JobConfig:
    runtime_mode: str = "STREAMING"          # STREAMING | BATCH
    auto_watermark_interval: int = 200
    job_parameters: Mapping[str, str] = field(default_factory=dict)
    state_backend: Any = None                 # the API's StateBackend object or None
    job_name: str = "Flink Streaming Job"


@dataclass(frozen=True)
class OperatorSpec:
    node_id: int
    name: str
    op: Any                     # the operator's spec (specs.operators / sources / sinks)
    parallelism: int
    max_parallelism: int
    routes_side_outputs: bool = True  # False: `yield tag, value` stays on the main output
    uid: Optional[str] = None         # the program's uid() for the operator (names its state)


@dataclass(frozen=True)
class ChainLink:
    """Inside a stage: the output (main, or side output `side_tag`) of `source` feeds `target`."""
    source: int
    target: int
    side_tag: Optional[str] = None
    # value -> value as the declared type's serializer gives it back (side outputs, and main
    # outputs where PyFlink does not fuse the two Python operators: graph/python_fusion.py)
    converter: Any = None


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
    to_driver: bool = False    # a sink's exit: its rows go to the executor, not a stage
    sort_by_key: bool = False  # BATCH into a keyed operator: rows of one key and timestamp,
                               # ordered by them (runtime/batch_order.py)
    counts_records: bool = False   # key-sorted into a two-input operator: at the end, each
                                   # destination gets a row of how many records it was sent
    # key-sorted into a BATCH rolling aggregation over a tuple index: (its Aggregation's
    # value, the index, whether every upstream subtask may or only the first); the exit
    # may send a key's partial result (runtime/exits/key_sorted.py, graph/compile.py
    # _partial_aggregation)
    partial_aggregation: Optional[Tuple[str, int, bool]] = None
    # key-sorted into a BATCH reduce, its only input: the reduce the first upstream subtask
    # may apply to the records it sends, whose rows the reduce reads first, and every
    # upstream subtask when the reduce is associative (runtime/exits/key_sorted.py)
    leading_fold: Optional["LeadingFold"] = None


@dataclass(frozen=True)
class LeadingFold:
    """A BATCH reduce's function and name, for the exit of upstream subtask 0 into it, and
    of every upstream subtask when the function is proved associative (every_subtask)."""
    function: Any               # ReduceFunction without open() or close() of its own
    operator_name: str
    every_subtask: bool = False


@dataclass(frozen=True)
class InputSpec:
    edge_id: int
    input_index: int          # 1 or 2: which input of the head operator
    upstream_parallelism: int
    sorted_by_key: bool = False   # its rows arrive in key order (ExitSpec.sort_by_key)


@dataclass(frozen=True)
class StageSpec:
    """Everything a task of the stage needs (and nothing more: it is shipped to each)."""
    stage_id: int
    parallelism: int
    head: int                                # node id of the chain head
    operators: Tuple[OperatorSpec, ...]      # topological order, head first
    links: Tuple[ChainLink, ...]
    exits: Tuple[ExitSpec, ...]
    inputs: Tuple[InputSpec, ...]
    task_name: str                           # Flink's chained name, e.g. "Map, Filter"
    config: JobConfig


@dataclass(frozen=True)
class UpstreamEdge:
    """Rows of exit `edge_id` of stage `stage_id` are input rows of this stage."""
    stage_id: int
    edge_id: int


@dataclass(frozen=True)
class StageSource:
    """A source stage's input: its splits, or a frame source the Spark layer reads."""
    splits: Tuple[Tuple[int, Any], ...]      # (subtask, split) in read order
    frame: Any = None                        # a source the executor reads itself (a
                                             # specs.sources FileSourceSpec, KafkaSourceSpec)


@dataclass(frozen=True)
class SinkExit:
    """Sink node `node_id` of the stage sends its rows out through exit `edge_id`."""
    edge_id: int
    node_id: int
    sink: Any                                # the sink's spec (specs.sinks)


@dataclass(frozen=True)
class CompiledStage:
    spec: StageSpec
    upstream: Tuple[UpstreamEdge, ...]       # empty for a source stage
    source: Optional[StageSource]            # None unless the head is a source
    sinks: Tuple[SinkExit, ...]


@dataclass(frozen=True)
class CompiledJob:
    stages: Tuple[CompiledStage, ...]        # topological order

    def stage_of(self, node_id: int) -> CompiledStage:
        for stage in self.stages:
            if any(op.node_id == node_id for op in stage.spec.operators):
                return stage
        raise KeyError(node_id)

    def consumer_counts(self) -> Dict[int, int]:
        """stage id -> how many later stages read its output."""
        consumers = {s.spec.stage_id: 0 for s in self.stages}
        for stage in self.stages:
            for up in {u.stage_id for u in stage.upstream}:
                consumers[up] += 1
        return consumers

    def reads_frame_sources(self) -> bool:
        """Some stage reads a source through a Spark frame (a file format Spark reads, Kafka):
        its plan holds that run's listing or offsets, and scans rows one by one."""
        return any(stage.source is not None and stage.source.frame is not None
                   for stage in self.stages)

    def exit(self, edge_id: int) -> ExitSpec:
        for stage in self.stages:
            for exit_spec in stage.spec.exits:
                if exit_spec.edge_id == edge_id:
                    return exit_spec
        raise KeyError(edge_id)

    def operator(self, node_id: int) -> OperatorSpec:
        return next(op for op in self.stage_of(node_id).spec.operators
                    if op.node_id == node_id)


@dataclass(frozen=True)
class CheckpointSettings:
    """The job's checkpointing, as an unbounded job's executor needs it (docs/streaming.md):
    the interval (<= 0: checkpointing disabled) and the checkpoint storage directory (a URI
    or path; None: none configured)."""
    interval_ms: int = -1
    directory: Optional[str] = None
    min_pause_ms: int = 0
    timeout_ms: Optional[int] = None            # None: Flink's default (10 minutes)
    tolerable_failures: Optional[int] = None    # None: not set
    retention: Optional[str] = None             # ExternalizedCheckpointRetention's name
    # savepoints (docs/operations.md): the default target directory, and the savepoint a job
    # starts from (execution.savepoint.path) with whether state no operator claims is dropped
    savepoint_dir: Optional[str] = None
    restore_path: Optional[str] = None
    allow_non_restored: bool = False
    # a job over bounded sources that ends in a savepoint there (spark/streaming/backfill.py)
    savepoint_at_end: Optional[str] = None


@dataclass(frozen=True)
class PythonDependencies:
    """What the job's Python workers need besides the job script (add_python_file,
    add_python_archive, set_python_requirements, set_python_executable, or the python.*
    configuration keys), as the program named it; the executor ships it (spark/
    python_dependencies.py)."""
    files: Tuple[str, ...] = ()                          # files, packages, directories, zips
    archives: Tuple[Tuple[str, Optional[str]], ...] = ()  # (zip archive, target directory)
    requirements: Optional[Tuple[str, Optional[str]]] = None  # (requirements.txt, cache dir)
    executable: Optional[str] = None                     # the workers' Python interpreter

    def __bool__(self) -> bool:
        return bool(self.files or self.archives or self.requirements or self.executable)


@dataclass(frozen=True)
class JobSettings:
    """What StreamExecutionEnvironment hands to an executor entry point with its sink nodes:
    the job's configuration and how to compile its graph."""
    config: JobConfig
    default_parallelism: int
    default_max_parallelism: Optional[int] = None   # None or <= 0: Flink's default rule
    chaining_enabled: bool = True
    checkpoints: CheckpointSettings = CheckpointSettings()
    python: PythonDependencies = PythonDependencies()
    # Flink's metrics.reporter.* configuration keys (spark/streaming/metrics_reporting.py)
    metric_reporters: Tuple[Tuple[str, str], ...] = ()
