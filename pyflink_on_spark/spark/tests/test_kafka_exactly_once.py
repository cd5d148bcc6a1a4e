"""Bounded jobs writing to a real broker with KafkaSink EXACTLY_ONCE: each sink subtask
produces into its own Kafka transaction (transactional.id <prefix>-<subtask>), committed at
the end of input; a failed job commits nothing. The unbounded case (one transaction per
micro-batch, kill -9 and restart) is spark/streaming/tests/test_kafka_exactly_once_recovery.py."""
import sys
from collections import defaultdict

import cloudpickle
import pytest

from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.base import DeliveryGuarantee
from pyflink_on_spark.datastream.connectors.kafka import (KafkaRecordSerializationSchema,
                                                          KafkaSink)
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import consume_all, new_topics

# the job's functions are defined here: ship them by value to Spark's workers
cloudpickle.register_pickle_by_value(sys.modules[__name__])

PAIRS = [("k%d" % (i % 3), i) for i in range(30)]


def _running_sums(pairs):
    totals, out = defaultdict(int), []
    for key, value in pairs:
        totals[key] += value
        out.append("%s=%d" % (key, totals[key]))
    return out


def _run(servers, topic_of, prefix, fail_on=None, timeout_ms="60000", parallelism=2):
    def render(pair):
        text = "%s=%d" % pair
        if text == fail_on:
            raise ValueError("bad record %r" % (pair,))
        return text

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    builder = KafkaSink.builder().set_bootstrap_servers(servers) \
        .set_record_serializer(KafkaRecordSerializationSchema.builder()
                               .set_topic_selector(lambda v: topic_of[v.split("=")[0]])
                               .set_value_serialization_schema(SimpleStringSchema()).build()) \
        .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE) \
        .set_transactional_id_prefix(prefix)
    if timeout_ms is not None:
        builder = builder.set_property("transaction.timeout.ms", timeout_ms)
    env.from_collection(PAIRS, type_info=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda p: p[0], key_type=Types.STRING()) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])) \
        .map(render, output_type=Types.STRING()) \
        .sink_to(builder.build())
    env.execute("kafka exactly once")


def test_a_bounded_job_commits_every_record_once_to_the_topics_it_selects(spark, kafka_broker):
    low, high = new_topics(kafka_broker, "eos-low", "eos-high")
    topic_of = {"k0": low, "k1": low, "k2": high}
    _run(kafka_broker, topic_of, "eos-bounded-" + low)
    expected = _running_sums(PAIRS)
    for topic in (low, high):
        wanted = sorted(v for v in expected if topic_of[v.split("=")[0]] == topic)
        got = sorted(v.decode() for _, v in consume_all(kafka_broker, topic, len(wanted)))
        assert got == wanted


def test_a_failed_subtask_commits_nothing_and_a_rerun_writes_everything_once(spark,
                                                                             kafka_broker):
    topic, = new_topics(kafka_broker, "eos-failed")
    topic_of = {"k0": topic, "k1": topic, "k2": topic}
    prefix = "eos-failed-" + topic
    with pytest.raises(Exception, match="bad record"):
        # the last record fails, after the others were produced into the transaction (one
        # subtask: with more, the subtasks that ended before the failure have committed,
        # see docs/connectors.md)
        _run(kafka_broker, topic_of, prefix, fail_on=_running_sums(PAIRS)[-1], parallelism=1)
    assert consume_all(kafka_broker, topic, 0) == []   # its transaction was aborted
    _run(kafka_broker, topic_of, prefix, parallelism=1)   # same transactional id
    got = sorted(v.decode() for _, v in consume_all(kafka_broker, topic, len(PAIRS)))
    assert got == sorted(_running_sums(PAIRS))


def test_flinks_one_hour_transaction_timeout_above_the_brokers_limit_is_explained(
        spark, kafka_broker):
    topic, = new_topics(kafka_broker, "eos-timeout")
    with pytest.raises(Exception, match="transaction.max.timeout.ms"):
        _run(kafka_broker, {"k0": topic, "k1": topic, "k2": topic}, "eos-timeout-" + topic,
             timeout_ms=None)
