"""Key runs (runtime/key_runs.py): small groups of a key-sorted exchange leave several to a
row, and the reading task merges them with the rows that come later. What the task
processes, and in which order, must be what one row per group gave."""
import marshal

import pytest
from hypothesis import given, settings, strategies as st

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink_on_spark.datastream.execution_mode import RuntimeExecutionMode
from pyflink_on_spark.direct.exchange import route
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime import key_runs
from pyflink_on_spark.runtime.exits import KeySortedExitCollector, key_sorted
from pyflink_on_spark.runtime.batch_order import sorted_record_order
from pyflink_on_spark.runtime.key_groups import KeyToSubtask
from pyflink_on_spark.runtime.boundary import (
    KIND_KEY_RUN, KIND_RECORDS, MARSHAL_RECORD_VERSION, dumps_records)
from pyflink_on_spark.runtime.key_runs import (
    RUN_ALONE, RUN_RECORDS, KeyRunMerge, append_key_runs, merged_groups)
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks, run_job
from pyflink_on_spark.specs.sinks import CollectSinkSpec


def _group(key: bytes, timestamp, values, marshalled: bool, dest: int = 0) -> tuple:
    """A group as a key-sorted exit's flush hands it to append_key_runs."""
    order = sorted_record_order(key, timestamp)
    stamps = None if timestamp is None else [timestamp] * len(values)
    if marshalled and stamps is None:
        records = [marshal.dumps(v, MARSHAL_RECORD_VERSION) for v in values]
        return (order, dest, len(values), records, None, None, key.decode())
    return (order, dest, len(values), None, list(values), stamps, key.decode())


def _one_row_each(groups, edge, src, seq):
    """The rows of groups one per row, as exits made them before key runs."""
    rows = []
    for order, dest, _, records, values, stamps, key in groups:
        if records is not None:
            values = [marshal.loads(r) for r in records]
        rows.append((edge, dest, src, seq, KIND_RECORDS, dumps_records((values, stamps, key)),
                     order))
        seq += 1
    return rows


def _read(rows):
    return [(edge, group[1:]) for edge, group in merged_groups(route(rows, 1)[0])]


# flushes of upstream subtasks: each a list of groups (key, timestamp, record count, form);
# short keys of few letters, so that keys meet across flushes, subtasks and edges
_flush = st.lists(st.tuples(st.sampled_from([b"a", b"b", b"c", b"d", b"e", b"ab", b"ba"]),
                            st.sampled_from([None, None, 1, 5]),
                            st.sampled_from([1, 1, 2, 3, RUN_ALONE]), st.booleans()),
                  max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([(3, 0), (3, 1), (4, 0)]), _flush), max_size=8))
def test_key_runs_are_read_in_the_order_one_row_per_group_gave(flushes):
    one_each, in_runs = [], []
    seqs, run_seqs = {}, {}   # each way's next sequence number of an upstream subtask
    for number, ((edge, src), flush) in enumerate(flushes):
        groups = []
        for key, timestamp, count, marshalled in flush:
            # a flush may hold two groups of one order: equal keys of two types whose
            # bytes are the same (an int and a numpy int64 under a LONG key type)
            values = [("%s/%d/%d" % (key.decode(), number, i), i) for i in range(count)]
            groups.append(_group(key, timestamp, values, marshalled))
        groups.sort(key=lambda g: (g[1], g[0]))   # as the exit's flush sorts them
        seq = seqs.get((edge, src), 0)
        one_each += _one_row_each(groups, edge, src, seq)
        seqs[(edge, src)] = seq + len(groups)
        sent = [0]
        run_seqs[(edge, src)] = append_key_runs(in_runs, groups, edge, src,
                                                run_seqs.get((edge, src), 0), sent)
        assert sent == [sum(g[2] for g in groups)]
    assert len(in_runs) <= len(one_each)
    assert _read(in_runs) == [(edge, tuple(g)) for edge, g in _read(one_each)]


def test_small_groups_share_a_row_and_large_ones_leave_alone():
    groups = [_group(b"k%03d" % i, None, [(i, 0)], True) for i in range(RUN_RECORDS + 10)]
    groups.insert(5, _group(b"k004z", None, [(0, j) for j in range(RUN_ALONE)], True))
    rows = []
    append_key_runs(rows, groups, 3, 0, 0, [0])
    kinds = [r[4] for r in rows]
    # a run up to the large group, the group alone, a full run, the rest
    assert kinds == [KIND_KEY_RUN, KIND_RECORDS, KIND_KEY_RUN, KIND_KEY_RUN]
    assert [len(key_runs.row_groups(r)) for r in rows] == [5, 1, RUN_RECORDS, 5]
    assert [r[3] for r in rows] == [0, 1, 2, 3]


def test_a_run_holds_groups_of_one_form():
    groups = [_group(b"a", None, [1], True), _group(b"b", None, [2], False),
              _group(b"c", 4, [3], False), _group(b"d", None, [4], True),
              _group(b"e", None, [5], True)]
    rows = []
    sent = [0]
    assert append_key_runs(rows, groups, 3, 0, 0, sent) == 3
    assert [r[4] for r in rows] == [KIND_RECORDS, KIND_KEY_RUN, KIND_KEY_RUN]
    assert sent == [5]


