"""What a plan picture shows, read from a compiled job (specs.stage.CompiledJob): the
DataStream graph (operators, edges with their partitioning, side outputs, chains) and the
Spark stages each chain becomes (as spark/executor.py builds them: one mapInArrow per chain,
an exact repartition in front of it, sinks read on the driver or written by Spark).

Every renderer (text, Mermaid, Graphviz dot, HTML) draws this one model."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from pyflink_on_spark.specs import sinks as sink_specs
from pyflink_on_spark.specs import sources as source_specs
from pyflink_on_spark.specs.operators import BROADCAST_SPECS
from pyflink_on_spark.specs.partitioning import ForwardPartitioning
from pyflink_on_spark.specs.stage import CompiledJob, CompiledStage

SOURCE, OPERATOR, SINK = "source", "operator", "sink"


@dataclass(frozen=True)
class PlanOperator:
    node_id: int
    name: str
    kind: str                    # source | operator | sink
    parallelism: int
    stage_id: int                # the chain (= Spark stage) it runs in
    spec: str                    # the spec's class name: what runs (MapSpec, WindowSpec...)
    state: Optional[str]         # "keyed" | "broadcast" | None


@dataclass(frozen=True)
class PlanEdge:
    source: int                  # node ids
    target: int
    partitioning: str            # Flink's ship strategy: FORWARD, HASH, REBALANCE...
    side_tag: Optional[str]      # a side output's tag id, None for the main output
    chained: bool                # inside one chain (a method call), not an exchange

    @property
    def label(self) -> str:
        words = [] if self.chained else [self.partitioning]
        if self.side_tag is not None:
            words.append("side output '%s'" % self.side_tag)
        return " ".join(words)


@dataclass(frozen=True)
class PlanStage:
    stage_id: int
    parallelism: int             # Spark partitions = Flink subtasks
    task_name: str               # Flink's chained name ("Map, Filter")
    operators: Tuple[int, ...]   # node ids, chain order
    input: str                   # where the stage's rows come from
    steps: Tuple[str, ...]       # the Spark operations, in order
    outputs: Tuple[str, ...]     # where its rows go (stages, the driver, Spark writers)
    state: Optional[str]         # where keyed / broadcast state lives, None if stateless
    upstream: Tuple[Tuple[int, str], ...]   # (stage id, ship strategy) of its input edges


@dataclass(frozen=True)
class PlanPicture:
    job_name: str
    runtime_mode: str            # STREAMING | BATCH
    unbounded: bool              # Structured Streaming (micro-batches) instead of a batch job
    operators: Tuple[PlanOperator, ...]
    edges: Tuple[PlanEdge, ...]
    stages: Tuple[PlanStage, ...]

    def operator(self, node_id: int) -> PlanOperator:
        return next(op for op in self.operators if op.node_id == node_id)

    @property
    def spark_summary(self) -> str:
        shuffles = sum(len(s.upstream) for s in self.stages)
        how = ("one Structured Streaming query; each micro-batch runs these stages"
               if self.unbounded else "one Spark batch job")
        return "Spark stages: %d, shuffles: %d, %s" % (len(self.stages), shuffles, how)


def _state_of(spec) -> Optional[str]:
    if isinstance(spec, BROADCAST_SPECS) and not hasattr(spec, "key_selector"):
        return "broadcast"
    if any(name.startswith("key_selector") for name in vars(spec)):
        return "keyed"
    return None


def _backend_name(job: CompiledJob) -> str:
    backend = job.stages[0].spec.config.state_backend if job.stages else None
    return type(backend).__name__ if backend is not None else "HashMapStateBackend"


def _source_step(stage: CompiledStage) -> str:
    source = stage.source
    if source.frame is None:
        return "createDataFrame(%d split row(s))" % len(source.splits)
    if isinstance(source.frame, source_specs.KafkaSourceSpec):
        return "spark.read.format('kafka')"
    if isinstance(source.frame, source_specs.RabbitMQSourceSpec):
        return "the driver's RabbitMQ consumer (per micro-batch, recorded in the checkpoint)"
    if isinstance(source.frame, source_specs.HybridSourceSpec):
        return "HybridSource: one bounded source per micro-batch, then the last source"
    if getattr(source.frame, "monitor_interval_ms", 0):
        return "file index of the monitored directory (per micro-batch)"
    return "Spark file reader"


def _sink_output(sink) -> str:
    if isinstance(sink, sink_specs.PrintSinkSpec):
        return "driver: print"
    if isinstance(sink, sink_specs.CollectSinkSpec):
        return "driver: execute_and_collect"
    if isinstance(sink, sink_specs.FileSinkSpec):
        return "driver: commit FileSink parts"
    if isinstance(sink, sink_specs.KafkaSinkSpec):
        return "tasks: Kafka producer (at least once)"
    if isinstance(sink, sink_specs.KafkaTransactionalSinkSpec):
        return "tasks: Kafka transactions (exactly once)"
    if isinstance(sink, sink_specs.RabbitMQSinkSpec):
        return "tasks: RabbitMQ publisher with confirms (at least once)"
    if isinstance(sink, sink_specs.DiscardSinkSpec):
        return "discarded"
    return type(sink).__name__


def picture_of(job: CompiledJob, job_name: str, unbounded: bool = False) -> PlanPicture:
    """The picture of a compiled job (spark.entry.CapturedJob gives all three)."""
    head_stage_of_edge: Dict[int, CompiledStage] = {
        i.edge_id: stage for stage in job.stages for i in stage.spec.inputs}
    backend = _backend_name(job)
    operators: List[PlanOperator] = []
    edges: List[PlanEdge] = []
    stages: List[PlanStage] = []
    for stage in job.stages:
        spec = stage.spec
        sink_nodes = {s.node_id for s in stage.sinks}
        for op in spec.operators:
            if op.node_id in sink_nodes:
                kind = SINK
            elif op.node_id == spec.head and stage.source is not None:
                kind = SOURCE
            else:
                kind = OPERATOR
            operators.append(PlanOperator(op.node_id, op.name, kind, op.parallelism,
                                          spec.stage_id, type(op.op).__name__,
                                          _state_of(op.op)))
        for link in spec.links:
            edges.append(PlanEdge(link.source, link.target, ForwardPartitioning.ship_strategy,
                                  link.side_tag, chained=True))
        outputs: List[str] = []
        for exit_spec in spec.exits:
            target = head_stage_of_edge.get(exit_spec.edge_id)
            if exit_spec.to_driver or target is None:
                continue
            edges.append(PlanEdge(exit_spec.source, target.spec.head,
                                  exit_spec.partitioning.ship_strategy, exit_spec.side_tag,
                                  chained=False))
            outputs.append("stage %d (%s)" % (target.spec.stage_id,
                                              exit_spec.partitioning.ship_strategy))
        outputs.extend(_sink_output(s.sink) for s in stage.sinks)
        states = {_state_of(op.op) for op in spec.operators} - {None}
        state = None
        if "keyed" in states:
            state = ("keyed state: %s in each Spark task, one per subtask (its key groups)"
                     % backend)
        elif "broadcast" in states:
            state = "broadcast state: in each Spark task (every subtask a full copy)"
        upstream = tuple((u.stage_id, job.exit(u.edge_id).partitioning.ship_strategy)
                         for u in stage.upstream)
        if stage.source is not None:
            first = _source_step(stage)
            where = "source"
        else:
            first = "union of " + ", ".join("stage %d" % s for s, _ in upstream) \
                if len(upstream) > 1 else "rows of stage %d" % upstream[0][0]
            where = "shuffle from " + ", ".join("stage %d (%s)" % u for u in upstream)
        steps = (first, "repartitionById(%d, dest)" % spec.parallelism,
                 "sortWithinPartitions(edge, src, seq)",
                 "mapInArrow: %s" % spec.task_name)
        stages.append(PlanStage(spec.stage_id, spec.parallelism, spec.task_name,
                                tuple(op.node_id for op in spec.operators), where, steps,
                                tuple(outputs), state, upstream))
    config_mode = job.stages[0].spec.config.runtime_mode if job.stages else "STREAMING"
    return PlanPicture(job_name, config_mode, unbounded, tuple(operators), tuple(edges),
                       tuple(stages))
