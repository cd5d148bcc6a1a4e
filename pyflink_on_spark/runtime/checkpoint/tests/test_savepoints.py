"""Savepoints without Spark: a completed version copied out, moved, restored into a fresh
checkpoint directory at another parallelism; Flink's rules for state no operator claims."""
import json
import os
import shutil

import pytest

from pyflink_on_spark.common.time import Duration
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.common.time import Time
from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink_on_spark.datastream.functions import KeyedProcessFunction
from pyflink_on_spark.datastream.state import (ListStateDescriptor, StateTtlConfig,
                                               ValueStateDescriptor)
from pyflink_on_spark.datastream.state_backend import EmbeddedRocksDBStateBackend
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.checkpoint.micro_batch import state_ids_of
from pyflink_on_spark.runtime.checkpoint.savepoints import (
    MANIFEST, SavepointError, read_manifest, seed_from_savepoint, version_base,
    write_savepoint)
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner
from pyflink_on_spark.runtime.checkpoint.tests.test_micro_batches import (
    _batches, _job, _per_key, _run)
from pyflink_on_spark.specs.sinks import CollectSinkSpec

JOB_ID = "86a5ec" + "0" * 26


def _ids(job):
    return set(state_ids_of(op for s in job.stages for op in s.spec.operators).values())


def _local(flink_path: str) -> str:
    assert flink_path.startswith("file:/"), flink_path
    return flink_path[len("file:"):]


@pytest.mark.parametrize("backend", [None, "rocksdb"])
def test_a_moved_savepoint_restores_at_another_parallelism(tmp_path, backend):
    make = (lambda: EmbeddedRocksDBStateBackend()) if backend else (lambda: None)
    job2, sink2 = _job(2, make(), keyed_parallelism=2)
    job3, sink3 = _job(2, make(), keyed_parallelism=3)
    batches = _batches(4)
    plain = _run(job2, sink2, batches, str(tmp_path / "plain"))

    first = StreamRunner(job2, str(tmp_path / "ckpt-a" / "state"))
    out = [first.run_batch(b, batches[b])[sink2] for b in (0, 1)]
    taken = write_savepoint(first.store, 1, str(tmp_path / "sps"), JOB_ID, "job")
    name = os.path.basename(_local(taken))
    assert name.startswith("savepoint-86a5ec-") and len(name) == len("savepoint-86a5ec-") + 12
    moved = str(tmp_path / "elsewhere" / name)
    shutil.move(_local(taken), moved)
    shutil.rmtree(str(tmp_path / "ckpt-a"))        # the savepoint needs nothing of the job's

    store = SnapshotStore(str(tmp_path / "ckpt-b" / "state"))
    assert seed_from_savepoint(moved, store, _ids(job3), False) == 1
    assert version_base(store) == 2                 # the new query's batch 0 is version 2
    second = StreamRunner(job3, store.root)
    out += [second.run_batch(b, batches[b])[sink3] for b in (2, 3)]
    assert _per_key(v for o in out for v in o) == _per_key(v for o in plain for v in o)


