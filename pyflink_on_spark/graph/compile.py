"""Compile the logical DAG into stages (Flink's operator chaining): a specs.stage.CompiledJob.

A stage is a chain of operators connected by forward edges of equal parallelism; every other
edge is an exchange between stages. The result is frozen, holds the nodes' typed specs and
knows nothing of the engine or of Spark.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Optional, Tuple

from pyflink_on_spark.common.typeinfo import TupleTypeInfo
from pyflink_on_spark.graph.adaptive import exchange_bytes
from pyflink_on_spark.graph.associativity import is_integral, reduce_is_associative
from pyflink_on_spark.graph.python_fusion import serialized_between
from pyflink_on_spark.graph.sources import (
    estimated_bytes, is_split_here, source_reader_spec, source_splits)
from pyflink_on_spark.graph.transformations import (
    CHAIN_ALWAYS, CHAIN_NEVER, OneInputTransformation, PartitionTransformation,
    SideOutputTransformation, SinkTransformation, SourceTransformation, Transformation,
    TwoInputTransformation, UnionTransformation)
from pyflink_on_spark.specs.operators import (
    BROADCAST_SPECS, KEY_SORTED_INPUT_SPECS, KEYED_TWO_INPUT_SPECS, AggregationSpec,
    ReduceSpec, TimestampsSpec)
from pyflink_on_spark.specs.partitioning import (
    CustomPartitioning, ForwardPartitioning, KeyedPartitioning, Partitioning,
    RebalancePartitioning)
from pyflink_on_spark.specs.sinks import CollectSinkSpec, PrintSinkSpec
from pyflink_on_spark.specs.sources import TableSourceSpec
from pyflink_on_spark.specs.stage import (
    ChainLink, CompiledJob, CompiledStage, ExitSpec, InputSpec, JobConfig, LeadingFold,
    OperatorSpec, SinkExit, StageSource, StageSpec, UpstreamEdge)


class GraphError(ValueError):
    """The job graph cannot run as built (Flink would reject it too)."""


def default_max_parallelism(parallelism: int) -> int:
    """Flink's computeDefaultMaxParallelism: 1.5 x parallelism rounded up to a power of two,
    within [128, 32768]."""
    wanted = parallelism + parallelism // 2
    power = 1
    while power < wanted:
        power <<= 1
    return min(max(power, 128), 32768)


@dataclass(frozen=True)
class Edge:
    edge_id: int
    source: Transformation
    target: Transformation
    input_index: int
    partitioning: Partitioning
    side_tag: Optional[str]
    side_type: Any = None          # a side output's declared type (OutputTag.type_info)
    # the flink id of PyFlink's operator handing these records to the target: the source's,
    # or that of a helper map PyFlink puts between (a side output's map...)
    feeder: int = 0


def reachable(sinks: List[Transformation]) -> List[Transformation]:
    seen: Dict[int, Transformation] = {}
    stack = list(sinks)
    while stack:
        node = stack.pop()
        if node.id in seen:
            continue
        seen[node.id] = node
        stack.extend(node.inputs)
    return [seen[i] for i in sorted(seen)]


def _resolve(node: Transformation):
    """Physical producers behind a (possibly virtual) input:
    [(node, partition, side_tag, side_type)]."""
    if isinstance(node, PartitionTransformation):
        part = node.partitioning
        return [(src, part, tag, typ) for src, _, tag, typ in _resolve(node.input)]
    if isinstance(node, UnionTransformation):
        out = []
        for member in node.union_inputs:
            out.extend(_resolve(member))
        return out
    if isinstance(node, SideOutputTransformation):
        return [(src, part, node.tag_id, node.output_type)
                for src, part, _, _ in _resolve(node.input)]
    return [(node, None, None, None)]


def _feeders(node: Transformation) -> List[int]:
    """For each producer _resolve(node) finds, in its order: the flink id of PyFlink's
    operator that hands its records on to the consumer, a helper map PyFlink puts between
    (a side output's map, a key_by map...) or else the producer's own."""
    helpers = node.plan_helpers
    if isinstance(node, PartitionTransformation):
        helper = helpers.get("values_map", helpers.get("key_by_map"))
        return [helper or feeder for feeder in _feeders(node.input)]
    if isinstance(node, UnionTransformation):
        out = []
        for index, member in enumerate(node.union_inputs):
            found = _feeders(member)
            values_map = helpers.get("values_maps", {}).get(index)   # a KeyedStream member
            if values_map is not None:
                found = [values_map] * len(found)
            out.extend(found)
        return out
    if isinstance(node, SideOutputTransformation):
        helper = helpers.get("side_output_map")
        return [helper or feeder for feeder in _feeders(node.input)]
    return [node.flink_id]


def python_input_error(sinks: List[Transformation]) -> Optional[str]:
    """Why the job fails when it runs, or None: a collection source whose records PyFlink's
    Java side takes but a Python operator cannot (specs CollectionSourceSpec.
    python_input_error) feeds a Python function (an operator, or key_by's key selector);
    a sink takes them as they are (print shows null)."""
    for node in reachable(sinks):
        if node.is_virtual:
            continue
        for upstream in node.inputs:
            for (src, part, _, _), feeder in zip(_resolve(upstream), _feeders(upstream)):
                error = getattr(getattr(src, "source", None), "python_input_error", None)
                if error and (not isinstance(node, SinkTransformation)
                              or isinstance(part, (KeyedPartitioning, CustomPartitioning))
                              or feeder != src.flink_id):
                    return error
    return None


def _numbered_inputs(node: Transformation):
    # A broadcast operator's broadcast input (input 2) is read first: its edges get the lower
    # ids, so a task's rows (sorted by edge) hold the whole broadcast input before the other.
    inputs = list(enumerate(node.inputs, start=1))
    if isinstance(node, TwoInputTransformation) and isinstance(node.spec, BROADCAST_SPECS):
        inputs.reverse()
    return inputs


def compile_job(sinks: List[Transformation], *, default_parallelism: int,
                default_max_par: Optional[int], chaining_enabled: bool,
                config: JobConfig) -> CompiledJob:
    if not sinks:
        raise GraphError("No operators defined in streaming topology. Cannot execute.")
    nodes = [n for n in reachable(sinks) if not n.is_virtual]

    parallelism = _parallelism(nodes, default_parallelism, config.runtime_mode == "BATCH")
    folded = _collect_sinks_to_fold(nodes, parallelism)
    for sink_id, src in folded.items():
        parallelism[sink_id] = parallelism[src.id]

    def max_par(node) -> int:
        if node.id in folded:
            return max_par(folded[node.id])
        if node.max_parallelism is not None:
            return node.max_parallelism
        if default_max_par is not None and default_max_par > 0:
            return default_max_par
        return default_max_parallelism(parallelism[node.id])

    edges: List[Edge] = []
    in_edges: Dict[int, List[Edge]] = {n.id: [] for n in nodes}
    for node in nodes:
        for index, upstream in _numbered_inputs(node):
            for (src, part, tag, side_type), feeder in zip(_resolve(upstream),
                                                            _feeders(upstream)):
                if part is None:
                    same = parallelism[src.id] == parallelism[node.id]
                    part = ForwardPartitioning() if same else RebalancePartitioning()
                if isinstance(part, ForwardPartitioning) \
                        and parallelism[src.id] != parallelism[node.id]:
                    raise GraphError(
                        "Forward partitioning does not allow change of parallelism. Upstream "
                        "operation: %s parallelism: %d, downstream operation: %s parallelism: "
                        "%d You must use another partitioning strategy, such as broadcast, "
                        "rebalance, shuffle or global." % (
                            src.name, parallelism[src.id], node.name, parallelism[node.id]))
                edge = Edge(len(edges), src, node, index, part, tag, side_type, feeder)
                edges.append(edge)
                in_edges[node.id].append(edge)

    def chainable(edge: Edge) -> bool:
        src, dst = edge.source, edge.target
        return (chaining_enabled and len(in_edges[dst.id]) == 1
                and isinstance(edge.partitioning, ForwardPartitioning)
                and parallelism[src.id] == parallelism[dst.id]
                and dst.chaining == CHAIN_ALWAYS and src.chaining != CHAIN_NEVER
                and src.slot_sharing_group == dst.slot_sharing_group
                and not isinstance(dst, TwoInputTransformation))

    stage_of: Dict[int, int] = {}
    members: Dict[int, List[Transformation]] = {}
    heads: Dict[int, Transformation] = {}
    for node in nodes:
        incoming = in_edges[node.id]
        if len(incoming) == 1 and chainable(incoming[0]):
            stage = stage_of[incoming[0].source.id]
        else:
            stage = len(heads)
            heads[stage] = node
            members[stage] = []
        stage_of[node.id] = stage
        members[stage].append(node)

    ranks = _flush_ranks(sinks, parallelism, default_parallelism)
    edges = _order_inputs(nodes, in_edges, stage_of, ranks)

    links: Dict[int, List[ChainLink]] = {s: [] for s in heads}
    exits: Dict[int, List[ExitSpec]] = {s: [] for s in heads}
    inputs: Dict[int, List[InputSpec]] = {s: [] for s in heads}
    upstream: Dict[int, List[UpstreamEdge]] = {s: [] for s in heads}
    consumers: Dict[int, int] = {}
    for edge in edges:
        consumers[edge.source.id] = consumers.get(edge.source.id, 0) + 1
    for edge in edges:
        s_src, s_dst = stage_of[edge.source.id], stage_of[edge.target.id]
        if s_src == s_dst and heads[s_dst] is not edge.target:
            # PyFlink converts side-output values to the tag's type even between chained
            # operators (they always leave the Python operator serialized); main-output
            # values where it does not fuse the two Python operators (python_fusion.py)
            serialized = edge.side_tag is not None or \
                serialized_between(edge.source, edge.target, consumers)
            links[s_src].append(ChainLink(
                edge.source.id, edge.target.id, edge.side_tag,
                _converter(_record_type(edge)) if serialized else None))
            continue
        source_type = _record_type(edge)
        two_input = _keyed_two_input_sorts(edge.target, in_edges[edge.target.id], config)
        sort_by_key = two_input or _sorts_by_key(edge, config)
        exits[s_src].append(ExitSpec(edge.edge_id, edge.source.id, edge.side_tag,
                                     edge.partitioning, parallelism[edge.target.id],
                                     max_par(edge.target), _converter(source_type),
                                     sort_by_key=sort_by_key, counts_records=two_input,
                                     partial_aggregation=_partial_aggregation(edge)
                                     if sort_by_key else None,
                                     leading_fold=_leading_fold(edge, in_edges[edge.target.id])
                                     if sort_by_key and not two_input else None))
        inputs[s_dst].append(InputSpec(edge.edge_id, edge.input_index,
                                       parallelism[edge.source.id], sort_by_key))
        upstream[s_dst].append(UpstreamEdge(s_src, edge.edge_id))

    sink_exits: Dict[int, List[SinkExit]] = {s: [] for s in heads}
    next_edge = len(edges)
    # a stage's sinks in the order PyFlink's task prints them (graph/flink_plan.flush_ranks)
    unranked = len(ranks) + 1
    sink_nodes = sorted((n for n in nodes if isinstance(n, SinkTransformation)),
                        key=lambda n: (ranks.get(n.flink_id, unranked), n.id))
    # print sinks chained to one operator's main output -> their shared exit's edge
    shared_print: Dict[int, int] = {}
    for node in sink_nodes:
        stage = stage_of[node.id]
        collect = isinstance(node.spec, CollectSinkSpec)
        converter = _converter(node.input_type) if collect else None
        producer = _chained_print_producer(node, in_edges[node.id], stage_of)
        edge_id = shared_print.get(producer, next_edge)
        exits[stage].append(ExitSpec(edge_id, node.id, None, ForwardPartitioning(),
                                     parallelism[node.id], max_par(node), converter,
                                     to_driver=True))
        if edge_id != next_edge:
            continue   # its lines join the first print sink's, record by record
        if producer is not None:
            shared_print[producer] = edge_id
        sink_exits[stage].append(SinkExit(edge_id, node.id, node.spec))
        next_edge += 1

    stages: List[CompiledStage] = []
    for stage, head in heads.items():
        ops = tuple(OperatorSpec(n.id, n.name, _operator_spec(n), parallelism[n.id],
                                 max_par(n), n.routes_side_outputs, n.uid)
                    for n in members[stage])
        spec = StageSpec(
            stage_id=stage, parallelism=parallelism[head.id], head=head.id, operators=ops,
            links=tuple(links[stage]), exits=tuple(exits[stage]), inputs=tuple(inputs[stage]),
            task_name=task_name([n for n in members[stage]]), config=config)
        source = None
        if isinstance(head, SourceTransformation):
            if is_split_here(head.source):
                source = StageSource(tuple(source_splits(head.source, parallelism[head.id])))
            else:   # files, Kafka: the executor reads them (specs/sources.py)
                source = StageSource((), head.source)
        stages.append(CompiledStage(spec, tuple(upstream[stage]), source,
                                    tuple(sink_exits[stage])))
    return CompiledJob(tuple(stages))


def _chained_print_producer(node: Transformation, incoming: List[Edge],
                            stage_of: Dict[int, int]) -> Optional[int]:
    """The operator whose main output a print sink is chained to, or None. PyFlink's print
    sinks on one operator's output are Java operators that print each record in turn as the
    operator emits it: their lines interleave record by record (seen on PyFlink 1.20.5:
    `m.print("x"); m.print("y")` gives x> m-1, y> m-1, x> m-2, ...; compat case
    ordering/two_prints_on_one_operator). Such sinks share one exit, so their lines leave in
    the order they were made. A print of an untyped or Row stream, or of a KeyedStream, is
    behind a map of its own (PyFlink's _align_output_type, _values): blocks, not shared."""
    if not isinstance(node.spec, PrintSinkSpec) or len(incoming) != 1:
        return None
    if "align_map" in node.plan_helpers or "values_map" in node.plan_helpers:
        return None   # PyFlink's print() put a Python map of its own before this sink
    edge = incoming[0]
    if edge.side_tag is not None or stage_of[edge.source.id] != stage_of[node.id]:
        return None
    return edge.source.id


def _flush_ranks(sinks: List[Transformation], parallelism: Dict[int, int],
                 default_parallelism: int) -> Dict[int, int]:
    """graph/flink_plan.flush_ranks, or no ranks (program order) for a graph PyFlink's plan
    is not modelled for."""
    from pyflink_on_spark.graph.flink_plan import flush_ranks
    try:
        return flush_ranks(sinks, parallelism, default_parallelism)
    except NotImplementedError:
        return {}


def _order_inputs(nodes: List[Transformation], in_edges: Dict[int, List[Edge]],
                  stage_of: Dict[int, int], ranks: Dict[int, int]) -> List[Edge]:
    """Every edge, numbered again: a node's edges input by input as before, and within one
    input (a union's members) in the order their records reach the consumer on PyFlink at
    parallelism 1: the producers' stages in the job's order (an upstream task ends before
    the one behind it), producers of one stage in the order that task hands their records
    on (flush_ranks); ties keep the union's argument order. A subtask reads its input rows
    sorted by edge. (Producers in stages not behind one another are tasks racing on
    PyFlink: this order is one of those it shows.)"""
    unranked = len(ranks) + 1
    ordered: List[Edge] = []
    for node in nodes:
        incoming = in_edges[node.id]
        inputs_in_order = list(dict.fromkeys(e.input_index for e in incoming))
        incoming.sort(key=lambda e: (inputs_in_order.index(e.input_index),
                                     stage_of[e.source.id], ranks.get(e.feeder, unranked)))
        for position, edge in enumerate(incoming):
            incoming[position] = replace(edge, edge_id=len(ordered))
            ordered.append(incoming[position])
    return ordered


def _collect_sinks_to_fold(nodes: List[Transformation],
                           parallelism: Dict[int, int]) -> Dict[int, Transformation]:
    """Collect sinks (execute_and_collect's: parallelism 1, as Flink's) that run in their
    input's stage, at its parallelism, instead of in one of their own: sink id -> input node.
    Those whose one input comes by a plain edge (no partitioning the program chose): their
    subtask of 1 only gathered the input subtasks' records in (subtask, order), which is
    the order the driver reads a stage's subtasks in anyway (spark/driver_channel.py
    ordered_streams; spark/driver_rows.py sliced_rows), so the values and their order are the
    same, less a Spark stage and an exchange (a small job: 0.23-0.31 s -> 0.19-0.22 s)."""
    folded: Dict[int, Transformation] = {}
    for node in nodes:
        if not (isinstance(node, SinkTransformation) and isinstance(node.spec, CollectSinkSpec)):
            continue
        inputs = [found for _, upstream in _numbered_inputs(node) for found in _resolve(upstream)]
        if len(inputs) != 1:
            continue
        src, part, _tag, _side_type = inputs[0]
        if part is None and parallelism[src.id] != parallelism[node.id]:
            folded[node.id] = src
    return folded


def _sorts_by_key(edge: Edge, config: JobConfig) -> bool:
    """BATCH mode: a keyed exchange into a keyed operator's keyed input is sorted by key, as
    Flink's sort-based batch runtime sorts it (direct/exchange.py, 4.)."""
    return (config.runtime_mode == "BATCH" and edge.input_index == 1
            and isinstance(edge.partitioning, KeyedPartitioning)
            and isinstance(getattr(edge.target, "spec", None), KEY_SORTED_INPUT_SPECS))


def _record_type(edge: Edge):
    """The declared type of the records on an edge: a side output's tag type, else the
    type its source operator declares."""
    return edge.side_type if edge.side_tag is not None else edge.source.output_type


def _partial_aggregation(edge: Edge) -> Optional[Tuple[str, int, bool]]:
    """(aggregation, tuple index, every subtask) of a BATCH rolling aggregation (sum, min,
    max, min_by, max_by) at the end of a key-sorted edge: only the key's final result leaves
    that operator, so the exit may send a partial result of the records it holds
    (runtime/exits/key_sorted.py KeySortedExitCollector), as a combiner would.

    Upstream subtask 0's partial result is the aggregation's own fold of its records (the
    aggregation reads its rows first). Another subtask's is what the aggregation would make
    of its records one by one only when the fold is associative: a min or a max (the first
    extreme; a NaN stops the partial result), and a sum of a field declared BYTE, SHORT, INT
    or LONG (ints everywhere). A sum of floats depends on its order in the last bits:
    (1e16 + 1.0) + 1.0 is 1e16, 1e16 + (1.0 + 1.0) is not; so without that declared type
    only subtask 0 sums."""
    spec = getattr(edge.target, "spec", None)
    if isinstance(spec, AggregationSpec) and type(spec.position) is int:
        aggregation = spec.aggregation.value
        record_type = _record_type(edge)
        fields = record_type.get_field_types() if isinstance(record_type, TupleTypeInfo) \
            else ()
        every_subtask = aggregation != "SUM" or (
            spec.position < len(fields) and is_integral(fields[spec.position]))
        return aggregation, spec.position, every_subtask
    return None


def _leading_fold(edge: Edge, target_edges: List[Edge]) -> Optional[LeadingFold]:
    """A BATCH reduce at the end of a key-sorted edge, its only input: the reduce reads a
    key's rows in (key, edge, source subtask, sequence) order, so upstream subtask 0's rows
    of a key come first, and what the reduce makes of them is their left fold. Subtask 0
    may send that fold instead of the records (runtime/exits/key_sorted.py): the reduce then folds the
    other subtasks' records onto it, in the order it did, so the result is the same for any
    reduce function, associative or not. Every upstream subtask may send its fold when the
    reduce is proved associative over the records' declared type (graph/associativity.py):
    a combiner for every subtask needs that, and nothing promises it of a user's function.
    A reduce with its own open() or close() (which may set up what reduce() uses, with the
    reduce's RuntimeContext) is left alone."""
    spec = getattr(edge.target, "spec", None)
    if not isinstance(spec, ReduceSpec) or len(target_edges) != 1:
        return None
    kind = type(spec.function)
    if any(not getattr(kind, name).__module__.startswith("pyflink_on_spark.")
           for name in ("open", "close")):
        return None
    record_type = _record_type(edge)
    return LeadingFold(spec.function, edge.target.name,
                       every_subtask=reduce_is_associative(spec.function, record_type))


def _keyed_two_input_sorts(target: Transformation, edges: List[Edge],
                           config: JobConfig) -> bool:
    """BATCH mode: both inputs of a keyed two-input operator are sorted by key when both are
    keyed by the operator's key type (the key order of both must be the operator's); the
    operator then holds one key's records at a time (co_process.py)."""
    spec = getattr(target, "spec", None)
    return (config.runtime_mode == "BATCH" and isinstance(spec, KEYED_TWO_INPUT_SPECS)
            and {e.input_index for e in edges} == {1, 2}
            and all(isinstance(e.partitioning, KeyedPartitioning)
                    and e.partitioning.key_type == spec.key_type for e in edges))


def _operator_spec(node: Transformation):
    if isinstance(node, SourceTransformation):
        return source_reader_spec(node.source, node.watermark_strategy)
    if node.spec is None:
        raise NotImplementedError("operator %r (%s) is not supported yet"
                                  % (node.name, type(node).__name__))
    return node.spec


ADAPTIVE_BYTES_PER_TASK = 16 * 1024 * 1024


def _parallelism(nodes: List[Transformation], default: int, batch: bool) -> Dict[int, int]:
    """Each node's parallelism. STREAMING: as set, else the environment's default.

    BATCH: like Flink 1.20's adaptive batch scheduler, an operator whose parallelism the
    program did not set and which sits behind an exchange gets a parallelism from the data
    volume (16 MiB per task, at most the default). PyFlink decides it from the bytes that
    actually arrive; the shim counts them as Flink does where it can know them before the
    job runs (graph/adaptive.py: records of declared fixed-size types, in a known number),
    and otherwise from the sources' size (the same answer for small inputs: 1). Operators
    forward-connected to such an operator follow it."""
    parallelism: Dict[int, int] = {}
    volume = sum(estimated_bytes(n.source) for n in nodes
                 if isinstance(n, SourceTransformation))

    def tasks_for(volume: int) -> int:
        return max(1, min(default, -(-volume // ADAPTIVE_BYTES_PER_TASK)))
    adaptive = tasks_for(volume)
    for node in nodes:
        if node.parallelism is not None:
            parallelism[node.id] = node.parallelism
            continue
        if batch and isinstance(node, SourceTransformation) and \
                isinstance(node.source, TableSourceSpec):
            # a table's rows: on PyFlink the operators computing them sit behind exchanges
            # (or a non-parallel source's rebalance), so the adaptive scheduler sizes them
            parallelism[node.id] = tasks_for(estimated_bytes(node.source))
            continue
        if not batch or isinstance(node, SourceTransformation):
            parallelism[node.id] = default
            continue
        producers = [r for upstream in node.inputs for r in _resolve(upstream)]
        if producers and all(part is None for _, part, _, _ in producers):
            parallelism[node.id] = parallelism[producers[0][0].id]
        else:
            counted = exchange_bytes(node, _resolve)
            parallelism[node.id] = adaptive if counted is None else tasks_for(counted)
    return parallelism


def _converter(type_info):
    """PyFlink converts values to their declared type where they leave a chain."""
    make = getattr(type_info, "_python_converter", None)
    return make() if make is not None else None


def task_name(chain: List[Transformation]) -> str:
    """The name PyFlink's RuntimeContext reports: the chain's Python operators, joined by
    ", " (sources, sinks and timestamp assigners run in Java there and are not named)."""
    names = [n.name for n in chain if isinstance(n, (OneInputTransformation,
                                                      TwoInputTransformation))
             and not isinstance(n.spec, TimestampsSpec)]
    if not names:
        names = [chain[0].name]
    return ", ".join(names)
