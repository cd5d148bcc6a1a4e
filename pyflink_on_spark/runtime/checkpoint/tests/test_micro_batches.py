"""Unbounded execution micro-batch by micro-batch, without Spark: restore / snapshot of
keyed state, timers, watermarks; restarts; replays of a batch; rescaling; RocksDB."""
import dataclasses

import pytest

from pyflink_on_spark.common.time import Duration
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink_on_spark.datastream.functions import KeyedProcessFunction
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.datastream.state_backend import (
    EmbeddedRocksDBStateBackend, HashMapStateBackend)
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner
from pyflink_on_spark.direct import run_job
from pyflink_on_spark.specs.sinks import CollectSinkSpec


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class SumWithTimers(KeyedProcessFunction):
    def open(self, ctx):
        self.total = ctx.get_state(ValueStateDescriptor("total", None))

    def process_element(self, value, ctx):
        total = (self.total.value() or 0) + value[2]
        self.total.update(total)
        ctx.timer_service().register_event_time_timer(value[1] // 10 * 10 + 9)
        yield "sum", value[0], total

    def on_timer(self, timestamp, ctx):
        yield "timer", ctx.get_current_key(), timestamp


def _job(parallelism=2, backend=None, keyed_parallelism=None, stamped=True):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    if backend is not None:
        env.set_state_backend(backend)
    # a parallel source whose splits the harness feeds (records, not files)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), "/unused") \
        .monitor_continuously(Duration.of_millis(100)).build()
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "source") \
        .map(lambda v: v, output_type=Types.PICKLED_BYTE_ARRAY())   # records are tuples
    if stamped:
        ds = ds.assign_timestamps_and_watermarks(
            WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(2))
            .with_timestamp_assigner(Stamp()))
    out = ds.key_by(lambda v: v[0]).process(SumWithTimers())
    if keyed_parallelism is not None:
        out.set_parallelism(keyed_parallelism)
    sink = SinkTransformation(name="Collect", input=out._transformation,
                              spec=CollectSinkSpec())
    if keyed_parallelism is not None:
        sink.parallelism = keyed_parallelism   # forward: a key's outputs stay in order
    return env._compile([sink]), sink.id


KEYS = ["k%d" % i for i in range(7)]


def _batches(n=5, per_batch=40):
    """Records (key, timestamp, value) arriving over n batches, event time increasing."""
    out = []
    t = 0
    for b in range(n):
        records = []
        for i in range(per_batch):
            t += 1
            records.append((KEYS[(i * 3 + b) % len(KEYS)], t, i + b))
        # a key's records all come from one source subtask (so the order per key is the
        # source order, whatever the interleaving of subtasks)
        out.append([(0, [r for r in records if int(r[0][1:]) % 2 == 0]),
                    (1, [r for r in records if int(r[0][1:]) % 2 == 1])])
    return out


def _run(job, sink, batches, root, restarts=(), crash=None, tmp_path=None):
    """Runs the batches; a new runner (a restarted driver) before each batch in restarts;
    crash=(batch, stages): that batch fails after `stages` stages once, then is re-run."""
    results = []
    runner = StreamRunner(job, root)
    for b, splits in enumerate(batches):
        if b in restarts:
            runner = StreamRunner(job, root)
        if crash is not None and crash[0] == b:
            with pytest.raises(RuntimeError):
                runner.run_batch(b, splits, fail_after_stage=crash[1])
            runner = StreamRunner(job, root)
        results.append(runner.run_batch(b, splits).get(sink, []))
    return results


def _per_key(values):
    per = {}
    for kind, key, x in values:
        per.setdefault((kind, key), []).append(x)
    return per


@pytest.mark.parametrize("backend", [None, "rocksdb"])
def test_restarts_and_replays_give_the_uninterrupted_output(tmp_path, backend):
    make = (lambda: EmbeddedRocksDBStateBackend()) if backend else (lambda: HashMapStateBackend())
    job, sink = _job(backend=make())
    batches = _batches()
    plain = _run(job, sink, batches, str(tmp_path / "a"))
    assert any(v[0] == "timer" for out in plain for v in out)
    restarted = _run(job, sink, batches, str(tmp_path / "b"), restarts=(2, 3))
    crashed_mid = _run(job, sink, batches, str(tmp_path / "c"), crash=(3, 1))
    assert restarted == plain
    assert crashed_mid == plain


