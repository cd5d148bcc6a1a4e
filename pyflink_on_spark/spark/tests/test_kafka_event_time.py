"""Kafka record timestamps as event time, against a real broker (the kafka_broker fixture):
a bounded KafkaSource without a timestamp assigner feeds event-time windows, and each record's
ctx.timestamp() is its Kafka timestamp, as on real PyFlink 1.20."""
import sys
from pathlib import Path

import cloudpickle

from pyflink_on_spark.common import WatermarkStrategy
from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.compat.cases import Case
from pyflink_on_spark.compat.report import detail_lines
from pyflink_on_spark.compat.shim import run_shim
from pyflink_on_spark.datastream import ProcessFunction, StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import new_topics, produce

cloudpickle.register_pickle_by_value(sys.modules[__name__])

DATA = Path(__file__).parent / "data"
# (partition, value "key,n", Kafka timestamp): each partition in time order, the two
# partitions interleaved in time
RECORDS = [(0, "a,1", 1000), (0, "a,2", 2500), (0, "b,3", 3000), (0, "a,4", 7000),
           (1, "b,5", 500), (1, "a,6", 1500), (1, "b,7", 4100), (1, "b,8", 4200)]


def _produce_records(servers: str) -> str:
    # timestamps of 1970: the topic keeps them (no time-based retention)
    (topic,) = new_topics(servers, "event-time", partitions=2, keep_forever=True)
    produce(servers, topic, [v.encode() for _, v, _ in RECORDS],
            partitions=[p for p, _, _ in RECORDS], timestamps=[t for _, _, t in RECORDS])
    return topic


def test_kafka_timestamps_drive_event_time_windows_without_an_assigner(
        spark, kafka_broker, monkeypatch):
    monkeypatch.setenv("PYFLINK_ON_SPARK_TEST_KAFKA_SERVERS", kafka_broker)
    monkeypatch.setenv("PYFLINK_ON_SPARK_TEST_KAFKA_TOPIC", _produce_records(kafka_broker))
    monkeypatch.delenv("FLINK_KAFKA_JAR", raising=False)
    program = DATA / "kafka_event_time_windows.py"
    result = run_shim(Case("kafka_event_time_windows", program,
                           program.with_suffix(".expected")))
    assert result.passed, "\n".join(detail_lines(result))


class StampOf(ProcessFunction):
    def process_element(self, value, ctx):
        yield value, ctx.timestamp()


def test_each_record_carries_its_kafka_timestamp_even_without_watermarks(spark, kafka_broker):
    # observed on PyFlink 1.20.5: with no_watermarks() and no assigner, ctx.timestamp() is
    # still the record's Kafka timestamp
    topic = _produce_records(kafka_broker)
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    source = KafkaSource.builder().set_bootstrap_servers(kafka_broker).set_topics(topic) \
        .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_bounded(KafkaOffsetsInitializer.latest()) \
        .set_value_only_deserializer(SimpleStringSchema()).build()
    stamped = env.from_source(source, WatermarkStrategy.no_watermarks(), "kafka") \
        .process(StampOf(), Types.TUPLE([Types.STRING(), Types.LONG()]))
    assert sorted(stamped.execute_and_collect()) == sorted((v, t) for _, v, t in RECORDS)
