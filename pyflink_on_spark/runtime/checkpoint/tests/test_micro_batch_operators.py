"""Session windows and keyed broadcast state across micro-batches, restarts and replays
(engine level, no Spark)."""
from pyflink_on_spark.common.time import Duration, Time
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.functions import KeyedBroadcastProcessFunction
from pyflink_on_spark.datastream.state import MapStateDescriptor, ValueStateDescriptor
from pyflink_on_spark.datastream.state_backend import EmbeddedRocksDBStateBackend
from pyflink_on_spark.datastream.window import EventTimeSessionWindows
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner
from pyflink_on_spark.specs.sinks import CollectSinkSpec

import pytest


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def _env(backend):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    if backend:
        env.set_state_backend(EmbeddedRocksDBStateBackend())
    return env


def _events(env):
    return env.from_collection([("x", 0, 0)]).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(5))
        .with_timestamp_assigner(Stamp()))


def _collect(env, stream):
    sink = SinkTransformation(name="Collect", input=stream._transformation,
                              spec=CollectSinkSpec())
    return env._compile([sink]), sink.id


def _session_job(backend):
    env = _env(backend)
    sessions = _events(env).filter(lambda e: e[0] != "rule") \
        .key_by(lambda e: e[0]) \
        .window(EventTimeSessionWindows.with_gap(Time.milliseconds(30))) \
        .reduce(lambda a, b: (a[0], max(a[1], b[1]), a[2] + b[2]))
    return _collect(env, sessions)


class Threshold(KeyedBroadcastProcessFunction):
    RULES = MapStateDescriptor("rules", Types.STRING(), Types.LONG())

    def open(self, ctx):
        self.count = ctx.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, value, ctx):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        limit = ctx.get_broadcast_state(self.RULES).get("limit")
        if limit is not None and count >= limit:
            yield value[0], count, limit

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(self.RULES).put("limit", value[2])


def _broadcast_job(backend):
    env = _env(backend)
    events = _events(env)
    rules = events.filter(lambda e: e[0] == "rule").broadcast(Threshold.RULES)
    out = events.filter(lambda e: e[0] != "rule").key_by(lambda e: e[0]) \
        .connect(rules).process(Threshold())
    return _collect(env, out)


def _batches():
    """Per batch: [(source subtask, records)]; keys a..d, sessions broken by gaps; a rule
    record changes the broadcast limit in batches 1 and 3."""
    out = []
    t = 0
    for b in range(5):
        records = []
        for i in range(24):
            t += 7 if i % 8 else 45     # a 45 ms gap every 8 records ends sessions
            records.append(("abcd"[(i + b) % 4], t, i))
        if b in (1, 3):
            records.insert(5, ("rule", t, 3 + b))
        out.append([(0, records)])
    return out


def _run(job, sink, root, restarts=(), replay=None):
    runner = StreamRunner(job, root)
    out = []
    for b, splits in enumerate(_batches()):
        if b in restarts:
            runner = StreamRunner(job, root)
        if b == replay:
            runner.run_batch(b, splits)               # ran, but the driver died before
            import os                                 # completing the version
            os.remove(os.path.join(root, "v%d" % b, "_COMPLETED"))
            runner = StreamRunner(job, root)
        out.append(runner.run_batch(b, splits).get(sink, []))
    return out


@pytest.mark.parametrize("backend", [False, True])
@pytest.mark.parametrize("make_job", [_session_job, _broadcast_job])
def test_restart_and_replay_give_the_uninterrupted_output(tmp_path, make_job, backend):
    job, sink = make_job(backend)
    plain = _run(job, sink, str(tmp_path / "a"))
    assert sum(len(o) for o in plain) > 5
    assert _run(job, sink, str(tmp_path / "b"), restarts=(1, 2, 4)) == plain
    assert _run(job, sink, str(tmp_path / "c"), replay=3) == plain