def test_a_batch_whose_snapshot_was_written_but_not_completed_reruns_identically(tmp_path):
    job, sink = _job()
    batches = _batches(3)
    plain = _run(job, sink, batches, str(tmp_path / "a"))
    root = str(tmp_path / "b")
    runner = StreamRunner(job, root)
    out = [runner.run_batch(0, batches[0])[sink], runner.run_batch(1, batches[1])[sink]]
    # batch 2 ran (all snapshots of version 2 written) but the driver died before completing
    runner.run_batch(2, batches[2])
    import shutil
    import os
    os.remove(os.path.join(root, "v2", "_COMPLETED"))
    shutil.rmtree(os.path.join(root, "v2", "_META"), ignore_errors=True)
    rerun = StreamRunner(job, root)
    out.append(rerun.run_batch(2, batches[2])[sink])
    assert out == plain


def test_per_key_results_equal_the_bounded_run(tmp_path):
    job, sink = _job()
    batches = _batches()
    streamed = [v for out in _run(job, sink, batches, str(tmp_path)) for v in out]
    # the same records through the bounded engine (one split per source subtask)
    env_job, env_sink = _job()
    records = {0: [], 1: []}
    for splits in batches:
        for sub, recs in splits:
            records[sub].extend(recs)
    source_stage = env_job.stages[0]
    splits = dataclasses.replace(source_stage.source, splits=((0, records[0]), (1, records[1])),
                                 frame=None)
    env_job = dataclasses.replace(env_job, stages=(
        dataclasses.replace(source_stage, source=splits),) + env_job.stages[1:])
    bounded = run_job(env_job)[env_sink]
    s, b = _per_key(streamed), _per_key(bounded)
    sums = {k: v for k, v in s.items() if k[0] == "sum"}
    assert sums == {k: v for k, v in b.items() if k[0] == "sum"}
    # timers: the stream fired those its watermark passed; the bounded run fires all of them
    # (end of input); each stream timer fired exactly once and in time order per key
    for (kind, key), stamps in s.items():
        if kind == "timer":
            assert stamps == sorted(set(stamps))
            assert set(stamps) <= set(b[(kind, key)])
    last_wm = max(r[1] for sub, recs in batches[-1] for r in recs) - 2 - 1
    expected_fired = {(k, t) for (kind, k), ts in b.items() if kind == "timer" for t in ts
                      if t <= last_wm}
    fired = {(k, t) for (kind, k), ts in s.items() if kind == "timer" for t in ts}
    assert fired == expected_fired


@pytest.mark.parametrize("backend", [None, "rocksdb"])
def test_rescale_2_to_3_keeps_every_key_state_and_timer(tmp_path, backend):
    make = (lambda: EmbeddedRocksDBStateBackend()) if backend else (lambda: None)
    # only the keyed operator rescales (a rebalance upstream would reorder a key's records)
    job2, sink2 = _job(2, make(), keyed_parallelism=2)
    job3, sink3 = _job(2, make(), keyed_parallelism=3)
    batches = _batches(4)
    plain = _run(job2, sink2, batches, str(tmp_path / "a"))
    root = str(tmp_path / "b")
    runner = StreamRunner(job2, root)
    out = [runner.run_batch(b, batches[b])[sink2] for b in (0, 1)]
    runner = StreamRunner(job3, root)
    out += [runner.run_batch(b, batches[b])[sink3] for b in (2, 3)]
    # order across subtasks differs with the parallelism; per key it does not
    assert _per_key(v for o in out for v in o) == _per_key(v for o in plain for v in o)


