"""Kafka jobs on a Spark whose executors have nothing of ours (issue 38): a client process
runs a bounded job reading a topic with KafkaSource (Spark's Kafka reader, its package
reaching the executors through spark.jars.packages), a keyed reduce, and writing with
KafkaSink AT_LEAST_ONCE and EXACTLY_ONCE (confluent-kafka in the sink's tasks, shipped as an
archive: spark/package_shipping.py). Both topics get every key's running sums exactly once.
(The same job on local[2] is tested by test_kafka_exactly_once.py and the kafka compat cases.)"""
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import (consume_all, new_topics,
                                                                   produce)

KAFKA_JOB = '''
import sys
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)

servers, source_topic, plain_topic, exact_topic, prefix = sys.argv[1:6]


def sink(topic, guarantee):
    builder = KafkaSink.builder().set_bootstrap_servers(servers) \\
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                               .set_value_serialization_schema(SimpleStringSchema()).build()) \\
        .set_delivery_guarantee(guarantee)
    if guarantee == DeliveryGuarantee.EXACTLY_ONCE:
        builder = builder.set_transactional_id_prefix(prefix) \\
            .set_property("transaction.timeout.ms", "60000")
    return builder.build()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = KafkaSource.builder().set_bootstrap_servers(servers).set_topics(source_topic) \\
    .set_group_id("cluster-job") \\
    .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \\
    .set_bounded(KafkaOffsetsInitializer.latest()) \\
    .set_value_only_deserializer(SimpleStringSchema()).build()
sums = env.from_source(source, WatermarkStrategy.no_watermarks(), "words") \\
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1])),
         output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \\
    .key_by(lambda pair: pair[0], key_type=Types.STRING()) \\
    .reduce(lambda a, b: (a[0], a[1] + b[1])) \\
    .map(lambda pair: "%s=%d" % pair, output_type=Types.STRING())
sums.sink_to(sink(plain_topic, DeliveryGuarantee.AT_LEAST_ONCE))
sums.sink_to(sink(exact_topic, DeliveryGuarantee.EXACTLY_ONCE))
env.execute("kafka on a cluster")
'''

# (key, value) records, each key's in one partition (keyed), so each key's running sums
# come in one order wherever the job runs
RECORDS = [("k%d" % (i % 4), i) for i in range(40)]


def prepare_kafka_job(servers: str, tmp_path):
    """The Kafka job's topics (its input produced) and its script; (script, its arguments,
    topics). Run in one client application with the JDBC cluster test's job and the compat
    cases on the cluster (client_jobs_on_the_cluster in conftest.py: each application costs
    its executors')."""
    source, plain, exact = new_topics(servers, "cluster-in", "cluster-plain", "cluster-exact")
    produce(servers, source, ["%s,%d" % r for r in RECORDS],
            keys=[k.encode() for k, _ in RECORDS])
    script = tmp_path / "kafka_job.py"
    script.write_text(KAFKA_JOB)
    args = [servers, source, plain, exact, "cluster-job-%s" % plain]
    return str(script), args, (source, plain, exact)


def test_a_kafka_job_on_a_cluster_without_confluent_kafka_writes_what_it_writes_locally(
        client_jobs_on_the_cluster, standalone_cluster, kafka_broker):
    run = client_jobs_on_the_cluster
    assert run.code == 0, run.err[-5000:] + standalone_cluster.executor_log_tails()
    assert run.finished("kafka"), run.out[-3000:] + run.err[-5000:]
    _, plain, exact = run.kafka_topics
    # every key's running sums (a key's records are read in the order they were produced)
    totals, expected = {}, []
    for key, value in RECORDS:
        totals[key] = totals.get(key, 0) + value
        expected.append(b"%s=%d" % (key.encode(), totals[key]))
    expected.sort()
    assert sorted(v for _, v in consume_all(kafka_broker, plain, len(RECORDS))) == expected
    assert sorted(v for _, v in consume_all(kafka_broker, exact, len(RECORDS))) == expected
