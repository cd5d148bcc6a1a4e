"""An unbounded Kafka -> keyed running count -> KafkaSink EXACTLY_ONCE job run as a real
process, killed with SIGKILL after its micro-batch committed its Kafka transactions but
before the batch completed (state version, Spark's commit log), then restarted from the same
checkpoint directory: the re-run batch finds its transactions committed and writes nothing,
so a read_committed consumer sees every running count exactly once (AT_LEAST_ONCE, in
test_kafka_streaming_recovery.py, writes the killed batch twice). The restarted driver is
started ahead as a standby (faults.py) and runs once the killed one is gone."""
import os
import signal
import time
from collections import Counter

from confluent_kafka import Consumer, KafkaError, TopicPartition

from pyflink_on_spark.spark.streaming.tests.test_streaming_recovery import (end_all, release,
                                                                            start_driver)
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import new_topics, produce

JOB = os.path.join(os.path.dirname(__file__), "jobs", "kafka_exactly_once_job.py")


def _expected(inputs):
    """key:n for the n-th record of each key (the job's running count)."""
    seen, out = Counter(), []
    for value in inputs:
        seen[value[0]] += 1
        out.append("%s:%d" % (value[0], seen[value[0]]))
    return sorted(out)


def read_topic(servers: str, topic: str, committed_only: bool = True, until=None,
               timeout: float = 600) -> list:
    """The values of `topic` from its start, decoded: up to the end of every partition when
    `until` is None (its writers are gone, so that is all of it and nothing can follow), else
    as soon as until(values) holds, while a job still writes. After `timeout` seconds, what
    was read (the caller's assertion then shows what is missing). No consumer group: the
    partitions are assigned, so nothing waits for a group to form or for quiet polls."""
    consumer = Consumer({"bootstrap.servers": servers, "group.id": "unused",
                         "enable.auto.commit": False, "enable.partition.eof": True,
                         "isolation.level": "read_committed" if committed_only
                         else "read_uncommitted"})
    partitions = consumer.list_topics(topic, timeout=30).topics[topic].partitions
    consumer.assign([TopicPartition(topic, p, -2) for p in partitions])   # -2: beginning
    values, at_end, deadline = [], set(), time.time() + timeout
    try:
        while time.time() < deadline:
            if until(values) if until is not None else len(at_end) == len(partitions):
                break
            message = consumer.poll(0.2)
            if message is None:
                continue
            if message.error() is not None:
                assert message.error().code() == KafkaError._PARTITION_EOF, message.error()
                at_end.add(message.partition())
                continue
            at_end.discard(message.partition())
            values.append(message.value().decode())
    finally:
        consumer.close()
    return values


def test_kill_9_after_the_kafka_commit_and_restart_writes_each_record_once(kafka_broker,
                                                                          tmp_path):
    in_topic, out_topic = new_topics(kafka_broker, "count-in", "count-out")
    inputs = ["%s%02d" % ("abc"[i % 3], i) for i in range(20)]
    produce(kafka_broker, in_topic, [v.encode() for v in inputs])
    trigger = tmp_path / "kill-now"
    trigger.write_text("")
    args = [kafka_broker, in_topic, out_topic, str(tmp_path / "ckpt")]
    crashed = start_driver(str(tmp_path), JOB, args, "before_commit:%s" % trigger)
    restarted = start_driver(str(tmp_path), JOB, args, standby=True)
    try:
        assert crashed.wait(timeout=600) == -signal.SIGKILL
        written = read_topic(kafka_broker, out_topic)
        assert sorted(written) == _expected(inputs)   # the tasks committed, then it died
        release(restarted, gone=crashed)
        more = ["%s%02d" % ("abcd"[i % 4], 20 + i) for i in range(8)]
        produce(kafka_broker, in_topic, [v.encode() for v in more])
        read_topic(kafka_broker, out_topic,
                   until=lambda values: len(values) >= len(inputs) + len(more))
        restarted.send_signal(signal.SIGTERM)
        assert restarted.wait(timeout=300) == 128 + signal.SIGTERM
    finally:
        end_all(crashed, restarted)
    # read once the job stopped: every record it ever committed, and nothing can follow.
    # The re-run batch wrote nothing again; the new records continue the restored counts
    produced = read_topic(kafka_broker, out_topic)
    assert sorted(produced) == _expected(inputs + more)
    uncommitted = read_topic(kafka_broker, out_topic, committed_only=False)
    assert sorted(uncommitted) == sorted(produced)   # no aborted duplicate either
