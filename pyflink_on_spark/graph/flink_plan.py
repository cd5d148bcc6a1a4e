"""get_execution_plan(): the graph as PyFlink 1.20 shows it (StreamGraph.getStreamingPlanAsJSON).

PyFlink's plan is not the program's graph as written: PyFlink adds Python helper operators
(the key_by map "_stream_key_by_map_operator", the values map of a keyed print, the "Map"
that turns pickled records into strings before a print, the "Map" after a side output,
Extract-Timestamp and the Java Remove-Timestamp around a Python TimestampAssigner, the
"_partition_custom_map_operator" and values map around a partition_custom edge), and when the plan is generated (PythonConfigUtil and
PythonOperatorChainingOptimizer, seen on PyFlink 1.20.5):

* a key_by (or partition_custom) map takes its input's parallelism behind a FORWARD edge,
  and so does the operator after a values map; each such edge is a new transformation;
* consecutive Python operators (forward edge, same parallelism, max parallelism and slot
  sharing group, the upstream one with a single consumer, chaining allowed) become one node
  named "A, B" with a new id;
* a sink_to() sink becomes "Sink: Writer" and "Sink: Committer" operators (new ids; the id
  between them goes to a transformation the plan does not show).

Ids come from graph/flink_ids (PyFlink's per-process counter). Nodes are listed by id,
sinks last, as Flink's JSONGenerator does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Union

from pyflink_on_spark.graph.flink_ids import (
    chain_id, forward_wraps, ids_unchanged, reserve_flink_ids)
from pyflink_on_spark.graph.transformations import (
    CHAIN_ALWAYS, CHAIN_NEVER, OneInputTransformation, PartitionTransformation,
    SideOutputTransformation, SinkTransformation, SourceTransformation, Transformation,
    TwoInputTransformation, UnionTransformation)
from pyflink_on_spark.specs.operators import TimestampsSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning

VALUES_MAP = "_keyed_stream_values_operator"   # PyFlink's map taking out a record's value
PYTHON = "python"            # a Python operator that may chain to its input
PYTHON_HEAD = "python-head"  # a Python operator that only starts chains (keyed, two inputs)
JAVA = "java"


@dataclass(eq=False)
class PlanNode:
    flink_id: int
    name: str
    pact: str                          # "Data Source" | "Operator" | "Data Sink"
    parallelism: int
    inputs: List["Handle"]
    kind: str = JAVA
    description: Optional[str] = None
    chaining: str = CHAIN_ALWAYS
    max_parallelism: Optional[int] = None
    slot_sharing_group: Optional[str] = None
    slot: float = 0          # its place in the environment's list of transformations
    members: tuple = ()      # a chained node: the flink ids of the nodes it chains


PARTITION, UNION, SIDE_OUTPUT = "partition", "union", "side output"


@dataclass(eq=False)
class Virtual:
    """A partition ("FORWARD", "HASH"...), union or side output between operators."""
    inputs: List["Handle"]
    kind: str
    ship_strategy: Optional[str] = None


Handle = Union[PlanNode, Virtual]


def plan_nodes(roots: List[Transformation], parallelism: Dict[int, int],
               default_parallelism: int) -> List[PlanNode]:
    """The plan's nodes, in the order the JSON lists them."""
    builder = _Builder(parallelism, default_parallelism)
    for root in sorted(roots, key=lambda n: n.flink_id):
        builder.convert(root)
    reserve_flink_ids(builder.forward_edges_added)   # PythonConfigUtil's forward partitions
    nodes = _chain_python_operators(builder.nodes)
    _translate(nodes, builder.sinks_v2)
    by_id = sorted(nodes, key=lambda n: n.flink_id)
    return [n for n in by_id if n.pact != "Data Sink"] + \
        [n for n in by_id if n.pact == "Data Sink"]


