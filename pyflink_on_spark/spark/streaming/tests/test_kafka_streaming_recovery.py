"""An unbounded Kafka job run as a real process, killed with SIGKILL after its micro-batch
wrote to Kafka but before the batch completed, then restarted from the same checkpoint
directory: with AT_LEAST_ONCE every input record reaches the output topic (the re-run batch
reads the offset ranges recorded for it, so nothing is skipped; duplicates are allowed).
The restarted driver is started ahead as a standby (faults.py) and runs once the killed one
is gone."""
import os
import signal

from pyflink_on_spark.spark.streaming.tests.test_kafka_exactly_once_recovery import read_topic
from pyflink_on_spark.spark.streaming.tests.test_streaming_recovery import (end_all, release,
                                                                            start_driver)
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import new_topics, produce

JOB = os.path.join(os.path.dirname(__file__), "jobs", "kafka_upper_job.py")


def _start(tmp, args, fault=None, standby=False):
    return start_driver(tmp, JOB, args, fault, standby=standby)


def test_kill_9_after_the_kafka_write_and_restart_loses_nothing(kafka_broker, tmp_path):
    in_topic, out_topic = new_topics(kafka_broker, "upper-in", "upper-out")
    inputs = ["r%02d" % i for i in range(20)]
    produce(kafka_broker, in_topic, [v.encode() for v in inputs])
    trigger = tmp_path / "kill-now"
    trigger.write_text("")
    args = [kafka_broker, in_topic, out_topic, str(tmp_path / "ckpt")]
    crashed = _start(str(tmp_path), args, fault="before_commit:%s" % trigger)
    restarted = _start(str(tmp_path), args, standby=True)
    try:
        assert crashed.wait(timeout=900) == -signal.SIGKILL
        written = read_topic(kafka_broker, out_topic)
        assert sorted(written) == [v.upper() for v in inputs]   # the batch wrote, then died
        release(restarted, gone=crashed)
        # the re-run batch writes its range again (at least once), then new ones follow
        read_topic(kafka_broker, out_topic, until=lambda values: len(values) >= 2 * len(inputs),
                   timeout=900)
        more = ["s%02d" % i for i in range(5)]
        produce(kafka_broker, in_topic, [v.encode() for v in more])
        wanted = set(v.upper() for v in inputs + more)
        read_topic(kafka_broker, out_topic, until=lambda values: wanted <= set(values),
                   timeout=900)
        restarted.send_signal(signal.SIGTERM)
        restarted.wait(timeout=300)
    finally:
        end_all(crashed, restarted)
    produced = read_topic(kafka_broker, out_topic)   # all of it: the job stopped
    assert set(produced) == wanted
    assert sorted(produced).count("R00") == 2   # the killed batch ran again: at least once
