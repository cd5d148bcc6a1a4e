"""The RMQSource's micro-batch protocol (spark/streaming/rabbitmq_queue.py) against the real
broker, without Spark: a batch's messages are recorded before anything is acknowledged and
acknowledged only once the batch's version completed; after a crash (the consumer's
connection gone while holding unacknowledged messages) the redeliveries are dropped by
correlation id, or come again without correlation ids."""
import time
import uuid

from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.specs.sources import RabbitMQSourceSpec
from pyflink_on_spark.spark.streaming.rabbitmq_queue import RabbitMQQueue
from pyflink_on_spark.tests.rabbitmq_server import message_count, publish


def _source(address, queue, use_correlation_id, store):
    host, port = address.rsplit(":", 1)
    settings = {"host": host, "port": int(port), "virtual_host": "/", "user_name": "guest",
                "password": "guest"}
    spec = RabbitMQSourceSpec(tuple(sorted(settings.items())), queue, use_correlation_id,
                              lambda body: body.decode())
    return RabbitMQQueue(spec, store, "src", 1)


def _plan_until(source, first_batch, wanted, timeout=30.0):
    """Plans batches from `first_batch` on until `wanted` messages came (or the timeout):
    (their bodies, the next batch id)."""
    got, batch = [], first_batch
    deadline = time.time() + timeout
    while len(got) < wanted and time.time() < deadline:
        got += [body.decode() for body, _ in source.plan(batch)]
        batch += 1
        time.sleep(0.05)
    return got, batch


def _ready_count_becomes(address, queue, n, timeout=30.0) -> bool:
    deadline = time.time() + timeout
    while message_count(address, queue) != n and time.time() < deadline:
        time.sleep(0.1)
    return message_count(address, queue) == n


def test_messages_are_acknowledged_only_once_their_batch_completed(rabbitmq, tmp_path):
    queue = "q-" + uuid.uuid4().hex[:8]
    store = SnapshotStore(str(tmp_path / "state"))
    publish(rabbitmq, queue, [b"a", b"b"], correlation_ids=["1", "2"])
    source = _source(rabbitmq, queue, True, store)
    got, next_batch = _plan_until(source, 0, 2)
    assert got == ["a", "b"]
    recorded = [b for b in range(next_batch) if store.exists("%s/%d" % (source.dir, b))]
    # a re-run of a recorded batch reads its record back
    assert [m for b in recorded for m in source.plan(b)] == [(b"a", "1"), (b"b", "2")]
    source.compact(before=0)              # no version completed: nothing acknowledged
    source.close()                        # the driver goes: the broker requeues both
    assert _ready_count_becomes(rabbitmq, queue, 2)
    restarted = _source(rabbitmq, queue, True, store)
    got, _ = _plan_until(restarted, next_batch, 1, timeout=2.0)
    assert got == []                      # delivered again, dropped: recorded already
    for b in recorded:                    # the recorded batches (re-run) complete now
        store.complete(b)
    restarted.compact(before=0)
    restarted.close()
    assert _ready_count_becomes(rabbitmq, queue, 0)


def _crash_after_completion(address, queue, use_correlation_id, store):
    """m0..m4 planned and their batches completed, then the consumer's connection is gone
    before any acknowledgement; the job restarts and n0 is published. What the restarted
    source plans."""
    names = ["m%d" % i for i in range(5)]
    publish(address, queue, [n.encode() for n in names],
            correlation_ids=names if use_correlation_id else None)
    crashed = _source(address, queue, use_correlation_id, store)
    got, next_batch = _plan_until(crashed, 0, 5)
    assert got == names
    for b in range(next_batch):
        store.complete(b)
    crashed._consumer.stop()              # as kill -9: nothing acknowledged, all requeued
    assert _ready_count_becomes(address, queue, 5)
    restarted = _source(address, queue, use_correlation_id, store)
    publish(address, queue, [b"n0"], correlation_ids=["n0"] if use_correlation_id else None)
    got, after = _plan_until(restarted, next_batch, 6, timeout=3.0)
    for b in range(next_batch, after):
        store.complete(b)
    restarted.compact(before=0)
    restarted.close()
    assert _ready_count_becomes(address, queue, 0)    # acknowledged or rejected: all gone
    return got


def test_after_a_crash_correlation_ids_drop_the_redeliveries(rabbitmq, tmp_path):
    got = _crash_after_completion(rabbitmq, "q-" + uuid.uuid4().hex[:8], True,
                                  SnapshotStore(str(tmp_path / "state")))
    assert got == ["n0"]                  # m0..m4 came again and were dropped


def test_after_a_crash_without_correlation_ids_the_redeliveries_come_again(rabbitmq,
                                                                           tmp_path):
    got = _crash_after_completion(rabbitmq, "q-" + uuid.uuid4().hex[:8], False,
                                  SnapshotStore(str(tmp_path / "state")))
    assert got == ["m0", "m1", "m2", "m3", "m4", "n0"]    # at least once
