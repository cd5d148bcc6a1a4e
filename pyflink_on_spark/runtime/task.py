"""StreamTask: builds one stage's operator chain for one subtask and drives it.

The Spark layer feeds it the stage's input rows (already sorted by edge, upstream subtask and
sequence) and takes the boundary rows it produces; nothing here knows about Spark.

One task serves both kinds of job. A bounded run is open, process_rows..., finish, close. An
unbounded job's task lives across micro-batches (``unbounded=True``), each one a bounded run
without an end of input: restore_state once after open, then per batch begin_batch,
process_batch_rows..., end_batch, snapshot_state. runtime/checkpoint/micro_batch.py only keeps
live tasks between batches and reads and writes their snapshots in the checkpoint store.
"""
from __future__ import annotations

import pickle
import time
from itertools import repeat
from typing import Callable, Dict, Iterable, Iterator, List, Optional

from pyflink_on_spark.runtime.context import TaskContext, wall_clock_ms
from pyflink_on_spark.runtime.batch_order import key_of_order
from pyflink_on_spark.runtime.exits import ExitCollector, exit_collector
from pyflink_on_spark.runtime.output import Output
from pyflink_on_spark.runtime.registry import build_operator
from pyflink_on_spark.runtime.boundary import (
    KIND_KEY_RUN, KIND_RECORD_COUNT, KIND_RECORDS, KIND_SPLIT, KIND_TICK, KIND_WATERMARK,
    loads_records)
from pyflink_on_spark.runtime.key_runs import KeyRunMerge, one_timestamp
from pyflink_on_spark.runtime.watermarks import IDLE, MAX_WATERMARK, StreamingValve
from pyflink_on_spark.specs.stage import StageSpec
from pyflink_on_spark.runtime.two_input import AlternatingInputs
from pyflink_on_spark.runtime.watermarks import InputWatermarkValve

_loads = pickle.loads

# PyFlink's python.fn-execution.bundle.time default: a bundle ends at least once a second
BUNDLE_SECONDS = 1.0


