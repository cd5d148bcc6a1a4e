"""Where a KafkaSource starts and stops in each partition, resolved on the driver with
confluent-kafka as Flink's offsets initializers resolve them (flink-connector-kafka
3.2.0-1.19, checked on PyFlink 1.20.5: docs/compatibility.md, issue 43).

Spark's Kafka source knows earliest / latest / timestamps / offsets of every partition; it
has no committed group offsets, no latest() start of a batch read, no offsets({...}) of some
partitions only (Flink takes the group's committed offset, else the reset strategy, for the
others) and no start at a timestamp after every record (Flink: the partition's end; Spark:
an error). A bounded source with any of these is read between explicit offsets of each
partition, resolved here before the read (resolve_bounded); the unbounded source's plans
(streaming/kafka_index.py) take their first starting offsets and their stopping offsets here
too.

Flink's rules, per partition (low / high: its first / next offset):
  starting earliest: low; latest: high; timestamp(t): the first offset at or after t, else
    high; committed_offsets(reset): the group's committed offset, else reset (EARLIEST: low,
    LATEST: high, NONE: the job fails with NoOffsetForPartitionException); offsets({tp: o},
    reset): o, else the group's committed offset, else reset.
  stopping latest: high when the job starts; timestamp(t): as starting; committed_offsets():
    the committed offset, else the job fails (NullPointerException: "Partition ... should
    stop at committed offset..."); offsets({tp: o}, reset): as starting; earliest(): the job
    fails ("Illegal stopping offset -2 is specified for partition ...").
A partition whose stop is not after its start gives no records.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, List, Optional, Tuple

from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.specs import sources

Partition = Tuple[str, int]


def needs_resolving(spec: sources.KafkaSourceSpec) -> bool:
    """True when Spark's Kafka options cannot say where the bounded spec starts or stops."""
    if isinstance(spec.starting, (sources.CommittedOffsets, sources.LatestOffsets,
                                  sources.TimestampOffsets)):
        return True
    if isinstance(spec.stopping, (sources.CommittedOffsets, sources.EarliestOffsets)):
        return True
    # offsets({...}): Spark wants every partition of the subscription named
    return isinstance(spec.starting, sources.SpecificOffsets) \
        or isinstance(spec.stopping, sources.SpecificOffsets)


def _name(topic: str, partition: int) -> str:
    return "%s-%d" % (topic, partition)


def _answered(partitions: list) -> list:
    """The per-partition answers of a lookup; a partition answered with an error raises it
    (asked_until_answered asks again while it passes) instead of passing for "no offset"."""
    from confluent_kafka import KafkaException
    for tp in partitions:
        if tp.error is not None:
            raise KafkaException(tp.error)
    return partitions


def _committed(client, spec, partitions: List[Partition]) -> Dict[Partition, int]:
    """The group's committed offsets of `partitions` (none without a group id)."""
    if not spec.group_id or not partitions:
        return {}
    from confluent_kafka import TopicPartition
    from pyflink_on_spark.spark.streaming.kafka_index import asked_until_answered
    found = asked_until_answered(
        lambda: _answered(client.committed([TopicPartition(t, p) for t, p in partitions],
                                           timeout=30)),
        "the committed offsets of group %r" % spec.group_id)
    return {(tp.topic, tp.partition): tp.offset for tp in found if tp.offset >= 0}


def _at_time(client, timestamp: int, partitions: List[Partition]) -> Dict[Partition, int]:
    if not partitions:
        return {}
    from confluent_kafka import TopicPartition
    from pyflink_on_spark.spark.streaming.kafka_index import asked_until_answered
    found = asked_until_answered(
        lambda: _answered(client.offsets_for_times([TopicPartition(t, p, timestamp)
                                                    for t, p in partitions], timeout=30)),
        "the offsets at time %d" % timestamp)
    return {(tp.topic, tp.partition): tp.offset for tp in found if tp.offset >= 0}


def watermarks(client, partitions: List[Partition]) -> Dict[Partition, Tuple[int, int]]:
    """Each partition's (first offset, next offset)."""
    from confluent_kafka import KafkaError, KafkaException, TopicPartition
    from pyflink_on_spark.spark.streaming.kafka_index import asked_until_answered

    def ask(t: str, p: int) -> Tuple[int, int]:
        low, high = client.get_watermark_offsets(TopicPartition(t, p), timeout=30)
        if low < 0 or high < 0:   # no offsets known yet (a partition without a leader)
            raise KafkaException(KafkaError(KafkaError.LEADER_NOT_AVAILABLE,
                                            "no offsets for %s yet" % _name(t, p)))
        return low, high
    return {(t, p): asked_until_answered(lambda: ask(t, p), "the offsets of %s" % _name(t, p))
            for t, p in partitions}


