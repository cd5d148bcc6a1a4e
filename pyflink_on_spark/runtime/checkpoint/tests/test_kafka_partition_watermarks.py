"""Per-partition watermarks of an unbounded Kafka source across micro-batches, without Spark
(the stream harness feeds the split rows spark/kafka.py makes): an assigned partition without
records holds event time back; with_idleness lets it go after the timeout of batch time."""
from pyflink_on_spark.common import WatermarkStrategy
from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.time import Duration, Time
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource
from pyflink_on_spark.datastream.window import TumblingEventTimeWindows
from pyflink_on_spark.graph.transformations import SinkTransformation
from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner
from pyflink_on_spark.specs.sinks import CollectSinkSpec
from pyflink_on_spark.specs.sources import SplitRecords, SplitStarted

A, B = ("t", 0), ("t", 1)


def _job(strategy):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    source = KafkaSource.builder().set_bootstrap_servers("unused:9092").set_topics("t") \
        .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_value_only_deserializer(SimpleStringSchema()).build()
    windows = env.from_source(source, strategy, "kafka") \
        .key_by(lambda v: v) \
        .window(TumblingEventTimeWindows.of(Time.seconds(2))) \
        .reduce(lambda a, b: a + b)
    sink = SinkTransformation(name="Collect", input=windows._transformation,
                              spec=CollectSinkSpec())
    return env._compile([sink]), sink.id


def _run(strategy, tmp_path):
    job, sink = _job(strategy)
    runner = StreamRunner(job, str(tmp_path))
    out = []
    # batch 0: both partitions assigned, only A has records; then A alone, batch time going on
    batches = [(0, [SplitStarted(A), SplitStarted(B), SplitRecords(A, ["a"], [1000])]),
               (50, [SplitStarted(A), SplitStarted(B), SplitRecords(A, ["a"], [3000])]),
               (200, [SplitStarted(A), SplitStarted(B), SplitRecords(A, ["a"], [5000])])]
    for batch_id, (now, events) in enumerate(batches):
        results = runner.run_batch(batch_id, [(0, e) for e in events], batch_time_ms=now)
        out.append(sorted(results.get(sink, [])))
    return out


def test_an_empty_partition_holds_back_the_watermark_of_an_unbounded_source(tmp_path):
    assert _run(WatermarkStrategy.for_monotonous_timestamps(), tmp_path) == [[], [], []]


def test_with_idleness_an_empty_partition_lets_the_windows_fire(tmp_path):
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_idleness(
        Duration.of_millis(100))
    # batch 1: B quiet for 50 ms, not idle yet; batch 2: idle, A's watermark 4999 fires two
    assert _run(strategy, tmp_path) == [[], [], ["a", "a"]]
