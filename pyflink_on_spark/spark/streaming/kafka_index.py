"""The offset ranges of an unbounded KafkaSource, batch by batch.

Batch N reads, per partition, from where batch N-1 stopped up to the partition's latest
offset when batch N is planned. The ranges are written to ``<checkpoint>/sources/<source>/<N>``
before the batch runs (as file_index.py records a monitored directory's new files), and a
re-run of batch N after a crash reads the recorded ranges: same batch id, same records. So the
source's positions are part of the checkpoint: the state version of batch N and the ranges
read up to N are completed together.

Partitions are listed anew for every batch: a topic matching the subscription pattern that
appears later is read from its earliest offset (as Flink's partition discovery does).
Each range is read with Spark's batch Kafka reader (spark/kafka.py), each partition by the
subtask Flink's enumerator would give it.
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Dict, List, Optional, Tuple

from pyflink_on_spark.codecs.kafka.brokers import (BrokerErrors, await_answer,
                                                   broker_wait_seconds)
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.specs import sources

Range = Tuple[str, int, int, int]       # topic, partition, start offset, end offset (excl.)

# How long a plan asks again when the broker answers with an error that passes: a topic just
# created has no partition leader for a moment (NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE,
# UNKNOWN_TOPIC_OR_PARTITION: retriable in Kafka's protocol, not flagged so by librdkafka on
# these calls), a request or a connection times out. Without it the first plan after a new
# topic matched the pattern failed the job.
PLAN_RETRY_SECONDS = 30.0


def _transient(error) -> bool:
    from confluent_kafka import KafkaError, KafkaException
    if not isinstance(error, KafkaException) or not error.args \
            or not isinstance(error.args[0], KafkaError):
        return False
    kafka_error = error.args[0]
    return kafka_error.retriable() or kafka_error.code() in (
        KafkaError.NOT_LEADER_FOR_PARTITION, KafkaError.LEADER_NOT_AVAILABLE,
        KafkaError.UNKNOWN_TOPIC_OR_PART, KafkaError.REQUEST_TIMED_OUT,
        KafkaError.NETWORK_EXCEPTION, KafkaError._TIMED_OUT, KafkaError._TRANSPORT)


def asked_until_answered(call, what: str, deadline_seconds: Optional[float] = None):
    """call(), asked again (with a growing pause) while it fails with a transient broker
    error, for PLAN_RETRY_SECONDS at most; then the error, saying what was asked."""
    import time
    limit = PLAN_RETRY_SECONDS if deadline_seconds is None else deadline_seconds
    deadline = time.monotonic() + limit
    pause = 0.05
    while True:
        try:
            return call()
        except Exception as e:
            if not _transient(e):
                raise
            if time.monotonic() + pause > deadline:
                raise RuntimeError("KafkaSource: %s still failed after %.0f s of retries: %s"
                                   % (what, limit, e)) from e
        time.sleep(pause)
        pause = min(pause * 2, 1.0)


def metadata_client(spec: sources.KafkaSourceSpec, errors=None):
    """A quiet Consumer for the spec's broker: its errors go to `errors` (a
    codecs/kafka/brokers.py BrokerErrors), not to stderr."""
    from pyflink_on_spark.codecs.kafka.brokers import quiet_config
    try:
        from confluent_kafka import Consumer
    except ImportError:
        raise ImportError("An unbounded KafkaSource needs the confluent-kafka package on the "
                          "driver (it lists partitions and offsets): pip install "
                          "'pyflink-on-spark[kafka]' (or confluent-kafka)") from None
    config = {k: v for k, v in spec.properties if k in ("security.protocol",)}
    config.update({"bootstrap.servers": spec.bootstrap_servers,
                   "group.id": spec.group_id or "pyflink-on-spark-offsets",
                   "enable.auto.commit": False})
    return Consumer(quiet_config(config, BrokerErrors() if errors is None else errors))


def listed_partitions(client, spec: sources.KafkaSourceSpec) -> List[Tuple[str, int]]:
    if spec.partitions:
        return list(spec.partitions)
    def listed():
        topics = client.list_topics(timeout=30).topics
        if spec.topics:
            wanted = [t for t in spec.topics if t in topics]
        else:
            pattern = re.compile(spec.topic_pattern)
            wanted = [t for t in topics if pattern.fullmatch(t) and not t.startswith("__")]
        for t in wanted:
            # a topic listed with an error (a topic just created: no leader yet) comes
            # without its partitions: asked again while the error passes
            error = getattr(topics[t], "error", None)
            if error is not None:
                from confluent_kafka import KafkaException
                raise KafkaException(error)
        return sorted((t, p) for t in wanted for p in topics[t].partitions)
    return asked_until_answered(listed, "listing the topics")


class KafkaOffsetIndex:
    """The UnboundedSource (sources.py) of an unbounded KafkaSource: a batch's input is its
    recorded offset ranges."""

    def __init__(self, spec: sources.KafkaSourceSpec, store: SnapshotStore, source_id: str,
                 parallelism: int) -> None:
        self.store = store
        self.spec = spec
        self.parallelism = parallelism
        self.dir = store.path("sources", source_id)
        self._client = None
        self._errors = BrokerErrors()       # the client's errors (codecs/kafka/brokers.py)
        self._listed: List[Tuple[str, int]] = []     # the partitions of the last plan
        # subtask -> records of its partitions not read when the last plan was made (Flink's
        # pendingRecords: the lag behind each partition's latest offset, or behind its
        # stopping offset); None when the last plan was a recorded one (a re-run)
        self.pending: Optional[Dict[int, int]] = None

    def _record_path(self, batch_id: int) -> str:
        return "%s/%d" % (self.dir, batch_id)

    def _previous(self, batch_id: int):
        """The ends, and the stopping offsets, of the partitions the last batch before
        `batch_id` listed (the stops of set_unbounded(stopping))."""
        names = [int(n) for n in self.store.list_names(self.dir) if n.isdigit()]
        earlier = [n for n in names if n < batch_id]
        if not earlier:
            return {}, {}
        ranges = json.loads(self.store.read_bytes(self._record_path(max(earlier))))
        return ({(t, p): end for t, p, end in ranges["ends"]},
                {(t, p): stop for t, p, stop in ranges.get("stops", ())})

    def plan(self, batch_id: int) -> List[Range]:
        """The non-empty ranges batch ``batch_id`` reads: recorded, or planned now."""
        record = self._record_path(batch_id)
        if self.store.exists(record):
            recorded = json.loads(self.store.read_bytes(record))
            self._listed = [(t, p) for t, p, _ in recorded["ends"]]
            self.pending = None
            return [tuple(r) for r in recorded["ranges"]]
        if self._client is None:
            self._client = metadata_client(self.spec, self._errors)
        # a broker down at the start or gone mid-job: one clear error within the wait
        await_answer(self._client, self._errors, self.spec.bootstrap_servers,
                     broker_wait_seconds(dict(self.spec.properties)), "KafkaSource",
                     "while planning micro-batch %d" % batch_id)
        from pyflink_on_spark.spark.kafka_offsets import watermarks, offsets_of
        before, stops = self._previous(batch_id)
        first = not self.store.list_names(self.dir)
        listed = listed_partitions(self._client, self.spec)
        bounds = watermarks(self._client, listed)
        new = [tp for tp in listed if tp not in before]
        # where a partition starts: the starting offsets for the partitions of the first
        # plan; a partition discovered after the job started, from its beginning
        starts = offsets_of(self._client, self.spec, self.spec.starting, "starting", new,
                            bounds) if first else {tp: bounds[tp][0] for tp in new}
        if self.spec.stopping is not None:
            # set_unbounded(stopping): each partition's stop is resolved when it is first
            # listed (latest(): its end then), as Flink's reader resolves a split's
            stops.update(offsets_of(self._client, self.spec, self.spec.stopping, "stopping",
                                    new, bounds))
        ends, ranges = [], []
        from pyflink_on_spark.spark.kafka import split_owner
        pending = {subtask: 0 for subtask in range(self.parallelism)}
        for topic, partition in listed:
            low, high = bounds[(topic, partition)]
            start = before.get((topic, partition))
            if start is None:
                start = starts[(topic, partition)]
            start = max(start, low)
            stop = stops.get((topic, partition))
            end = high if stop is None else max(min(high, stop), start)
            ends.append((topic, partition, end))
            # the records behind the partition's end (or its stop) when planned: this batch's
            pending[split_owner(topic, partition, self.parallelism)] += end - start
            if end > start:
                ranges.append((topic, partition, start, end))
        self.store.write_bytes(record, json.dumps({
            "ranges": ranges, "ends": ends,
            "stops": sorted([t, p, o] for (t, p), o in stops.items())}).encode())
        self._listed = [(t, p) for t, p, _ in ends]
        self.pending = pending
        return ranges

    def frame(self, ranges: List[Range], session):
        """Split rows of the records in ``ranges`` (Spark's batch Kafka reader), after a
        SplitStarted row for every partition listed when the batch was planned, also those
        without new records: as in Flink, a partition assigned to a subtask holds back its
        watermark until it has records, unless with_idleness lets it go idle."""
        from pyflink_on_spark.spark.batch_schema import rows_frame
        from pyflink_on_spark.spark.kafka import kafka_scan_frame, split_started_rows
        started = rows_frame(session, split_started_rows(self._listed, self.parallelism))
        if not ranges:
            return started
        bounded = replace(
            self.spec, topics=(), topic_pattern=None,
            partitions=tuple((t, p) for t, p, _, _ in ranges),
            starting=sources.SpecificOffsets(tuple((t, p, s) for t, p, s, _ in ranges)),
            stopping=sources.SpecificOffsets(tuple((t, p, e) for t, p, _, e in ranges)),
            bounded=True)
        return started.union(kafka_scan_frame(bounded, self.parallelism, session,
                                              splits_end=False))

    def compact(self, before: int) -> None:
        """Drops the records of batches before ``before`` except the newest of them (the
        next plan starts where it ended)."""
        old = sorted(n for n in (int(m) for m in self.store.list_names(self.dir)
                                 if m.isdigit()) if n < before)
        for n in old[:-1]:
            self.store.delete_file(self._record_path(n))

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