def test_an_exit_sends_each_destination_its_own_runs():
    from pyflink_on_spark.datastream.functions import wrap_key_selector
    from pyflink_on_spark.specs.partitioning import KeyedPartitioning
    from pyflink_on_spark.specs.stage import ExitSpec
    spec = ExitSpec(edge_id=3, source=1, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(lambda v: v[0]),
                                                   Types.STRING()),
                    target_parallelism=2, target_max_parallelism=128, sort_by_key=True)
    rows = []
    collector = KeySortedExitCollector(spec, 0, 1, rows, lambda e: e)
    collector.process_many([("k%d" % i, i) for i in range(100)], None)
    collector.flush()
    assert sorted(r[1] for r in rows) == [0, 1] and all(r[4] == KIND_KEY_RUN for r in rows)
    for row in rows:
        groups = key_runs.row_groups(row)
        assert [g[0] for g in groups] == sorted(g[0] for g in groups)
        where = KeyToSubtask(128, 2, Types.STRING())
        assert {where(g[3]) for g in groups} == {row[1]}
    assert sum(len(key_runs.row_groups(r)) for r in rows) == 100


def test_a_group_of_the_rows_order_goes_first_when_its_run_sorts_first():
    # both runs hold key "b": the reader takes src 0's before src 1's, whichever row came
    b = sorted_record_order(b"b", None)
    held = KeyRunMerge()
    held.hold([(sorted_record_order(b"a", None), [1], None, "a"), (b, [2], None, "b")], 1,
              3, 0, 7)
    assert held.release(b, 3, 1, 0) == [(3, [(b, [2], None, "b")])]
    held.hold([(sorted_record_order(b"a", None), [1], None, "a"), (b, [2], None, "b")], 1,
              3, 1, 7)
    assert held.release(b, 3, 0, 9) == []    # src 0's row sorts first: src 1's b waits
    assert held.release_all() == [(3, [(b, [2], None, "b")])]
    assert not held


def test_runs_of_two_edges_keep_each_groups_edge():
    a, b, c = (sorted_record_order(k, None) for k in (b"a", b"b", b"c"))
    held = KeyRunMerge()
    held.hold([(a, [0], None, "a"), (b, [1], None, "b"), (c, [2], None, "c")], 1, 4, 0, 0)
    held.hold([(a, [3], None, "a"), (b, [4], None, "b"), (c, [5], None, "c")], 1, 3, 0, 0)
    assert held.release_all() == [(3, [(b, [4], None, "b")]), (4, [(b, [1], None, "b")]),
                                  (3, [(c, [5], None, "c")]), (4, [(c, [2], None, "c")])]


class _Log(KeyedProcessFunction):
    """Every record as it comes, with the key current then: the order the operator saw."""

    def process_element(self, value, ctx):
        yield (ctx.get_current_key(), value)


def _logged(values, parallelism=2):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    ds = env.from_collection(values, type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
    ds = ds.map(lambda v: v, Types.TUPLE([Types.STRING(), Types.LONG()]))
    ds = ds.key_by(lambda v: v[0]).process(_Log())
    sink = SinkTransformation(name="Collect", input=ds._transformation, spec=CollectSinkSpec())
    sink.parallelism = 1
    return compile_sinks([sink], parallelism=parallelism, mode="BATCH"), sink


def test_a_keyed_job_sees_what_it_saw_with_one_row_per_group(monkeypatch):
    # many keys, rare and frequent, and exits that flush often: runs of many flushes and
    # both upstream subtasks overlap in the reading task
    monkeypatch.setattr(key_sorted, "SORTED_RECORDS_HELD", 64)
    monkeypatch.setattr(key_sorted, "MARSHALLED_BYTES_HELD", 0)
    values = [("k%d" % (i * 7919 % 1500 if i % 3 else i % 7), i) for i in range(6000)]
    job, sink = _logged(values)
    in_runs = run_job(job)[sink.id]
    monkeypatch.setattr(key_runs, "RUN_ALONE", 1)    # every group in a row of its own
    job, sink = _logged(values)
    assert run_job(job)[sink.id] == in_runs
    assert sorted(v for _, v in in_runs) == sorted(values)


def test_the_reading_task_holds_about_one_run_per_flush(monkeypatch):
    monkeypatch.setattr(key_sorted, "SORTED_RECORDS_HELD", 500)
    monkeypatch.setattr(key_sorted, "MARSHALLED_BYTES_HELD", 0)
    most = [0]
    hold = KeyRunMerge.hold

    def counted_hold(self, *args):
        hold(self, *args)
        most[0] = max(most[0], len(self._heap))
    monkeypatch.setattr(KeyRunMerge, "hold", counted_hold)
    values = [("k%d" % (i * 7919 % 20000), i) for i in range(20000)]
    job, sink = _logged(values)
    assert len(run_job(job)[sink.id]) == len(values)
    # 20000 records, flushes of 250-500 records (a partial flush sends half) per subtask:
    # at most ~80 flushes in all, each a few runs over the whole key range
    assert 2 <= most[0] <= 80


# records of upstream subtasks into a key-sorted exchange: (key, timestamp), delivered in
# calls of a few records (process_stamped) or one by one (process_element)
_KEYS = ["a", "b", "ab", 3, ("t", 1), 2.5]
_stamped_records = st.lists(st.tuples(st.sampled_from(_KEYS),
                                      st.sampled_from([None, 1, 2, 2, 5, 7, 9])),
                            max_size=40)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([(3, 0), (3, 1), (3, 2), (4, 0)]), _stamped_records,
                          st.integers(1, 5)), max_size=4, unique_by=lambda s: s[0]),
       st.booleans(), st.integers(1, 4), st.integers(4, 24))