def flush_ranks(roots: List[Transformation], parallelism: Dict[int, int],
                default_parallelism: int) -> Dict[int, int]:
    """flink id -> rank: the order in which PyFlink's operators of one task hand their
    records on when the input ends, for ordering the sinks of a stage and a union's
    inputs (graph/compile.py; docs/compatibility.md, "The order of sinks and of a union's
    inputs").

    A Python operator holds its records until its bundle ends, at the end of the input in a
    small job: the final watermark reaches it. The watermark goes through the task depth
    first, from the source, each operator passing it to its outputs in the order the
    environment's list of transformations holds them (Flink's StreamGraph adds an edge when
    it translates the consumer, in list order): the order the program created them,
    PyFlink's hidden maps counted (the map of `get_side_output`, the string map of a
    `print()` on a pickled stream), a chain of Python operators joined into one
    (PythonOperatorChainingOptimizer) in the place of its last. A sink straight behind an
    operator prints while that operator hands its records on, before the Python operators
    behind it do: it comes first. So the ranks are a depth-first preorder over that graph,
    sinks before the other consumers, then consumers by their place in the list. A chained
    node's members share its rank. Computing the ranks takes no plan ids."""
    with ids_unchanged():
        nodes = plan_nodes(roots, parallelism, default_parallelism)
    consumers: Dict[int, List[PlanNode]] = {}
    for node in nodes:
        for producer, _strategy in predecessors(node):
            readers = consumers.setdefault(id(producer), [])
            if not any(r is node for r in readers):
                readers.append(node)
    ranks: Dict[int, int] = {}
    done = set()

    def visit(node: PlanNode) -> None:
        stack = [node]
        while stack:
            current = stack.pop()
            if id(current) in done:
                continue
            done.add(id(current))
            rank = len(done)
            for flink_id in current.members or (current.flink_id,):
                ranks.setdefault(flink_id, rank)
            following = sorted(consumers.get(id(current), ()),
                               key=lambda n: (n.pact != "Data Sink", n.slot, n.flink_id))
            stack.extend(reversed(following))

    for node in sorted(nodes, key=lambda n: (n.pact != "Data Source", n.flink_id)):
        visit(node)
    return ranks


def predecessors(node: PlanNode) -> List[tuple]:
    """[(input node, ship strategy)], input 1 first, through partitions and unions."""
    out: List[tuple] = []
    for handle in node.inputs:
        out.extend(_resolve(handle, None, node))
    return out


def _resolve(handle: Handle, strategy: Optional[str], consumer: PlanNode) -> List[tuple]:
    if isinstance(handle, PlanNode):
        if strategy is None:
            strategy = "FORWARD" if handle.parallelism == consumer.parallelism else "REBALANCE"
        return [(handle, strategy)]
    # the partition nearest the consumer decides (Flink's StreamGraph.addEdgeInternal)
    strategy = strategy or handle.ship_strategy
    return [pair for inner in handle.inputs for pair in _resolve(inner, strategy, consumer)]