class StreamTask:
    def __init__(self, spec: StageSpec, subtask_index: int, attempt_number: int = 0,
                 work_dir: Optional[str] = None, clock: Callable[[], int] = wall_clock_ms,
                 unbounded: bool = False):
        self.spec = spec
        # the records the head received (one-input heads; across micro-batches and restarts
        # for an unbounded job: the progress line's "records in" of source stages)
        self.records_in = 0
        config = spec.config
        self.context = TaskContext(
            task_name=spec.task_name, subtask_index=subtask_index,
            parallelism=spec.parallelism,
            max_parallelism=spec.operators[0].max_parallelism,
            attempt_number=attempt_number, job_parameters=dict(config.job_parameters),
            runtime_mode=config.runtime_mode,
            auto_watermark_interval=config.auto_watermark_interval,
            state_backend=config.state_backend, work_dir=work_dir, clock=clock,
            progress=self._progress)
        self.rows: List[tuple] = []
        # called when a bundle ends inside a call (the executor sends driver rows on)
        self.on_bundle: Optional[Callable[[], None]] = None
        self._bundle_started = time.monotonic()
        self.operators = []
        by_id: Dict[int, object] = {}
        outputs: Dict[int, Output] = {}
        for op_spec in spec.operators:
            operator = build_operator(op_spec.op, config)
            by_id[op_spec.node_id] = operator
            outputs[op_spec.node_id] = Output()
            outputs[op_spec.node_id].routes_side_outputs = op_spec.routes_side_outputs
            self.operators.append(operator)
            task_context = self.context
            if op_spec.max_parallelism != task_context.max_parallelism:
                task_context = TaskContext(**{**task_context.__dict__,
                                              "max_parallelism": op_spec.max_parallelism})
            operator.setup(outputs[op_spec.node_id], task_context, op_spec.name)
        # node id -> its operator
        self.operator_of_node: Dict[int, object] = by_id
        self.exits: List[ExitCollector] = []
        exits_of: Dict[int, list] = {}
        collector_of_edge: Dict[int, ExitCollector] = {}
        for exit_spec in spec.exits:
            # exits of one edge share their collector (print sinks chained to one operator:
            # graph/compile.py _chained_print_producer), so their records leave in turn
            collector = collector_of_edge.get(exit_spec.edge_id)
            if collector is None:
                collector = collector_of_edge[exit_spec.edge_id] = exit_collector(
                    exit_spec, subtask_index, spec.parallelism, self.rows,
                    by_id[exit_spec.source].user_error)
                self.exits.append(collector)
            exits_of.setdefault(exit_spec.source, []).append((exit_spec.side_tag, collector))
        links_of: Dict[int, list] = {}
        for link in spec.links:
            links_of.setdefault(link.source, []).append(link)
        # Tail first: an operator is wired only once its targets have their final input
        # methods, then prepare() may bind its hot path to its final output.
        for op_spec in reversed(spec.operators):
            node = op_spec.node_id
            for link in links_of.get(node, ()):
                target = by_id[link.target]
                process = target.process_element
                many = target.process_many
                stamped = target.process_stamped
                # a map before an operator that takes it into its loop (timestamps.py)
                fuse_map = target.fuse_map
                if link.converter is not None:
                    process = _converting(link.converter, process,
                                          by_id[link.source].user_error)
                    many = stamped = fuse_map = None
                self._connect(outputs[node], link.side_tag, process, target.process_watermark,
                              fuse_map, process_many=many, process_stamped=stamped,
                              runs_user_code=target.runs_user_code)
            for side_tag, collector in exits_of.get(node, ()):
                self._connect(outputs[node], side_tag, collector.process_element,
                              collector.process_watermark, collector.fused_with_map,
                              collector.process_many, collector.process_stamped,
                              collector.fused_with_stamps, collector.runs_user_code)
            by_id[node].prepare()
        self.head = by_id[spec.head]
        # BATCH into a keyed head: its keyed input arrives sorted by key (ExitSpec.
        # sort_by_key); the head processes it as it comes, ending each key when the next
        # begins, instead of grouping the whole input in memory.
        self._sorted_edges = frozenset(i.edge_id for i in spec.inputs if i.sorted_by_key)
        self._last_key = None
        # the groups of key runs read but not yet due (runtime/key_runs.py)
        self._key_runs = KeyRunMerge()
        if self._sorted_edges:
            self.head.use_sorted_input()
        self._input_methods = {
            i.edge_id: (self.head.process_element if i.input_index == 1
                        else self.head.process_element2) for i in spec.inputs}
        # edge -> the head's method for a record with the key its keyed exchange carried
        # (runtime/boundary.py); None: the head is not keyed on that input, the keys are
        # not needed
        self._keyed_methods = {
            i.edge_id: getattr(self.head, "process_keyed" if i.input_index == 1
                               else "process_keyed2", None) for i in spec.inputs}
        # edge -> the head's method for a row's keyed records without timestamps at once
        # (None: one by one)
        self._keyed_many_methods = {
            i.edge_id: getattr(self.head, "process_keyed_many", None) if i.input_index == 1
            else None for i in spec.inputs}
        # edge -> the same for a row's records with timestamps (None: one by one)
        self._keyed_stamped_many_methods = {
            i.edge_id: getattr(self.head, "process_keyed_stamped_many", None)
            if i.input_index == 1 else None for i in spec.inputs}
        self._input_index = {i.edge_id: i.input_index for i in spec.inputs}
        # sorted edge -> the head's method for a row's records at once (None: one by one)
        self._run_methods = {
            edge: getattr(self.head, "process_key_run", None) for edge in self._sorted_edges}
        channels = [(i.edge_id, src) for i in spec.inputs for src in range(i.upstream_parallelism)]
        # an unbounded stage's channels never end: each keeps the last watermark it sent
        valve_class = StreamingValve if unbounded else InputWatermarkValve
        # Two-input heads that alternate their inputs (co-process) get their rows through
        # AlternatingInputs; the others (one input, broadcast first, both inputs key-sorted)
        # read rows in order.
        self._two_inputs = None
        if any(i.input_index == 2 for i in spec.inputs) and \
                getattr(self.head, "alternates_inputs", False) and \
                not all(i.sorted_by_key for i in spec.inputs):
            input_of_edge = {i.edge_id: i.input_index for i in spec.inputs}
            self._valve = valve_class(channels, input_of_edge)
            self._two_inputs = AlternatingInputs(
                input_of_edge, self.head.process_element, self.head.process_element2,
                self._valve, self.head.process_watermark, work_dir,
                (getattr(self.head, "process_keyed", None),
                 getattr(self.head, "process_keyed2", None)))
        else:
            self._valve = valve_class(channels)
        self._channel = None
        self._had_input = False         # whether this micro-batch brought records
        self.last_input_time: Optional[int] = None   # processing time of the last input
        self._has_timers = [op for op in self.operators if op.has_timers]

    @staticmethod
    def _connect(output: Output, side_tag, process_element, process_watermark,
                 fuse_map: Optional[Callable] = None,
                 process_many: Optional[Callable] = None,
                 process_stamped: Optional[Callable] = None,
                 fuse_stamps: Optional[Callable] = None,
                 runs_user_code: Optional[Callable[[], bool]] = None) -> None:
        if side_tag is None:
            output.add_main_target(process_element, process_watermark, fuse_map, process_many,
                                   process_stamped, fuse_stamps, runs_user_code)
        else:
            output.add_side_target(side_tag, process_element, process_watermark)

    def open(self) -> None:
        # Downstream operators open first, so they are ready when an upstream open() emits.
        for operator in reversed(self.operators):
            operator.open()

    @property
    def reads_sorted_input(self) -> bool:
        """Whether an input is key-sorted: process_rows then needs the rows' order and seq
        columns."""
        return bool(self._sorted_edges)

    def process_rows(self, edges: Iterable[int], srcs: Iterable[int], kinds: Iterable[int],
                     payloads: Iterable[bytes], orders: Optional[Iterable[bytes]] = None,
                     seqs: Optional[Iterable[int]] = None) -> None:
        """One batch of input rows (runtime/boundary.py), in the exchange's order.
        `orders`, `seqs`: the rows' order and seq columns (needed when an input is
        key-sorted: reads_sorted_input)."""
        for _ in self.process_rows_in_steps(edges, srcs, kinds, payloads, orders, seqs):
            pass

    def process_rows_in_steps(self, edges: Iterable[int], srcs: Iterable[int],
                              kinds: Iterable[int], payloads: Iterable[bytes],
                              orders: Optional[Iterable[bytes]] = None,
                              seqs: Optional[Iterable[int]] = None) -> Iterator[None]:
        """process_rows, pausing (a yield) between the steps of a source split being read
        (SourceOperator.read_split): the caller sends on what the task holds (take_rows)
        before the rest of the split is read."""
        if self._sorted_edges:
            self._process_sorted_rows(edges, srcs, kinds, payloads, orders, seqs)
        else:
            yield from self._process_rows_in_order(edges, srcs, kinds, payloads)
        if self._has_timers:
            now = self.context.clock()
            for operator in self._has_timers:
                operator.advance_processing_time(now)
        self._progress()

    def _process_rows_in_order(self, edges, srcs, kinds, payloads) -> Iterator[None]:
        """Rows in the exchange's (edge, src, seq) order: channels one after another. Yields
        between the steps of a split (process_rows_in_steps)."""
        head = self.head
        if self._two_inputs is not None:
            self._two_inputs.add_rows(edges, srcs, kinds, payloads)
            edges = ()
        for edge, src, kind, payload in zip(edges, srcs, kinds, payloads):
            if kind == KIND_SPLIT:
                yield from head.read_split(_loads(payload))
                continue
            channel = (edge, src)
            if channel != self._channel:
                self._channel = channel
                advanced = self._valve.on_channel(edge, src)
                if advanced is not None:
                    head.process_watermark(advanced)
            if kind == KIND_RECORDS:
                group = loads_records(payload)
                values, stamps = group[0], group[1]
                self.records_in += len(values)
                keyed = self._keyed_methods[edge] if len(group) > 2 else None
                if keyed is not None:
                    if stamps is None:
                        many = self._keyed_many_methods[edge]
                        if many is not None:
                            many(group[2], values)
                            continue
                        for key, value in zip(group[2], values):
                            keyed(key, value, None)
                    else:
                        many = self._keyed_stamped_many_methods[edge]
                        if many is not None:
                            many(group[2], values, stamps)
                            continue
                        for key, value, stamp in zip(group[2], values, stamps):
                            keyed(key, value, stamp)
                    continue
                process = self._input_methods[edge]
                if stamps is None:
                    for value in values:
                        process(value, None)
                else:
                    for value, stamp in zip(values, stamps):
                        process(value, stamp)
            elif kind == KIND_WATERMARK:
                advanced = self._valve.on_watermark(edge, src, _loads(payload))
                if advanced is not None:
                    head.process_watermark(advanced)

    def _process_sorted_rows(self, edges, srcs, kinds, payloads, orders, seqs) -> None:
        """Rows of a key-sorted input: each row is records of one key (the order's key part)
        or a key run (runtime/key_runs.py: groups of several keys, merged with the rows that
        come later), keys one after another; the head ends a key when the next one starts.
        Watermarks of sorted channels are dropped (BATCH mode: only the end of input
        counts). Rows of other inputs (a broadcast input, sorted first) go the usual way."""
        if orders is None:
            raise ValueError("a key-sorted input needs the rows' order column")
        head = self.head
        sorted_edges = self._sorted_edges
        held = self._key_runs
        process_groups = self._process_groups
        for edge, src, kind, payload, order, seq in zip(
                edges, srcs, kinds, payloads, orders, repeat(None) if seqs is None else seqs):
            if edge not in sorted_edges:   # a broadcast input's row: no split to pause in
                for _ in self._process_rows_in_order((edge,), (src,), (kind,), (payload,)):
                    pass
                continue
            if kind == KIND_RECORDS or kind == KIND_KEY_RUN:
                if held:   # the groups held that sort before this row come first
                    for run_edge, groups in held.release(order, edge, src, seq):
                        process_groups(run_edge, groups)
                # a sorted row's third item is its records' one key (runtime/exits/key_sorted.py)
                groups = [(order, *loads_records(payload))] if kind == KIND_RECORDS \
                    else loads_records(payload)
                first = 0
                if one_timestamp(groups[0]):   # none of the rows to come sorts before it
                    process_groups(edge, groups[:1])
                    first = 1
                if first < len(groups):
                    if seq is None:
                        raise ValueError("a key run needs the rows' seq column")
                    held.hold(groups, first, edge, src, seq)
            elif kind == KIND_RECORD_COUNT:   # before every record row (a two-input head)
                head.count_sorted_input(self._input_index[edge], _loads(payload))

    def _process_groups(self, edge: int, groups) -> None:
        """Groups of one key's records (order, values, timestamps-or-None, key), in the
        input's order: a key ends where the next one starts. A group with timestamps goes
        to the head in one call where it has a loop for them (process_keyed_stamped_many)."""
        head = self.head
        keyed, run = self._keyed_methods[edge], self._run_methods[edge]
        stamped = self._keyed_stamped_many_methods[edge]
        for order, values, stamps, row_key in groups:
            key = key_of_order(order)
            if key != self._last_key:
                if self._last_key is not None:
                    head.end_sorted_key()
                self._last_key = key
            if stamps is None:
                if run is not None:
                    run(row_key, values)
                    continue
                for value in values:
                    keyed(row_key, value, None)
            elif stamped is not None:
                stamped([row_key] * len(values), values, stamps)
            else:
                for value, stamp in zip(values, stamps):
                    keyed(row_key, value, stamp)

    def _progress(self) -> None:
        """Ends the bundle when it is older than BUNDLE_SECONDS: the records the exits hold
        leave, so a selective job's few results do not wait for thousands more."""
        if self.on_bundle is not None and \
                time.monotonic() - self._bundle_started >= BUNDLE_SECONDS:
            self.end_bundle()
            self.on_bundle()

    def end_bundle(self) -> None:
        """The records the exits hold leave the task now (as a PyFlink bundle ends when its
        input ends, before the final watermark fires the timers): what user code prints
        after this point comes after these records."""
        for collector in self.exits:
            collector.end_bundle()
        self._bundle_started = time.monotonic()

    def finish(self) -> None:
        """End of all input: the final watermark fires every event-time timer, then each
        operator's end_input (head first), then everything buffered leaves the stage.
        Pending processing-time timers do not fire, as in PyFlink."""
        if self._two_inputs is not None:
            self._two_inputs.finish()
        if self._key_runs:
            for run_edge, groups in self._key_runs.release_all():
                self._process_groups(run_edge, groups)
        if self._last_key is not None:
            self.head.end_sorted_key()
            self._last_key = None
        self.head.process_watermark(MAX_WATERMARK)
        for operator in self.operators:
            operator.end_input()
        for collector in self.exits:
            collector.finish()

    def close(self) -> None:
        error = None
        for operator in self.operators:
            try:
                operator.close()
            except BaseException as e:  # close every operator, report the first failure
                error = error or e
        if error is not None:
            raise error

    def take_rows(self) -> List[tuple]:
        rows = self.rows[:]
        del self.rows[:]
        return rows

    # -- an unbounded job's micro-batches (see the module doc) --------------------------------

    def restore_state(self, parts_of: Dict[int, list], context_of: Callable[[int], object],
                      same_parallelism: bool) -> None:
        """Once, after open(): every operator restores from ``parts_of[node]`` ([(old
        subtask, snapshot)], empty for a fresh start: Operator.restore_state) with
        ``context_of(node)``; the task's own state (valve, exit positions, records in) comes
        back from the head's snapshot when the stage ran at this parallelism (after
        rescaling the channels and selector positions are not this subtask's)."""
        for op_spec in self.spec.operators:
            node = op_spec.node_id
            parts = parts_of.get(node, [])
            self.operator_of_node[node].restore_state(parts, context_of(node))
            if node == self.spec.head and same_parallelism and parts \
                    and "valve" in parts[0][1]:
                own = parts[0][1]
                self._valve.restore(own["valve"])
                self.last_input_time = own.get("last_input_time")
                self.records_in = own.get("records_in", 0)
                for collector, state in zip(self.exits, own.get("exits", ())):
                    collector.restore_position(state)

    def begin_batch(self, context_of: Callable[[int], object]) -> None:
        """A micro-batch starts: every operator's begin_batch (``context_of(node)``: its
        place in the checkpoint), no channel is being read, and a two-input head alternates
        its inputs afresh (without the keyed methods, as unbounded jobs always ran it)."""
        for op_spec, operator in zip(self.spec.operators, self.operators):
            operator.begin_batch(context_of(op_spec.node_id))
        if self._two_inputs is not None:
            head = self.head
            self._two_inputs = AlternatingInputs(
                self._input_index, head.process_element, head.process_element2,
                self._valve, head.process_watermark, self.context.work_dir)
        self._channel = None
        self._had_input = False

    def process_batch_rows(self, edges, srcs, kinds, payloads) -> None:
        """A micro-batch's input rows: as process_rows, but tick rows (which only make a
        source subtask run) are not input."""
        if not self._had_input and any(k != KIND_TICK and k != KIND_WATERMARK for k in kinds):
            self._had_input = True
        if KIND_TICK in kinds:
            keep = [i for i, k in enumerate(kinds) if k != KIND_TICK]
            edges = [edges[i] for i in keep]
            srcs = [srcs[i] for i in keep]
            payloads = [payloads[i] for i in keep]
            kinds = [kinds[i] for i in keep]
        if kinds:
            self.process_rows(edges, srcs, kinds, payloads)

    def end_batch(self, drain: bool = False) -> None:
        """The micro-batch's input ended (it is not the end of input): rows a two-input head
        held back are processed, processing time reaches the batch's (timers fire), every
        operator ends the batch (head first: periodic watermarks, flushes, commits, rolled
        parts) and every exit sends its watermark (or IDLE) to every downstream subtask, so
        that every subtask of every stage runs in every batch and watermarks progress and
        timers fire without data.

        ``drain`` (stop_with_savepoint(True, ...), the job's last batch): then the end of
        event time, MAX_WATERMARK, goes through the chain before the operators end the batch
        (every event-time timer and window fires, its output is committed with the batch)
        and leaves by every exit to every downstream subtask. As PyFlink 1.20.5 drains: no
        end_input, and pending processing-time timers do not fire."""
        if self._two_inputs is not None:
            self._two_inputs.finish()
        now = self.context.clock()
        idle = self._idle_after_batch(now)
        for operator in self._has_timers:
            operator.advance_processing_time(now)
        if drain:
            self.head.process_watermark(MAX_WATERMARK)
        for operator in self.operators:
            operator.end_batch(now)
        for collector in self.exits:
            if drain:
                collector.end_event_time()
            else:
                source = self.operator_of_node[collector.spec.source]
                collector.process_watermark(IDLE if idle else source.current_watermark)
            collector.flush()

    @property
    def input_watermark(self) -> int:
        """The task's combined input watermark (its valve's), as Flink's task-scope
        currentInputWatermark metric reports it."""
        return self._valve.combined

    def _idle_after_batch(self, now: int) -> bool:
        """Whether this subtask's output is idle after the batch. A stage with operators that
        generate watermarks (a source, assign_timestamps_and_watermarks) is idle when each of
        them says its output is (Operator.output_idle); any other stage is idle when all
        its inputs are."""
        generators = [op for op in self.operators if op.generates_watermarks]
        if not generators:
            return self._valve.all_idle()
        if self._had_input:
            self.last_input_time = now
        return all(op.output_idle(now, self.last_input_time) for op in generators)

    def snapshot_state(self, context_of: Callable[[int], object]) -> Dict[int, dict]:
        """node -> its operator's snapshot after the batch (Operator.snapshot_state); the
        head's also holds the task's own state."""
        snaps = {}
        for op_spec in self.spec.operators:
            node = op_spec.node_id
            snaps[node] = self.operator_of_node[node].snapshot_state(context_of(node))
        snaps[self.spec.head].update(
            valve=self._valve.export(),
            exits=[collector.export_position() for collector in self.exits],
            last_input_time=self.last_input_time, records_in=self.records_in,
            watermark_out=max((self.operator_of_node[c.spec.source].current_watermark
                               for c in self.exits), default=None))
        return snaps


def _converting(convert, process_element, user_error):
    """process_element receiving values converted to a side output's declared type."""
    def process_converted(value, timestamp):
        try:
            value = convert(value)
        except Exception as e:
            raise user_error(e) from None
        process_element(value, timestamp)
    return process_converted
