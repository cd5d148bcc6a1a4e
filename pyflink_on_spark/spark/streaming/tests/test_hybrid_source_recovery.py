"""A HybridSource job (a directory of files, then an unbounded Kafka topic) -> keyed running
count -> KafkaSink EXACTLY_ONCE, run as a real process and killed with SIGKILL in the batch
that switches to Kafka, after its tasks committed their Kafka transactions and before the
batch completed; then restarted from the same checkpoint directory. The output holds every
file record, then every topic record, each exactly once: the files are not read again after
the restart, and the Kafka records of the switch batch are neither skipped nor written twice.
The restarted driver is started ahead as a standby (faults.py) and runs once the killed one
is gone.
"""
import glob
import json
import os
import signal
import threading
import time
from collections import Counter

from pyflink_on_spark.spark.streaming.tests.test_kafka_exactly_once_recovery import read_topic
from pyflink_on_spark.spark.streaming.tests.test_streaming_recovery import (end_all, release,
                                                                            start_driver)
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import new_topics, produce

JOB = os.path.join(os.path.dirname(__file__), "jobs", "hybrid_exactly_once_job.py")


def _expected(inputs):
    """value:n, n the value's rank among the values of its key (the first character)."""
    seen, out = Counter(), []
    for value in inputs:
        seen[value[0]] += 1
        out.append("%s:%d" % (value, seen[value[0]]))
    return sorted(out)


def _arm_at_switch(ckpt: str, trigger: str, stop: threading.Event) -> threading.Thread:
    """Creates the kill trigger as soon as the Kafka source's first plan is recorded (the
    switch batch's plan, written before the batch runs): the fault point before_commit of
    that batch then kills the driver."""
    def watch():
        while not stop.is_set():
            if glob.glob(os.path.join(ckpt, "state", "sources", "*", "tail", "*")):
                open(trigger, "w").close()
                return
            time.sleep(0.02)
    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def test_kill_9_at_the_switch_to_kafka_and_restart_writes_each_record_once(kafka_broker,
                                                                           tmp_path):
    in_topic, out_topic = new_topics(kafka_broker, "hybrid-in", "hybrid-out")
    files = tmp_path / "backlog"
    files.mkdir()
    # file i is read by subtask i % 2, topic partition i by one subtask each: every key's
    # records come from one source subtask per source, so its counts follow source order
    backlog = [["a%02d" % i if i % 2 else "c%02d" % i for i in range(6)],
               ["b%02d" % i if i % 2 else "d%02d" % i for i in range(6, 12)]]
    for n, lines in enumerate(backlog):
        (files / ("part-%d.txt" % n)).write_text("".join(v + "\n" for v in lines))
    live = ["%s%02d" % ("abcd"[i % 4], 20 + i) for i in range(12)]
    produce(kafka_broker, in_topic, [v.encode() for v in live],
            partitions=[0 if v[0] in "ac" else 1 for v in live])
    ckpt = str(tmp_path / "ckpt")
    trigger = str(tmp_path / "kill-now")
    args = [kafka_broker, str(files), in_topic, out_topic, ckpt]
    stop = threading.Event()
    _arm_at_switch(ckpt, trigger, stop)
    crashed = start_driver(str(tmp_path), JOB, args, "before_commit:%s" % trigger)
    restarted = start_driver(str(tmp_path), JOB, args, standby=True)
    try:
        try:
            assert crashed.wait(timeout=600) == -signal.SIGKILL
        finally:
            stop.set()
        inputs = backlog[0] + backlog[1] + live
        written = read_topic(kafka_broker, out_topic)
        # the file batch completed; the switch batch's tasks committed, then the driver died
        assert sorted(written) == _expected(inputs)
        records = {int(os.path.basename(p)): json.loads(open(p).read()) for p in
                   glob.glob(os.path.join(ckpt, "state", "sources", "*", "[0-9]*"))}
        assert sorted(records) == [0, 1] and records[1] == {"source": 1}
        assert sorted(os.path.basename(f) for f, _ in records[0]["files"]) == \
            ["part-0.txt", "part-1.txt"]

        release(restarted, gone=crashed)
        more = ["%s%02d" % ("abcd"[i % 4], 40 + i) for i in range(4)]
        produce(kafka_broker, in_topic, [v.encode() for v in more],
                partitions=[0 if v[0] in "ac" else 1 for v in more])
        read_topic(kafka_broker, out_topic,
                   until=lambda values: len(values) >= len(inputs) + len(more))
        restarted.send_signal(signal.SIGTERM)
        assert restarted.wait(timeout=300) == 128 + signal.SIGTERM
    finally:
        end_all(crashed, restarted)
    # read once the job stopped: every record it ever committed, and nothing can follow.
    # The re-run switch batch wrote nothing again, the files were not read again, the new
    # records continue the restored counts
    produced = read_topic(kafka_broker, out_topic)
    assert sorted(produced) == _expected(inputs + more)
    uncommitted = read_topic(kafka_broker, out_topic, committed_only=False)
    assert sorted(uncommitted) == sorted(produced)   # no aborted duplicate either
