"""An unbounded Kafka -> keyed running count -> KafkaSink EXACTLY_ONCE job run as a real
process, killed with SIGKILL after its micro-batch committed its Kafka transactions but
before the batch completed (state version, Spark's commit log), then restarted from the same
checkpoint directory: the re-run batch finds its transactions committed and writes nothing,
so a read_committed consumer sees every running count exactly once (AT_LEAST_ONCE, in
test_kafka_streaming_recovery.py, writes the killed batch twice)."""
import os
import signal
import time
from collections import Counter

from pyflink_on_spark.spark.streaming.tests.test_streaming_recovery import start_driver
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import (consume_all, new_topics,
                                                                    produce)

JOB = os.path.join(os.path.dirname(__file__), "jobs", "kafka_exactly_once_job.py")


def _expected(inputs):
    """key:n for the n-th record of each key (the job's running count)."""
    seen, out = Counter(), []
    for value in inputs:
        seen[value[0]] += 1
        out.append("%s:%d" % (value[0], seen[value[0]]))
    return sorted(out)


def test_kill_9_after_the_kafka_commit_and_restart_writes_each_record_once(kafka_broker,
                                                                          tmp_path):
    in_topic, out_topic = new_topics(kafka_broker, "count-in", "count-out")
    inputs = ["%s%02d" % ("abc"[i % 3], i) for i in range(20)]
    produce(kafka_broker, in_topic, [v.encode() for v in inputs])
    trigger = tmp_path / "kill-now"
    trigger.write_text("")
    args = [kafka_broker, in_topic, out_topic, str(tmp_path / "ckpt")]
    crashed = start_driver(str(tmp_path), JOB, args, "before_commit:%s" % trigger)
    assert crashed.wait(timeout=600) == -signal.SIGKILL
    written = [v.decode() for _, v in consume_all(kafka_broker, out_topic, len(inputs))]
    assert sorted(written) == _expected(inputs)   # the tasks committed, then the driver died
    restarted = start_driver(str(tmp_path), JOB, args)
    more = ["%s%02d" % ("abcd"[i % 4], 20 + i) for i in range(8)]
    try:
        produce(kafka_broker, in_topic, [v.encode() for v in more])
        deadline = time.time() + 600
        produced = []
        while time.time() < deadline and len(produced) < len(inputs) + len(more):
            produced = [v.decode() for _, v in consume_all(kafka_broker, out_topic,
                                                           len(inputs) + len(more))]
    finally:
        restarted.send_signal(signal.SIGTERM)
        assert restarted.wait(timeout=300) == 128 + signal.SIGTERM
    # the re-run batch wrote nothing again; the new records continue the restored counts
    assert sorted(produced) == _expected(inputs + more)
    uncommitted = [v.decode() for _, v in consume_all(kafka_broker, out_topic, len(produced),
                                                      committed_only=False)]
    assert sorted(uncommitted) == sorted(produced)   # no aborted duplicate either
