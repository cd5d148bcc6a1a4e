"""Every KafkaOffsetsInitializer as starting and as stopping offsets, bounded and unbounded,
with topics by list, by pattern and by partitions, against the session's real broker: the
records each combination reads, and the errors, are those PyFlink 1.20.5 gave for the same
topic and group (docs/compatibility.md, issue 43). Also execute_and_collect(limit=n), an
iterator closed early and execute_async() + cancel() over an unbounded KafkaSource: they
return once the records are there and end the job.

The topic: two partitions, p0 = a0 a1 a2 and p1 = b0 b1 b2 (timestamps 1000, 1001, 1002),
group G has committed p0 -> 1, p1 -> 2."""
import sys
import threading
import time
import uuid

import cloudpickle
import pytest
from confluent_kafka import Consumer, TopicPartition

from pyflink_on_spark.common import WatermarkStrategy
from pyflink_on_spark.common.job_status import JobStatus
from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.kafka import (KafkaOffsetResetStrategy as R,
                                                          KafkaOffsetsInitializer as O,
                                                          KafkaSource,
                                                          KafkaTopicPartition as TP)
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.spark.kafka_offsets import resolve_bounded
from pyflink_on_spark.spark.streaming.kafka_index import KafkaOffsetIndex
from pyflink_on_spark.spark.tests.test_kafka_broker_bounded import new_topics, produce

cloudpickle.register_pickle_by_value(sys.modules[__name__])

VALUES = {0: ["a0", "a1", "a2"], 1: ["b0", "b1", "b2"]}


@pytest.fixture(scope="module")
def topic(kafka_broker):
    """(servers, topic, empty topic, group with commits)."""
    # no time-based retention: the broker would delete records stamped 1970 within minutes
    t, empty = new_topics(kafka_broker, "offsets", "offsets-empty", keep_forever=True)
    produce(kafka_broker, t, [v.encode() for p in (0, 1) for v in VALUES[p]],
            partitions=[0, 0, 0, 1, 1, 1], timestamps=[1000, 1001, 1002] * 2)
    group = "g-" + uuid.uuid4().hex[:8]
    consumer = Consumer({"bootstrap.servers": kafka_broker, "group.id": group})
    consumer.commit(offsets=[TopicPartition(t, 0, 1), TopicPartition(t, 1, 2)],
                    asynchronous=False)
    consumer.close()
    return kafka_broker, t, empty, group


def _source(topic, start=None, stop=None, bounded=True, group="<G>", topics=None,
            pattern=None, partitions=None):
    servers, t, _, g = topic
    b = KafkaSource.builder().set_bootstrap_servers(servers) \
        .set_value_only_deserializer(SimpleStringSchema())
    if group:
        b.set_group_id(g if group == "<G>" else group)
    if pattern:
        b.set_topic_pattern(pattern)
    elif partitions:
        b.set_partitions(partitions)
    else:
        b.set_topics(*(topics or (t,)))
    if start is not None:
        b.set_starting_offsets(start)
    if stop is not None:
        (b.set_bounded if bounded else b.set_unbounded)(stop)
    return b.build()


def _read(source):
    """The records a bounded source's resolved offsets delimit (no Spark job)."""
    spec = resolve_bounded(source._source_definition())
    if spec is None:
        return []
    starts = {(t, p): o for t, p, o in spec.starting.offsets}
    return sorted(v for t, p, stop in spec.stopping.offsets
                  for v in VALUES[p][starts[(t, p)]:stop])


# what PyFlink 1.20.5 collected from each bounded source (sorted), probe names as in
# docs/compatibility.md
def _cases(t):
    return [
        ("A", dict(start=O.committed_offsets(), stop=O.latest()), ["a1", "a2", "b2"]),
        ("B", dict(start=O.earliest(), stop=O.committed_offsets()), ["a0", "b0", "b1"]),
        ("C", dict(start=O.latest(), stop=O.latest()), []),
        ("E", dict(start=O.offsets({TP(t, 0): 1}), stop=O.latest()), ["a1", "a2", "b2"]),
        ("E2", dict(start=O.offsets({TP(t, 0): 1}, R.LATEST), stop=O.latest()),
         ["a1", "a2", "b2"]),
        ("F", dict(start=O.timestamp(1001), stop=O.timestamp(1002)), ["a1", "b1"]),
        ("F2", dict(start=O.timestamp(5000), stop=O.latest()), []),
        ("I", dict(start=O.committed_offsets(R.EARLIEST), stop=O.latest(), group="none-1"),
         ["a0", "a1", "a2", "b0", "b1", "b2"]),
        ("I2", dict(start=O.committed_offsets(R.LATEST), stop=O.latest(), group="none-2"), []),
        ("L", dict(start=O.earliest(), stop=O.offsets({TP(t, 1): 2}), partitions={TP(t, 1)}),
         ["b0", "b1"]),
        ("M", dict(start=O.committed_offsets(), stop=O.latest(), pattern=t), ["a1", "a2", "b2"]),
        ("N", dict(start=O.earliest(), stop=O.offsets({TP(t, 0): 2})),
         ["a0", "a1", "b0", "b1"]),
        ("P", dict(start=O.offsets({TP(t, 0): 2, TP(t, 1): 0}),
                   stop=O.offsets({TP(t, 0): 1, TP(t, 1): 1})), ["b0"]),
        ("Q", dict(start=O.offsets({TP(t, 0): 10, TP(t, 1): 0}), stop=O.latest()),
         ["b0", "b1", "b2"]),
    ]