class _Builder:
    def __init__(self, parallelism: Dict[int, int], default_parallelism: int):
        self.parallelism = parallelism
        self.default = default_parallelism
        self.handles: Dict[int, Handle] = {}
        self.nodes: List[PlanNode] = []
        self.sinks_v2: Dict[int, PlanNode] = {}    # id(writer) -> committer
        self.forward_edges_added = 0

    def _node(self, **kwargs) -> PlanNode:
        node = PlanNode(**kwargs)
        node.slot = node.slot or node.flink_id
        self.nodes.append(node)
        return node

    def _par(self, t: Transformation) -> int:
        return self.parallelism.get(t.id, t.parallelism or self.default)

    def _forwards(self, handle: Handle, helper_id: int, consumer_id: int) -> Handle:
        """PythonConfigUtil.configForwardPartitioner: a new forward partition between a
        helper map and `consumer_id` at each plan or run, until the map is chained into
        another operator."""
        wraps, added = forward_wraps((helper_id, consumer_id), helper_id)
        self.forward_edges_added += added
        for _ in range(wraps):
            handle = Virtual([handle], PARTITION, "FORWARD")
        return handle

    def convert(self, t: Transformation) -> Handle:
        if t.id not in self.handles:
            self.handles[t.id] = self._convert(t)
        return self.handles[t.id]

    def _convert(self, t: Transformation) -> Handle:
        common = dict(chaining=t.chaining, max_parallelism=t.max_parallelism,
                      slot_sharing_group=t.slot_sharing_group, description=t.description)
        if isinstance(t, SourceTransformation):   # not in the environment's list: last
            return self._node(flink_id=t.flink_id, name=t.name, pact="Data Source",
                              parallelism=self._par(t), inputs=[], slot=float("inf"),
                              **common)
        if isinstance(t, PartitionTransformation):
            upstream = self.convert(t.input)
            if isinstance(t.partitioning, KeyedPartitioning) and "key_by_map" in t.plan_helpers:
                key_by_map = t.plan_helpers["key_by_map"]
                upstream = self._node(
                    flink_id=key_by_map, name="_stream_key_by_map_operator",
                    pact="Operator", parallelism=_producer_parallelism(upstream, self.default),
                    inputs=[self._forwards(upstream, key_by_map, key_by_map)], kind=PYTHON)
            if "partition_custom_map" in t.plan_helpers:
                return self._partition_custom(t, upstream)
            return Virtual([upstream], PARTITION, t.partitioning.ship_strategy)
        if isinstance(t, UnionTransformation):
            members = [self.convert(i) for i in t.union_inputs]
            # a KeyedStream member reaches the union through its values map
            for index, values_map in sorted(t.plan_helpers.get("values_maps", {}).items()):
                members[index] = self._node(
                    flink_id=values_map, pact="Operator", name=VALUES_MAP,
                    parallelism=self.default, inputs=[members[index]], kind=PYTHON_HEAD)
            return Virtual(members, UNION)
        if isinstance(t, SideOutputTransformation):
            side = Virtual([self.convert(t.input)], SIDE_OUTPUT)
            if "side_output_map" not in t.plan_helpers:
                return side
            # PyFlink's get_side_output maps the side output to its tag's type
            return self._node(flink_id=t.plan_helpers["side_output_map"], name="Map",
                              pact="Operator", parallelism=self.default, inputs=[side],
                              kind=PYTHON)
        if isinstance(t, OneInputTransformation) and isinstance(t.spec, TimestampsSpec):
            return self._timestamps(t, common)
        if isinstance(t, OneInputTransformation):
            keyed = isinstance(t.input, PartitionTransformation) and \
                isinstance(t.input.partitioning, KeyedPartitioning)
            upstream, parallelism = self._first_input(t, t.input)
            return self._node(flink_id=t.flink_id, name=t.name, pact="Operator",
                              parallelism=parallelism, inputs=[upstream],
                              kind=PYTHON_HEAD if keyed else PYTHON, **common)
        if isinstance(t, TwoInputTransformation):
            upstream, parallelism = self._first_input(t, t.input1)
            return self._node(flink_id=t.flink_id, name=t.name, pact="Operator",
                              parallelism=parallelism,
                              inputs=[upstream, self.convert(t.input2)],
                              kind=PYTHON_HEAD, **common)
        if isinstance(t, SinkTransformation):
            return self._sink(t, common)
        raise NotImplementedError("get_execution_plan(): %s" % type(t).__name__)

    def _first_input(self, t: Transformation, first: Transformation) -> tuple:
        """(input handle, parallelism) of `t`: behind a values map PyFlink puts a forward
        edge and gives the operator the map's parallelism (PythonConfigUtil)."""
        upstream = self.convert(first)
        if isinstance(upstream, PlanNode) and upstream.name == VALUES_MAP:
            return self._forwards(upstream, upstream.flink_id, t.flink_id), upstream.parallelism
        return upstream, self._par(t)

    def _partition_custom(self, t: PartitionTransformation, upstream: Handle) -> PlanNode:
        """partition_custom: a Python map computing each record's partition (at its input's
        parallelism, behind a forward edge), the CUSTOM edge, a map taking the values."""
        custom_map = t.plan_helpers["partition_custom_map"]
        mapped = self._node(flink_id=custom_map, name="_partition_custom_map_operator",
                            pact="Operator", inputs=[self._forwards(upstream, custom_map,
                                                                    custom_map)],
                            parallelism=_producer_parallelism(upstream, self.default),
                            kind=PYTHON)
        return self._node(flink_id=t.plan_helpers["values_map"], name=VALUES_MAP,
                          pact="Operator", parallelism=self.default, kind=PYTHON,
                          inputs=[Virtual([mapped], PARTITION, t.partitioning.ship_strategy)])

    def _timestamps(self, t: OneInputTransformation, common: dict) -> PlanNode:
        upstream = self.convert(t.input)
        if "extract_timestamp" not in t.plan_helpers:
            # the Java operator alone runs at its input's parallelism
            return self._node(flink_id=t.flink_id, name=t.name, pact="Operator",
                              parallelism=_producer_parallelism(upstream, self.default),
                              inputs=[upstream], **common)
        extract = self._node(flink_id=t.plan_helpers["extract_timestamp"],
                             name="Extract-Timestamp", pact="Operator",
                             parallelism=self._par(t), inputs=[upstream], kind=PYTHON)
        assign = self._node(flink_id=t.flink_id, name=t.name, pact="Operator",
                            parallelism=extract.parallelism, inputs=[extract])
        return self._node(flink_id=t.plan_helpers["remove_timestamp"], name="Remove-Timestamp",
                          pact="Operator", parallelism=self._par(t), inputs=[assign])

    def _sink(self, t: SinkTransformation, common: dict) -> Optional[PlanNode]:
        upstream: Handle = self.convert(t.input)
        sink_parallelism = self._par(t)
        if "values_map" in t.plan_helpers:
            values = self._node(flink_id=t.plan_helpers["values_map"],
                                name=VALUES_MAP, pact="Operator",
                                parallelism=self.default, inputs=[upstream], kind=PYTHON_HEAD)
            upstream = values
        if isinstance(upstream, PlanNode) and upstream.name == VALUES_MAP:
            # the operator after a values map takes its parallelism, behind a forward edge
            consumer = t.plan_helpers.get("align_map", t.flink_id)
            consumer_parallelism = upstream.parallelism
            upstream = self._forwards(upstream, upstream.flink_id, consumer)
        else:
            consumer_parallelism = None
        if "align_map" in t.plan_helpers:
            align = self._node(flink_id=t.plan_helpers["align_map"], name="Map",
                               pact="Operator", inputs=[upstream], kind=PYTHON,
                               parallelism=consumer_parallelism or self.default)
            upstream, consumer_parallelism = align, None
        if "sink_v2" in t.plan_helpers:   # sink_to(): the writer and committer operators
            base = "Sink" if t.name in ("FileSink", "KafkaSink") else t.name
            writer = self._node(flink_id=0, name="%s: Writer" % base, pact="Operator",
                                parallelism=sink_parallelism, inputs=[upstream], slot=t.flink_id)
            committer = self._node(flink_id=0, name="%s: Committer" % base, pact="Operator",
                                   parallelism=sink_parallelism, inputs=[writer],
                                   slot=t.flink_id)
            self.sinks_v2[id(writer)] = committer
            return committer
        return self._node(flink_id=t.flink_id, name="Sink: %s" % t.name, pact="Data Sink",
                          parallelism=consumer_parallelism or sink_parallelism,
                          inputs=[upstream], **common)


