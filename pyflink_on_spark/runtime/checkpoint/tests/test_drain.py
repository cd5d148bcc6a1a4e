"""Draining an unbounded job (stop_with_savepoint(True, ...)) in the engine, without Spark: the
last micro-batch ends with the end of event time, as PyFlink 1.20.5 drains (probe
spark/streaming/tests/data/drain_pyflink_probe.py): every event-time timer and window
fires, processing-time timers do not, the functions are closed, and the snapshot left
begins event time anew."""
from pyflink_on_spark.common.time import Duration, Time
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner, WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink_on_spark.datastream.functions import KeyedProcessFunction
from pyflink_on_spark.datastream.window import TumblingEventTimeWindows
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.checkpoint import micro_batch
from pyflink_on_spark.runtime.checkpoint.drain import forget_event_time
from pyflink_on_spark.runtime.checkpoint.micro_batch import state_ids_of
from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK, MIN_WATERMARK
from pyflink_on_spark.specs.sinks import CollectSinkSpec


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Timers(KeyedProcessFunction):
    """An event-time timer 100 after each record, a processing-time timer an hour away."""

    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(value[1] + 100)
        ctx.timer_service().register_processing_time_timer(
            ctx.timer_service().current_processing_time() + 3600000)
        yield "record", value[0], value[1]

    def on_timer(self, timestamp, ctx):
        yield "timer", ctx.get_current_key(), timestamp, ctx.timer_service().current_watermark()


def _job():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), "/unused") \
        .monitor_continuously(Duration.of_millis(100)).build()
    keyed = env.from_source(source, WatermarkStrategy.no_watermarks(), "source") \
        .map(lambda v: v, output_type=Types.PICKLED_BYTE_ARRAY()) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())) \
        .key_by(lambda v: v[0])
    windows = keyed.window(TumblingEventTimeWindows.of(Time.milliseconds(10))) \
        .reduce(lambda a, b: (a[0], max(a[1], b[1]), a[2] + b[2]))
    timers = keyed.process(Timers())
    sinks = [SinkTransformation(name="Collect", input=s._transformation,
                                spec=CollectSinkSpec()) for s in (windows, timers)]
    return env._compile(sinks), sinks[0].id, sinks[1].id


BATCHES = [[(0, [("a", 1, 1), ("b", 2, 10)]), (1, [("c", 3, 1000)])],
           [(0, [("a", 15, 100)]), (1, [("c", 12, 2000)])]]    # then the watermark is 11


def _drained(root, crash=False):
    job, windows, timers = _job()
    runner = StreamRunner(job, root)
    out = [runner.run_batch(b, splits) for b, splits in enumerate(BATCHES)]
    if crash:     # the drain batch fails midway once: its re-run drains the same way
        try:
            runner.run_batch(2, [], fail_after_stage=1, drain=True)
        except RuntimeError:
            pass
        runner = StreamRunner(job, root)
    out.append(runner.run_batch(2, [], drain=True))
    return runner, out, windows, timers


def test_a_drain_fires_every_event_time_timer_and_window_but_no_processing_time_timer(
        tmp_path):
    runner, out, windows, timers = _drained(str(tmp_path))
    before = sorted(v for o in out[:2] for v in o.get(windows, []))
    assert before == [("a", 1, 1), ("b", 2, 10), ("c", 3, 1000)]     # [0, 10) at 11
    # the open windows [10, 20)
    assert sorted(out[2].get(windows, [])) == [("a", 15, 100), ("c", 12, 2000)]
    fired = sorted(v for v in out[2].get(timers, []) if v[0] == "timer")
    # every event-time timer, at the end of event time; the hour-away processing-time
    # timers (whose on_timer would say so with its watermark) did not fire
    assert fired == [("timer", "a", 101, MAX_WATERMARK), ("timer", "a", 115, MAX_WATERMARK),
                     ("timer", "b", 102, MAX_WATERMARK), ("timer", "c", 103, MAX_WATERMARK),
                     ("timer", "c", 112, MAX_WATERMARK)]
    assert not [v for o in out[:2] for v in o.get(timers, []) if v[0] == "timer"]
    # the drained tasks were closed, not kept for a next batch
    assert not [key for key in micro_batch._live if key[0] == runner.token]


def test_a_crashed_drain_reruns_identically(tmp_path):
    _, plain, windows, timers = _drained(str(tmp_path / "a"))
    _, rerun, windows2, timers2 = _drained(str(tmp_path / "b"), crash=True)
    assert [sorted(o.get(windows2, [])) for o in rerun] == \
        [sorted(o.get(windows, [])) for o in plain]
    assert [sorted(o.get(timers2, [])) for o in rerun] == \
        [sorted(o.get(timers, [])) for o in plain]
    assert any(v[0] == "timer" for v in plain[2][timers])


def test_after_a_drain_event_time_begins_anew_and_only_processing_time_timers_are_left(
        tmp_path):
    """What a job started from the drained savepoint (or run again on its checkpoints)
    does: a record of a window the drain fired is not late, its window fires again with it
    alone; the timers the drain fired are gone."""
    runner, _, windows, timers = _drained(str(tmp_path))
    job = runner.job
    state_ids = state_ids_of(op for s in job.stages for op in s.spec.operators)
    for stage in job.stages:
        for op in stage.spec.operators:
            for sub in range(stage.spec.parallelism):
                snap = runner.store.read_state(2, state_ids[op.node_id], sub) or {}
                assert snap.get("watermark", MIN_WATERMARK) == MIN_WATERMARK
                assert not (snap.get("timers") or {}).get("event")
                if "valve" in snap:
                    assert set(snap["valve"]["marks"].values()) <= {MIN_WATERMARK}
    later = StreamRunner(job, runner.store_root)
    out = later.run_batch(3, [(0, [("a", 12, 7), ("a", 31, 8)]), (1, [("c", 35, 9)])])
    assert sorted(out.get(windows, [])) == [("a", 12, 7)]
    assert not [v for v in out.get(timers, []) if v[0] == "timer"]


def test_forget_event_time_leaves_what_a_fresh_start_has_and_keeps_the_rest():
    snaps = {1: {"watermark": 40, "generator": {"max_timestamp": 41, "emitted": 40},
                 "valve": {"marks": {(3, 0): 40, (3, 1): MAX_WATERMARK},
                           "idle": {(3, 0): False, (3, 1): True}, "combined": 40},
                 "watermark_out": 40, "records_in": 5, "exits": [{"next": 1}]},
             2: {"watermark": MAX_WATERMARK, "keyed": {"data": {"n": 1}},
                 "timers": {"event": [], "processing": [(9, "k", None)],
                            "watermark": MAX_WATERMARK}}}
    assert forget_event_time(snaps) is snaps
    assert snaps == {
        1: {"watermark": MIN_WATERMARK,
            "valve": {"marks": {(3, 0): MIN_WATERMARK, (3, 1): MIN_WATERMARK},
                      "idle": {(3, 0): False, (3, 1): False}, "combined": MIN_WATERMARK},
            "watermark_out": None, "records_in": 5, "exits": [{"next": 1}]},
        2: {"watermark": MIN_WATERMARK, "keyed": {"data": {"n": 1}},
            "timers": {"event": [], "processing": [(9, "k", None)],
                       "watermark": MIN_WATERMARK}}}
