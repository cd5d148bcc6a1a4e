"""KafkaSource starting and stopping offsets (issue 43): a bounded job writes r0..r5 with
timestamps BASE + 0..5 s (BASE: a minute ago, so the broker's retention keeps them) to a
fresh one-partition topic through KafkaSink; bounded sources then
read it with each offsets initializer as starting and as stopping offsets (topics by list, by
pattern, by partitions), including the combinations PyFlink refuses (printed as the key
phrase of its error), and collect with a limit over an unbounded source.

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (set by
the tests' `kafka_broker` fixture). Real PyFlink 1.20 needs flink-sql-connector-kafka
3.2.0-1.19 from the local Maven repository (see string_word_count.py). Committed offsets of a
group with commits need a Kafka client to commit them (spark/tests/
test_kafka_offsets_initializers.py); here only groups without commits.
"""
import os
import time
import uuid

from pyflink.common import Configuration, Duration, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetResetStrategy,
                                                 KafkaOffsetsInitializer as O,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource, KafkaTopicPartition)

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
SUFFIX = uuid.uuid4().hex
TOPIC = "compat-offsets-" + SUFFIX
TP0 = KafkaTopicPartition(TOPIC, 0)
BASE = (int(time.time()) - 60) * 1000

# the Kafka admin client's close after a job can log the closed user-code classloader's
# error to stdout on PyFlink (a race); without the check there is nothing to log
config = Configuration()
config.set_string("classloader.check-leaked-classloader", "false")
env = StreamExecutionEnvironment.get_execution_environment(config)
if os.path.exists(JAR):  # PyFlink needs the connector; the shim uses Spark's own
    env.add_jars("file://" + JAR)
env.set_parallelism(1)


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return BASE + 1000 * int(value[1:])


env.from_collection(["r%d" % i for i in range(6)], type_info=Types.STRING()) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(0))
        .with_timestamp_assigner(Stamp())) \
    .sink_to(KafkaSink.builder()
             .set_bootstrap_servers(BOOTSTRAP)
             .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                    .set_topic(TOPIC)
                                    .set_value_serialization_schema(SimpleStringSchema())
                                    .build())
             .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
             .build())
env.execute("write")

PHRASES = ["Property group.id is required when using committed offset for offsets initializer",
           "Illegal stopping offset -2 is specified for partition %s-0" % TOPIC,
           "Undefined offset with no reset policy for partitions: [%s-0]" % TOPIC,
           "Partition %s-0 should stop at committed offset" % TOPIC]


def source(start, stop=None, bounded=True, group="compat-offsets", pattern=False,
           partitions=False):
    builder = KafkaSource.builder().set_bootstrap_servers(BOOTSTRAP) \
        .set_value_only_deserializer(SimpleStringSchema()).set_starting_offsets(start)
    if group:
        builder.set_group_id(group)
    if pattern:
        builder.set_topic_pattern(TOPIC)
    elif partitions:
        builder.set_partitions({TP0})
    else:
        builder.set_topics(TOPIC)
    if stop is not None:
        (builder.set_bounded if bounded else builder.set_unbounded)(stop)
    return builder.build()


def read(name, make, limit=None):
    try:
        stream = env.from_source(make(), WatermarkStrategy.no_watermarks(), name)
        records = stream.execute_and_collect(limit=limit) if limit is not None \
            else list(stream.execute_and_collect())
        print(name, records)
    except Exception as e:
        text = str(e)
        found = [p for p in PHRASES if p in text]
        print(name, "refused:", found[0].replace(TOPIC, "<topic>") if found
              else "another error")


read("earliest->latest", lambda: source(O.earliest(), O.latest()))
read("offsets(2)->offsets(4)", lambda: source(O.offsets({TP0: 2}), O.offsets({TP0: 4})))
read("timestamp(r3)->latest", lambda: source(O.timestamp(BASE + 3000), O.latest()))
read("earliest->timestamp(r2)", lambda: source(O.earliest(), O.timestamp(BASE + 2000)))
read("timestamp(after r5)->latest", lambda: source(O.timestamp(BASE + 9000), O.latest()))
read("latest->latest", lambda: source(O.latest(), O.latest()))
read("partitions offsets(4)->latest",
     lambda: source(O.offsets({TP0: 4}), O.latest(), partitions=True))
read("pattern earliest->offsets(1)", lambda: source(O.earliest(), O.offsets({TP0: 1}),
                                                    pattern=True))
read("offsets(4)->offsets(2)", lambda: source(O.offsets({TP0: 4}), O.offsets({TP0: 2})))
read("earliest->earliest", lambda: source(O.earliest(), O.earliest()))
read("committed without group id",
     lambda: source(O.committed_offsets(), O.latest(), group=None))
read("committed(EARLIEST) of a new group->latest",
     lambda: source(O.committed_offsets(KafkaOffsetResetStrategy.EARLIEST), O.latest(),
                    group="new-a-" + SUFFIX))
read("committed(LATEST) of a new group->latest",
     lambda: source(O.committed_offsets(KafkaOffsetResetStrategy.LATEST), O.latest(),
                    group="new-b-" + SUFFIX))
read("committed(NONE) of a new group->latest",
     lambda: source(O.committed_offsets(), O.latest(), group="new-c-" + SUFFIX))
read("earliest->committed of a new group",
     lambda: source(O.earliest(), O.committed_offsets(), group="new-d-" + SUFFIX))
read("unbounded earliest, limit 6", lambda: source(O.earliest()), limit=6)
read("unbounded earliest->latest, limit 6",
     lambda: source(O.earliest(), O.latest(), bounded=False), limit=6)
read("unbounded offsets(3), limit 2", lambda: source(O.offsets({TP0: 3})), limit=2)
iterator = env.from_source(source(O.earliest()), WatermarkStrategy.no_watermarks(),
                           "closed").execute_and_collect()
print("iterator closed early", [next(iterator), next(iterator)])
iterator.close()