def _by_reset(reset: str, missing: List[Partition], bounds, what: str) -> Dict[Partition, int]:
    if not missing:
        return {}
    if reset == "none":
        raise JobExecutionError(what + ", ".join(_name(t, p) for t, p in missing) + "]")
    return {tp: bounds[tp][1] if reset == "latest" else bounds[tp][0] for tp in missing}


def offsets_of(client, spec, initializer, side: str, partitions: List[Partition],
               bounds: Dict[Partition, Tuple[int, int]]) -> Dict[Partition, int]:
    """Each partition's starting (side="starting") or stopping offset under `initializer`,
    with `bounds` the partitions' (low, high) offsets."""
    if isinstance(initializer, sources.EarliestOffsets):
        if side == "stopping" and partitions:
            t, p = partitions[0]
            raise JobExecutionError(
                "org.apache.flink.util.FlinkRuntimeException: Failed to initialize partition "
                "splits due to: Illegal stopping offset -2 is specified for partition %s. It "
                "should either be non-negative or be one of the [-1(latest), -3(committed), "
                "-9223372036854775808(Long.MIN_VALUE, no_stopping_offset)]." % _name(t, p))
        return {tp: bounds[tp][0] for tp in partitions}
    if isinstance(initializer, sources.LatestOffsets):
        return {tp: bounds[tp][1] for tp in partitions}
    if isinstance(initializer, sources.TimestampOffsets):
        found = _at_time(client, initializer.timestamp, partitions)
        return {tp: found.get(tp, bounds[tp][1]) for tp in partitions}
    if isinstance(initializer, sources.CommittedOffsets):
        found = _committed(client, spec, partitions)
        missing = [tp for tp in partitions if tp not in found]
        if side == "stopping":
            if missing:
                t, p = missing[0]
                raise JobExecutionError(
                    "java.lang.NullPointerException: Partition %s should stop at committed "
                    "offset. But there is no committed offset of this partition for group %s"
                    % (_name(t, p), spec.group_id))
            return found
        found.update(_by_reset(
            initializer.reset, missing, bounds,
            "org.apache.kafka.clients.consumer.NoOffsetForPartitionException: Undefined "
            "offset with no reset policy for partitions: ["))
        return found
    if isinstance(initializer, sources.SpecificOffsets):
        given = {(t, p): o for t, p, o in initializer.offsets}
        chosen = {tp: given[tp] for tp in partitions if tp in given}
        rest = [tp for tp in partitions if tp not in given]
        committed = _committed(client, spec, rest)
        chosen.update(committed)
        chosen.update(_by_reset(
            initializer.reset, [tp for tp in rest if tp not in committed], bounds,
            "java.lang.IllegalStateException: Cannot find initial offsets for partitions: ["))
        return chosen
    raise TypeError("unknown Kafka offsets %r" % (initializer,))


def resolve_bounded(spec: sources.KafkaSourceSpec) -> Optional[sources.KafkaSourceSpec]:
    """The bounded spec as explicit offsets of the partitions that have records between its
    starting and stopping offsets (assigned by partition), or None when none has any."""
    from pyflink_on_spark.spark.streaming.kafka_index import metadata_client, listed_partitions
    client = metadata_client(spec)
    try:
        partitions = listed_partitions(client, spec)
        bounds = watermarks(client, partitions)
        starts = offsets_of(client, spec, spec.starting, "starting", partitions, bounds)
        stops = offsets_of(client, spec, spec.stopping or sources.LatestOffsets(), "stopping",
                           partitions, bounds)
    finally:
        client.close()
    ranges = []
    for tp in partitions:
        low, high = bounds[tp]
        # a stop past the partition's end: Flink waits for the records to come; a bounded
        # read here stops at the end that exists when the job starts
        start, stop = max(starts[tp], low), min(stops[tp], high)
        if stop > start:
            ranges.append((tp[0], tp[1], start, stop))
    if not ranges:
        return None
    return replace(spec, topics=(), topic_pattern=None,
                   partitions=tuple((t, p) for t, p, _, _ in ranges),
                   starting=sources.SpecificOffsets(tuple((t, p, s) for t, p, s, _ in ranges)),
                   stopping=sources.SpecificOffsets(tuple((t, p, e) for t, p, _, e in ranges)))