def test_each_bounded_combination_reads_what_pyflink_reads(topic):
    for name, settings, expected in _cases(topic[1]):
        source = _source(topic, **settings)
        got = _read(source)
        # on a mismatch, the offsets resolved once more (what the broker answers now)
        assert got == expected, (name, resolve_bounded(source._source_definition()))


def test_bounded_jobs_read_committed_offsets_and_nothing_at_all(spark, topic):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)

    def collect(source):
        return sorted(env.from_source(source, WatermarkStrategy.no_watermarks(), "k")
                      .execute_and_collect())

    # the case: a bounded source starting from committed offsets
    assert collect(_source(topic, O.committed_offsets(), O.latest())) == ["a1", "a2", "b2"]
    assert collect(_source(topic, O.earliest(), O.committed_offsets(),
                           pattern=topic[1])) == ["a0", "b0", "b1"]
    assert collect(_source(topic, O.latest(), O.latest())) == []
    # latest() as the stopping offset of an empty topic: nothing, the job finishes
    assert collect(_source(topic, O.earliest(), O.latest(), topics=(topic[2],))) == []


def test_what_pyflink_refuses_fails_with_its_message(topic):
    with pytest.raises(ValueError, match="Property group.id is required when using "
                                         "committed offset for offsets initializer"):
        _source(topic, O.committed_offsets(), O.latest(), group=None)
    with pytest.raises(ValueError, match="Property group.id is required"):
        _source(topic, O.earliest(), O.committed_offsets(), group=None)
    with pytest.raises(JobExecutionError, match=r"Illegal stopping offset -2 is specified for "
                                                r"partition %s-0" % topic[1]):
        _read(_source(topic, O.earliest(), O.earliest()))
    with pytest.raises(JobExecutionError, match=r"NoOffsetForPartitionException: Undefined "
                                                r"offset with no reset policy for partitions: "
                                                r"\[%s-0, %s-1\]" % (topic[1], topic[1])):
        _read(_source(topic, O.committed_offsets(), O.latest(), group="none-3"))
    with pytest.raises(JobExecutionError, match=r"Partition %s-0 should stop at committed "
                                                r"offset. But there is no committed offset of "
                                                r"this partition for group none-4" % topic[1]):
        _read(_source(topic, O.earliest(), O.committed_offsets(), group="none-4"))


def test_an_unbounded_source_with_stopping_offsets_stops_its_partitions_there(topic, tmp_path):
    servers, t, _, _ = topic
    (fresh,) = new_topics(servers, "unbounded-stop")
    produce(servers, fresh, [b"x0", b"y0"], partitions=[0, 1])
    source = _source(topic, O.earliest(), O.latest(), bounded=False, topics=(fresh,))
    index = KafkaOffsetIndex(source._source_definition(), SnapshotStore(str(tmp_path)), "s", 2)
    try:
        assert sorted(index.plan(0)) == [(fresh, 0, 0, 1), (fresh, 1, 0, 1)]
        # pendingRecords per subtask: each reads one partition, one record behind
        assert index.pending == {0: 1, 1: 1}
        produce(servers, fresh, [b"x1", b"y1"], partitions=[0, 1])
        assert index.plan(1) == []        # latest() was the end when the job started
        assert index.pending == {0: 0, 1: 0}    # nothing more to read before the stops
        committed = _source(topic, O.earliest(), O.committed_offsets(), bounded=False)
        index2 = KafkaOffsetIndex(committed._source_definition(),
                                  SnapshotStore(str(tmp_path / "2")), "s", 2)
        assert sorted(index2.plan(0)) == [(t, 0, 0, 1), (t, 1, 0, 2)]
        index2.close()
    finally:
        index.close()


def _unbounded(env, topic, topics):
    return env.from_source(_source(topic, O.earliest(), topics=topics),
                           WatermarkStrategy.no_watermarks(), "k")


def _within(seconds, call):
    """call()'s result, failing (not hanging) when it does not return in time: a collect
    that waits for a record that never comes is the bug this guards against."""
    done = {}
    worker = threading.Thread(target=lambda: done.setdefault("value", call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert "value" in done, "no return within %d s" % seconds
    return done["value"]


def test_collect_with_a_limit_over_an_unbounded_source_returns_and_ends_the_job(spark, topic):
    servers = topic[0]
    (fresh,) = new_topics(servers, "limit")
    produce(servers, fresh, [b"r0", b"r1", b"r2"], partitions=[0, 0, 1])
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    began = time.monotonic()
    # the limit reached exactly: returns at the third record, not waiting for a fourth
    assert sorted(_within(120, lambda: _unbounded(env, topic, (fresh,))
                          .execute_and_collect(limit=3))) == ["r0", "r1", "r2"]

    # the limit not reached when the records stop: returns when more arrive
    def later():
        time.sleep(2)
        produce(servers, fresh, [b"r3", b"r4"], partitions=[0, 1])
    producer = threading.Thread(target=later)
    producer.start()
    assert sorted(_within(120, lambda: _unbounded(env, topic, (fresh,))
                          .execute_and_collect(limit=5))) == ["r0", "r1", "r2", "r3", "r4"]
    producer.join()

    # an iterator closed early ends its job
    iterator = _unbounded(env, topic, (fresh,)).execute_and_collect()
    assert len([next(iterator), next(iterator)]) == 2
    _within(120, iterator.close)

    # execute_async() + cancel()
    _unbounded(env, topic, (fresh,)).print()
    client = env.execute_async("cancelled")
    _within(120, lambda: client.cancel().result())
    assert client.get_job_status().result() in (JobStatus.CANCELED, JobStatus.CANCELLING)
    assert time.monotonic() - began < 120