def test_a_keys_records_are_read_by_timestamp_edge_subtask_and_arrival(
        subtasks, min_for_none, piece, held):
    # a key's records with timestamps leave in pieces sorted by timestamp (small pieces,
    # flushes every few records here); what the reading task gets must be the order one
    # row per (key, timestamp) gave: key, timestamp (none as Long.MIN_VALUE), edge,
    # upstream subtask, arrival
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(key_sorted, "SORTED_RECORDS_HELD", held)
        patch.setattr(key_sorted, "PIECE_RECORDS", piece)
        rows, expected = _exits_rows(subtasks, min_for_none)
    read = [(value, None if stamps is None else stamps[i])
            for _, group in merged_groups(route(rows, 1)[0])
            for i, value in enumerate(group[1])
            for stamps in (group[2],)]
    assert read == [record for _, record in sorted(expected, key=lambda e: e[0])]


def _exits_rows(subtasks, min_for_none):
    """The rows key-sorted exits of `subtasks` send, and each record's place in the
    exchange's order: (its order's key, timestamp, edge, src, arrival), (value, timestamp)."""
    from pyflink_on_spark.datastream.functions import wrap_key_selector
    from pyflink_on_spark.runtime.batch_order import LONG_MIN, batch_key_order
    from pyflink_on_spark.specs.partitioning import KeyedPartitioning
    from pyflink_on_spark.specs.stage import ExitSpec
    rows, expected = [], []
    key_order = batch_key_order(None)
    for (edge, src), records, call in subtasks:
        spec = ExitSpec(edge_id=edge, source=1, side_tag=None,
                        partitioning=KeyedPartitioning(wrap_key_selector(lambda v: v[0]), None),
                        target_parallelism=1, target_max_parallelism=128, sort_by_key=True)
        exit_rows = []
        collector = KeySortedExitCollector(spec, src, 1, exit_rows, lambda e: e)
        # with no timestamp among them, Long.MIN_VALUE instead: it sorts as none does
        records = [(key, LONG_MIN if ts is None and min_for_none else ts)
                   for key, ts in records]
        # some values not exact (a list inside): their key's records wait as objects after
        values = [(key, "%d/%d/%d" % (edge, src, i) if i % 7 != 3 else [i])
                  for i, (key, _) in enumerate(records)]
        for start in range(0, len(values), call):
            if call == 1:
                collector.process_element(values[start], records[start][1])
            else:
                collector.process_stamped(values[start:start + call],
                                          [ts for _, ts in records[start:start + call]])
        collector.finish()
        rows += exit_rows
        expected += [((key_order(key), LONG_MIN if ts is None else ts, edge, src, i),
                      (value, ts)) for i, ((key, ts), value) in enumerate(zip(records, values))]
    return rows, expected


def test_a_large_key_out_of_time_order_is_not_held_whole(monkeypatch):
    # one key, timestamps in random order, many flushes: each flush's pieces cover the
    # key's whole span of time, and the reading task holds about one piece per flush (a
    # piece in a row of its own, as a key's pieces of a full exit are: RUN_ALONE records)
    import random
    monkeypatch.setattr(key_sorted, "SORTED_RECORDS_HELD", 500)
    monkeypatch.setattr(key_sorted, "PIECE_RECORDS", 50)
    monkeypatch.setattr(key_runs, "RUN_ALONE", 50)
    stamps = random.Random(7).sample(range(100_000), 20_000)
    rows, expected = _exits_rows([((3, 0), [("k", ts) for ts in stamps], 1000)], False)
    most = [0]
    release = KeyRunMerge.release

    def measured_release(self, *args):
        released = release(self, *args)
        most[0] = max(most[0], sum(len(g[1]) for entry in self._heap
                                   for g in entry[5][entry[4]:]))
        return released
    monkeypatch.setattr(KeyRunMerge, "release", measured_release)
    read = [stamp for _, group in merged_groups(route(rows, 1)[0]) for stamp in group[2]]
    assert read == sorted(stamps)
    # 40 flushes of 500 records, pieces of 50: about one piece a flush is held
    assert 40 * 25 <= most[0] <= 40 * 50 * 1.5