def _producer_parallelism(handle: Handle, default: int) -> int:
    while isinstance(handle, Virtual):
        if not handle.inputs:
            return default
        handle = handle.inputs[0]
    return handle.parallelism


def _translate(nodes: List[PlanNode], sinks_v2: Dict[int, PlanNode]) -> None:
    """The ids Flink's StreamGraphGenerator takes, translating the environment's list in
    order, inputs first: one per partition and side output (a virtual node), and for each
    sink_to() sink its writer, committer and two transformations the plan does not show."""
    done = set()

    def visit(handle: Handle) -> None:
        if id(handle) in done:
            return
        done.add(id(handle))
        for upstream in handle.inputs:
            visit(upstream)
        if isinstance(handle, Virtual) and handle.kind != UNION:
            reserve_flink_ids(1)
        elif id(handle) in sinks_v2:
            handle.flink_id, _, sinks_v2[id(handle)].flink_id, _ = reserve_flink_ids(4)

    for node in sorted(nodes, key=lambda n: n.slot):
        visit(node)


def _chain_python_operators(nodes: List[PlanNode]) -> List[PlanNode]:
    """PythonOperatorChainingOptimizer: each Python operator, in creation (id) order, joins
    the Python operator before it when Flink would chain them."""
    consumers = _consumers(nodes)
    alive = list(nodes)
    for down in sorted(nodes, key=lambda n: n.flink_id):
        if down.kind != PYTHON or down not in alive:
            continue
        up = down.inputs[0]
        while isinstance(up, Virtual) and up.ship_strategy == "FORWARD":
            up = up.inputs[0]
        if not isinstance(up, PlanNode) or not _chainable(up, down, consumers):
            continue
        if up.description and down.description:
            description = "%s, %s" % (up.description, down.description)
        else:
            description = up.description or down.description
        chained = PlanNode(chain_id(up.flink_id, down.flink_id),
                           "%s, %s" % (up.name, down.name), "Operator", up.parallelism,
                           up.inputs, up.kind, description, up.chaining, up.max_parallelism,
                           up.slot_sharing_group, slot=down.slot,
                           members=(up.members or (up.flink_id,)) +
                           (down.members or (down.flink_id,)))
        for holder in consumers.get(id(down), []):
            holder.inputs = [chained if h is down else h for h in holder.inputs]
        consumers[id(chained)] = consumers.pop(id(down), [])
        for dead in (up, down):
            alive.remove(dead)
        alive.append(chained)
    return alive


def _chainable(up: PlanNode, down: PlanNode, consumers: Dict[int, list]) -> bool:
    return (up.kind in (PYTHON, PYTHON_HEAD)
            and up.parallelism == down.parallelism
            and up.max_parallelism == down.max_parallelism
            and up.slot_sharing_group == down.slot_sharing_group
            and up.chaining != CHAIN_NEVER and down.chaining == CHAIN_ALWAYS
            and len(consumers.get(id(up), [])) == 1)


def _consumers(nodes: List[PlanNode]) -> Dict[int, list]:
    """id(handle) -> the distinct nodes and partitions reading it directly."""
    result: Dict[int, list] = {}
    seen = set()
    stack: List[Handle] = list(nodes)
    while stack:
        holder = stack.pop()
        if id(holder) in seen:
            continue
        seen.add(id(holder))
        for handle in holder.inputs:
            readers = result.setdefault(id(handle), [])
            if not any(r is holder for r in readers):
                readers.append(holder)
            stack.append(handle)
    return result
