"""An unbounded RMQSource job (correlation ids, a FileSink) run as a real process, its driver
killed with SIGKILL after a micro-batch completed (state and FileSink parts committed) and
before its messages were acknowledged, then restarted from the same checkpoint directory:
RabbitMQ delivers those messages again, and the restarted source drops them by their
correlation ids. Every message is in the output exactly once; none is left in the queue.
The restarted driver is started ahead as a standby (faults.py) and runs once the killed one
is gone."""
import glob
import os
import signal
import time
import uuid

from pyflink_on_spark.spark.streaming.tests.test_streaming_recovery import (end_all, release,
                                                                            start_driver)
from pyflink_on_spark.tests.rabbitmq_server import message_count, publish

JOB = os.path.join(os.path.dirname(__file__), "jobs", "rabbitmq_upper_job.py")


def _output(out_dir):
    lines = []
    for path in glob.glob(os.path.join(out_dir, "**", "part-*"), recursive=True):
        with open(path) as f:
            lines.extend(f.read().splitlines())
    return sorted(lines)


def _wait_for(predicate, timeout=600):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("timed out")


def test_kill_9_before_the_acks_and_restart_gives_every_message_once(rabbitmq, tmp_path):
    queue = "upper-" + uuid.uuid4().hex[:8]
    first = ["m%02d" % i for i in range(20)]
    publish(rabbitmq, queue, [m.encode() for m in first], correlation_ids=first)
    trigger = tmp_path / "kill-now"
    trigger.write_text("")
    out_dir = str(tmp_path / "out")
    args = [rabbitmq, queue, out_dir, str(tmp_path / "ckpt")]
    crashed = start_driver(str(tmp_path), JOB, args, "after_complete:%s" % trigger)
    restarted = start_driver(str(tmp_path), JOB, args, standby=True)
    try:
        assert crashed.wait(timeout=900) == -signal.SIGKILL
        assert _output(out_dir) == [m.upper() for m in first]   # the batch completed, died
        # not acknowledged: the broker holds every message again
        _wait_for(lambda: message_count(rabbitmq, queue) == len(first), timeout=60)
        release(restarted, gone=crashed)
        more = ["n%02d" % i for i in range(5)]
        publish(rabbitmq, queue, [m.encode() for m in more], correlation_ids=more)
        expected = sorted(m.upper() for m in first + more)
        _wait_for(lambda: _output(out_dir) == expected or len(_output(out_dir)) > len(expected))
        _wait_for(lambda: message_count(rabbitmq, queue) == 0, timeout=60)
        # stopped (between batches): every batch that read a message completed and
        # acknowledged it, so the output below is all the job will ever write (a message
        # left unacknowledged would be back in the queue)
        restarted.send_signal(signal.SIGTERM)
        restarted.wait(timeout=300)
    finally:
        end_all(crashed, restarted)
    assert _output(out_dir) == expected                       # nothing lost, nothing twice
    assert message_count(rabbitmq, queue) == 0                # every message acknowledged
