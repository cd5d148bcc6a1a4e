"""An unbounded Kafka job run as a real process, killed with SIGKILL after its micro-batch
wrote to Kafka but before the batch completed, then restarted from the same checkpoint
directory: with AT_LEAST_ONCE every input record reaches the output topic (the re-run batch
reads the offset ranges recorded for it, so nothing is skipped; duplicates are allowed)."""
import os
import signal
import time

from pyflink_on_spark.spark.streaming.tests.test_streaming_recovery import start_driver
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import (consume_all, new_topics,
                                                                    produce)

JOB = os.path.join(os.path.dirname(__file__), "jobs", "kafka_upper_job.py")


def _start(tmp, args, fault=None):
    return start_driver(tmp, JOB, args, fault)


def test_kill_9_after_the_kafka_write_and_restart_loses_nothing(kafka_broker, tmp_path):
    in_topic, out_topic = new_topics(kafka_broker, "upper-in", "upper-out")
    inputs = ["r%02d" % i for i in range(20)]
    produce(kafka_broker, in_topic, [v.encode() for v in inputs])
    trigger = tmp_path / "kill-now"
    trigger.write_text("")
    args = [kafka_broker, in_topic, out_topic, str(tmp_path / "ckpt")]
    crashed = _start(str(tmp_path), args, fault="before_commit:%s" % trigger)
    assert crashed.wait(timeout=900) == -signal.SIGKILL
    written = [v.decode() for _, v in consume_all(kafka_broker, out_topic, len(inputs))]
    assert sorted(written) == [v.upper() for v in inputs]   # the batch wrote, then died
    restarted = _start(str(tmp_path), args)
    try:
        deadline = time.time() + 900
        while time.time() < deadline:
            # the re-run batch writes its range again (at least once), then new ones follow
            produced = [v.decode() for _, v in consume_all(kafka_broker, out_topic,
                                                           2 * len(inputs))]
            if len(produced) >= 2 * len(inputs):
                break
        more = ["s%02d" % i for i in range(5)]
        produce(kafka_broker, in_topic, [v.encode() for v in more])
        while time.time() < deadline:
            produced = [v.decode() for _, v in consume_all(kafka_broker, out_topic,
                                                           2 * len(inputs) + len(more))]
            if set(v.upper() for v in inputs + more) <= set(produced):
                break
    finally:
        restarted.send_signal(signal.SIGTERM)
        restarted.wait(timeout=300)
    assert set(produced) == set(v.upper() for v in inputs + more)
    assert sorted(produced).count("R00") == 2   # the killed batch ran again: at least once