def _stateless_job():
    """The same source, without the keyed operator: a map and the collect sink."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), "/unused") \
        .monitor_continuously(Duration.of_millis(100)).build()
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "source") \
        .map(lambda v: v, output_type=Types.PICKLED_BYTE_ARRAY())
    sink = SinkTransformation(name="Collect", input=ds._transformation, spec=CollectSinkSpec())
    return env._compile([sink]), sink.id


def _savepoint_of_keyed_job(tmp_path):
    job, sink = _job(2)
    runner = StreamRunner(job, str(tmp_path / "a"))
    for b, splits in enumerate(_batches(2)):
        runner.run_batch(b, splits)
    return job, _local(write_savepoint(runner.store, 1, str(tmp_path / "sps"), JOB_ID, "job"))


def test_state_no_operator_claims_fails_the_start_naming_it(tmp_path):
    job, savepoint = _savepoint_of_keyed_job(tmp_path)
    keyed = state_ids_of(op for s in job.stages for op in s.spec.operators)[
        job.stages[-1].spec.head]
    manifest = read_manifest(savepoint)
    assert keyed in manifest["stateful"]
    new_job, _ = _stateless_job()
    store = SnapshotStore(str(tmp_path / "b"))
    with pytest.raises(SavepointError) as raised:
        seed_from_savepoint(savepoint, store, _ids(new_job) - {keyed}, False)
    message = str(raised.value)
    assert "Cannot map checkpoint/savepoint state for operator '%s'" % keyed in message
    assert "ignore-unclaimed-state" in message and "--allow-non-restored-state" in message
    assert store.versions() == []                   # nothing was seeded


def test_allowed_unclaimed_state_is_dropped_and_the_rest_restores(tmp_path):
    job, savepoint = _savepoint_of_keyed_job(tmp_path)
    keyed = state_ids_of(op for s in job.stages for op in s.spec.operators)[
        job.stages[-1].spec.head]
    new_job, sink = _stateless_job()
    ids = _ids(new_job) - {keyed}
    store = SnapshotStore(str(tmp_path / "b"))
    assert seed_from_savepoint(savepoint, store, ids, True) == 1
    assert keyed not in store.read_meta(1)
    assert not any(name.startswith(keyed + "-") for name in store.list_names(store.path("v1")))
    out = StreamRunner(new_job, store.root).run_batch(2, [(0, [("k0", 1, 5)])])
    assert out[sink] == [("k0", 1, 5)]


def test_stateless_operators_are_never_unclaimed_state(tmp_path):
    # the keyed job's map (before key_by) holds no state: a job without it starts
    job, savepoint = _savepoint_of_keyed_job(tmp_path)
    ids = state_ids_of(op for s in job.stages for op in s.spec.operators)
    keyed = ids[job.stages[-1].spec.head]
    assert set(read_manifest(savepoint)["stateful"]) == {keyed}
    store = SnapshotStore(str(tmp_path / "b"))
    assert seed_from_savepoint(savepoint, store, {keyed}, False) == 1


def test_a_restart_resumes_from_its_own_checkpoints_not_the_savepoint_again(tmp_path):
    job, savepoint = _savepoint_of_keyed_job(tmp_path)
    store = SnapshotStore(str(tmp_path / "b"))
    assert seed_from_savepoint(savepoint, store, _ids(job), False) == 1
    StreamRunner(job, store.root).run_batch(2, [(0, [("k0", 100, 1)])])
    # the same command line again (still naming the savepoint): nothing is copied
    assert seed_from_savepoint(savepoint, store, _ids(job), False) is None
    assert store.versions() == [1, 2]
    # another savepoint into the same directory is refused
    other = _local(write_savepoint(store, 2, str(tmp_path / "sps2"), JOB_ID, "job"))
    with pytest.raises(SavepointError, match="was started from the savepoint"):
        seed_from_savepoint(other, store, _ids(job), False)


def test_a_directory_with_checkpoints_of_its_own_is_not_seeded(tmp_path):
    job, savepoint = _savepoint_of_keyed_job(tmp_path)
    with pytest.raises(SavepointError, match="already holds the checkpoints"):
        seed_from_savepoint(savepoint, SnapshotStore(str(tmp_path / "a")), _ids(job), False)


def test_what_is_not_a_savepoint_is_refused_with_its_path(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(SavepointError, match="is not a pyflink_on_spark savepoint"):
        read_manifest(str(tmp_path / "empty"))
    with pytest.raises(SavepointError, match="does not exist"):
        read_manifest(str(tmp_path / "missing"))
    _, savepoint = _savepoint_of_keyed_job(tmp_path)
    manifest_path = os.path.join(savepoint, MANIFEST)
    manifest = json.load(open(manifest_path))
    manifest["format"] = 99
    with open(manifest_path, "w") as f:
        json.dump(manifest, f)
    with pytest.raises(SavepointError, match="has format 99"):
        read_manifest(savepoint)


def test_a_savepoint_others_can_write_is_refused(tmp_path):
    # restoring a savepoint unpickles it: one another user could have changed runs their code
    _, savepoint = _savepoint_of_keyed_job(tmp_path)
    os.chmod(savepoint, 0o777)
    with pytest.raises(SavepointError, match="writable by other users"):
        read_manifest(savepoint)


def test_no_target_directory_fails_with_flinks_words(tmp_path):
    job, sink = _job(1)
    runner = StreamRunner(job, str(tmp_path / "a"))
    runner.run_batch(0, [(0, [("k0", 1, 1)])])
    with pytest.raises(SavepointError, match="No savepoint directory configured"):
        write_savepoint(runner.store, 0, None, JOB_ID, "job")


class _Declared(KeyedProcessFunction):
    """Sums into state 'total', declared as the test says."""

    def __init__(self, descriptor):
        self.descriptor = descriptor

    def open(self, ctx):
        self.total = ctx.get_state(self.descriptor)

    def process_element(self, value, ctx):
        self.total.update(value[2])
        yield value[0], value[2]


def _declared_job(descriptor, backend=None):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    if backend is not None:
        env.set_state_backend(backend)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), "/unused") \
        .monitor_continuously(Duration.of_millis(100)).build()
    out = env.from_source(source, WatermarkStrategy.no_watermarks(), "source") \
        .map(lambda v: v, output_type=Types.PICKLED_BYTE_ARRAY()) \
        .key_by(lambda v: v[0]).process(_Declared(descriptor)).uid("summing")
    sink = SinkTransformation(name="Collect", input=out._transformation, spec=CollectSinkSpec())
    return env._compile([sink]), sink.id


@pytest.mark.parametrize("backend", [None, "rocksdb"])
def test_a_state_declared_anew_with_another_type_fails_the_restore_naming_it(tmp_path,
                                                                           backend):
    make = (lambda: EmbeddedRocksDBStateBackend()) if backend else (lambda: None)
    old, _ = _declared_job(ValueStateDescriptor("total", Types.INT()), make())
    StreamRunner(old, str(tmp_path / "a")).run_batch(0, [(0, [("k", 1, 5)])])
    # the same declaration (and a rebuilt task restoring it) is fine
    same, sink = _declared_job(ValueStateDescriptor("total", Types.INT()), make())
    assert StreamRunner(same, str(tmp_path / "a")).run_batch(1, [(0, [("k", 2, 6)])])[sink] \
        == [("k", 6)]
    for changed, now in ((ValueStateDescriptor("total", Types.STRING()),
                          "a value state of String"),
                         (ListStateDescriptor("total", Types.INT()),
                          "a list state of ListTypeInfo<Integer>")):
        job, _ = _declared_job(changed, make())
        with pytest.raises(Exception) as raised:
            StreamRunner(job, str(tmp_path / "a")).run_batch(2, [(0, [("k", 3, 7)])])
        assert "operator " in str(raised.value) and "(state id 'uid-summing')" in str(raised.value)
        assert ("The state 'total' was checkpointed as a value state of Integer and is now "
                "declared as %s" % now) in str(raised.value)
    ttl = ValueStateDescriptor("total", Types.INT())
    ttl.enable_time_to_live(StateTtlConfig.new_builder(Time.seconds(60)).build())
    job, _ = _declared_job(ttl, make())
    with pytest.raises(Exception, match="now declared as a value state of Integer with TTL"):
        StreamRunner(job, str(tmp_path / "a")).run_batch(2, [(0, [("k", 3, 7)])])


def test_no_type_and_the_pickled_type_are_one_declaration(tmp_path):
    old, _ = _declared_job(ValueStateDescriptor("total", None))
    StreamRunner(old, str(tmp_path / "a")).run_batch(0, [(0, [("k", 1, 5)])])
    job, sink = _declared_job(ValueStateDescriptor("total", Types.PICKLED_BYTE_ARRAY()))
    assert StreamRunner(job, str(tmp_path / "a")).run_batch(1, [(0, [("k", 2, 6)])])[sink] \
        == [("k", 6)]