def test_rocksdb_snapshots_upload_only_new_sst_files(tmp_path):
    job, sink = _job(1, EmbeddedRocksDBStateBackend())
    root = str(tmp_path)
    runner = StreamRunner(job, root)
    big = [(0, [("k%d" % i, i, 1) for i in range(20000)])]
    small = [(0, [("k1", 30000, 1)])]
    runner.run_batch(0, big)
    runner.run_batch(1, small)
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    store = SnapshotStore(root)
    from pyflink_on_spark.runtime.checkpoint.micro_batch import state_ids_of
    keyed_node = state_ids_of(op for s in job.stages for op in s.spec.operators)[
        job.stages[-1].spec.head]
    s0 = store.read_state(0, keyed_node, 0)["keyed"]
    s1 = store.read_state(1, keyed_node, 0)["keyed"]
    reused = set(s0["sst"].values()) & set(s1["sst"].values())
    assert reused, (s0, s1)
    assert s1["uploaded"] < s0["uploaded"] / 4, (s0["uploaded"], s1["uploaded"])
    # a fresh process restores version 1 from the store alone
    again = StreamRunner(job, root)
    out = again.run_batch(2, [(0, [("k5", 30001, 1)])])[sink]
    assert ("sum", "k5", 2) in out


def test_a_source_subtask_that_read_nothing_does_not_hold_back_event_time(tmp_path):
    # parallelism 2, but every record comes from source subtask 0 (say, one file): subtask
    # 1 is idle, and the timers fire as subtask 0's watermark passes them
    job, sink = _job(2)
    runner = StreamRunner(job, str(tmp_path))
    runner.run_batch(0, [(0, [("k1", 5, 1), ("k2", 8, 1)])])
    out = runner.run_batch(1, [(0, [("k1", 25, 1)])])[sink]
    assert ("timer", "k1", 9) in out and ("timer", "k2", 9) in out
    # a restarted driver keeps the idleness (it is part of the valves' snapshots)
    again = StreamRunner(job, str(tmp_path))
    out = again.run_batch(2, [(0, [("k2", 45, 1)])])[sink]
    assert ("timer", "k1", 29) in out


@pytest.mark.parametrize("stamped", [True, False])
def test_a_stage_head_counts_the_records_it_received_across_restarts(tmp_path, stamped):
    # (a keyed head takes a row's records in one call, stamped or not: each is counted)
    from pyflink_on_spark.runtime.checkpoint.micro_batch import state_ids_of
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import key_types_of
    job, sink = _job(stamped=stamped)
    batches = _batches(3)
    root = str(tmp_path)
    _run(job, sink, batches, root, restarts=(2,))
    keyed = next(s.spec for s in job.stages if s.spec.head in key_types_of(job))
    state_id = state_ids_of(op for s in job.stages for op in s.spec.operators)[keyed.head]
    store = SnapshotStore(root)
    counted = sum(store.read_state(2, state_id, subtask)["records_in"]
                  for subtask in range(keyed.parallelism))
    assert counted == sum(len(records) for batch in batches for _, records in batch)


def test_a_stopped_jobs_live_tasks_are_closed_when_idle_and_a_late_batch_restores(
        tmp_path, monkeypatch):
    """A worker is never told that a job stopped: its live tasks are closed once unused for
    LIVE_IDLE_S, at the next batch the worker runs. A job whose batch comes later than that
    restores its state from the snapshot, with the same results."""
    from pyflink_on_spark.runtime.checkpoint import micro_batch
    job, sink = _job()
    batches = _batches(n=3)
    uninterrupted = _run(job, sink, batches, str(tmp_path / "a"))
    first = StreamRunner(job, str(tmp_path / "b"))
    results = [first.run_batch(b, batches[b]).get(sink, []) for b in range(2)]
    kept = [key for key in micro_batch._live if key[0] == first.token]
    assert kept
    closed = []
    monkeypatch.setattr(micro_batch.MicroBatchTask, "close",
                        lambda task, _close=micro_batch.MicroBatchTask.close:
                        (closed.append(task), _close(task)))
    monkeypatch.setattr(micro_batch, "LIVE_IDLE_S", 0.0)
    other_job, _ = _job()
    StreamRunner(other_job, str(tmp_path / "c")).run_batch(0, batches[0])
    assert not [key for key in micro_batch._live if key[0] == first.token]
    assert len(closed) >= len(kept)
    results.append(first.run_batch(2, batches[2]).get(sink, []))
    assert results == uninterrupted
