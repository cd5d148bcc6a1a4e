"""HybridSource: a file backlog, then Kafka (an unbounded KafkaSource from earliest()): the
common "backfill, then carry on" job. A first job writes the live records to a fresh topic
(KafkaSink); the hybrid job reads the file's lines, switches to the topic when the file is
read, and counts the records of 1 s event-time tumbling windows (the time is in each record,
taken by assign_timestamps_and_watermarks). The watermark carries over the switch: the topic's first record belongs to a window the
file's records already closed, and is dropped as late; the job ends after 4 windows
(execute_and_collect(limit=4) cancels it).

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (set by
the tests' `kafka_broker` fixture). Real PyFlink 1.20 needs flink-sql-connector-kafka
3.2.0-1.19 from the local Maven repository:
  mvn dependency:get -Dartifact=org.apache.flink:flink-sql-connector-kafka:3.2.0-1.19
"""
import os
import shutil
import tempfile
import uuid

from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.datastream.connectors.hybrid_source import HybridSource
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)
from pyflink.datastream.functions import ProcessWindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
TOPIC = "compat-hybrid-" + uuid.uuid4().hex

env = StreamExecutionEnvironment.get_execution_environment()
if os.path.exists(JAR):  # PyFlink needs the connector; the shim uses Spark's own
    env.add_jars("file://" + JAR)
env.set_parallelism(1)

live = ["k-late,1500", "k-a,3200", "k-b,3900", "k-c,5100", "k-d,9000"]
env.from_collection(live, type_info=Types.STRING()).sink_to(
    KafkaSink.builder()
    .set_bootstrap_servers(BOOTSTRAP)
    .set_record_serializer(KafkaRecordSerializationSchema.builder()
                           .set_topic(TOPIC)
                           .set_value_serialization_schema(SimpleStringSchema())
                           .build())
    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
    .build())
env.execute("write the live records")

backlog = tempfile.mkdtemp(prefix="hybrid-backlog-")
with open(os.path.join(backlog, "backlog.txt"), "w") as f:
    f.write("f-a,1000\nf-b,1400\nf-c,2100\nf-d,2999\n")

files = FileSource.for_record_stream_format(StreamFormat.text_line_format(), backlog).build()
kafka = KafkaSource.builder() \
    .set_bootstrap_servers(BOOTSTRAP) \
    .set_topics(TOPIC) \
    .set_group_id("compat-hybrid") \
    .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
    .set_value_only_deserializer(SimpleStringSchema()) \
    .build()
hybrid = HybridSource.builder(files).add_source(kafka).build()


class EventTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value.split(",")[1])


class Names(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield "[%d, %d) %s" % (context.window().start, context.window().end,
                               " ".join(e.split(",")[0] for e in elements))


strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(0)) \
    .with_timestamp_assigner(EventTime())
windows = env.from_source(hybrid, WatermarkStrategy.no_watermarks(), "backlog then live",
                          Types.STRING()) \
    .assign_timestamps_and_watermarks(strategy) \
    .key_by(lambda line: "all", key_type=Types.STRING()) \
    .window(TumblingEventTimeWindows.of(Time.seconds(1))) \
    .process(Names(), Types.STRING())
for line in windows.execute_and_collect(limit=4):
    print(line)
shutil.rmtree(backlog)
