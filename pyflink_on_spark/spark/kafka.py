"""Kafka on Spark's own Kafka source (package spark-sql-kafka-0-10).

Reading: a batch read between the mapped starting and ending offsets; each Kafka partition
goes to the subtask Flink's KafkaSourceEnumerator would give it
((hash(topic) * 31 & 0x7FFFFFFF) % p + partition) % p, its records in offset order, each
with its Kafka timestamp (the source operator makes per-partition watermarks of them).
Sinks write from their tasks (runtime/operators/kafka_sink.py), not with Spark's Kafka
writer: its rows have no timestamp column (codecs/kafka/producer.py).
"""
from __future__ import annotations

import json
import pickle
from typing import Dict, Iterator, List, Optional

import pyarrow as pa

from pyflink_on_spark.common._java_text import java_string_hash
from pyflink_on_spark.runtime.boundary import KIND_SPLIT
from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA, rows_to_batch
from pyflink_on_spark.spark.arrow_runs import run_bounds
from pyflink_on_spark.spark.frame_sources import is_missing_data_source, missing_package_error
from pyflink_on_spark.specs import sources

KAFKA_ARTIFACT = "spark-sql-kafka-0-10"
CHUNK_RECORDS = 4096

# consumer settings Spark's Kafka source sets itself (and rejects), and Flink-only options
_NOT_PASSED = {"auto.offset.reset", "key.deserializer", "value.deserializer",
               "enable.auto.commit", "interceptor.classes", "partition.discovery.interval.ms",
               "client.id.prefix", "register.consumer.metrics", "commit.offsets.on.checkpoint"}


def _properties(props, skip) -> Dict[str, str]:
    return {"kafka." + k: str(v) for k, v in props if k not in skip}


def _offsets_option(offsets, side: str) -> Dict[str, str]:
    """Spark's option for the starting (side="starting") or ending offsets."""
    if isinstance(offsets, sources.EarliestOffsets):
        return {side + "Offsets": "earliest"}
    if isinstance(offsets, sources.LatestOffsets):
        return {side + "Offsets": "latest"}
    if isinstance(offsets, sources.TimestampOffsets):
        return {side + "Timestamp": str(offsets.timestamp)}
    if isinstance(offsets, sources.SpecificOffsets):
        by_topic: Dict[str, Dict[str, int]] = {}
        for topic, partition, offset in offsets.offsets:
            by_topic.setdefault(topic, {})[str(partition)] = offset
        return {side + "Offsets": json.dumps(by_topic, separators=(",", ":"))}
    raise TypeError("unknown Kafka offsets %r" % (offsets,))


def kafka_source_options(spec: sources.KafkaSourceSpec) -> Dict[str, str]:
    """Spark's Kafka source options for a KafkaSource (kafka.bootstrap.servers, subscribe /
    subscribePattern / assign, startingOffsets, endingOffsets, startingTimestamp,
    kafka.group.id, kafka.<property>)."""
    options = _properties(spec.properties, _NOT_PASSED)
    options["kafka.bootstrap.servers"] = spec.bootstrap_servers
    if spec.group_id:
        options["kafka.group.id"] = spec.group_id
    if spec.client_id_prefix:
        options["kafka.client.id"] = spec.client_id_prefix
    if spec.topics:
        options["subscribe"] = ",".join(spec.topics)
    elif spec.topic_pattern:
        options["subscribePattern"] = spec.topic_pattern
    else:
        assign: Dict[str, List[int]] = {}
        for topic, partition in spec.partitions:
            assign.setdefault(topic, []).append(partition)
        options["assign"] = json.dumps(assign, separators=(",", ":"))
    options.update(_offsets_option(spec.starting, "starting"))
    if spec.stopping is not None:
        options.update(_offsets_option(spec.stopping, "ending"))
    return options


def wait_options(spec: sources.KafkaSourceSpec) -> Dict[str, str]:
    """Spark's Kafka reader bounded by the wait for a silent broker (codecs/kafka/brokers.py):
    its offset lookups on the driver (the admin client's default.api.timeout.ms; Spark tries
    fetchOffset.numRetries times) and its tasks' polls (kafkaConsumer.pollTimeoutMs, else
    spark.network.timeout, 120 s). A broker lost in the middle of a read failed the job after
    ~190 s; a job's own default.api.timeout.ms / request.timeout.ms are kept (the Java
    client requires the first to be at least the second)."""
    from pyflink_on_spark.codecs.kafka.brokers import broker_wait_seconds
    props = dict(spec.properties)
    wait_ms = int(broker_wait_seconds(props) * 1000)
    options = {"kafkaConsumer.pollTimeoutMs": str(wait_ms)}
    if "default.api.timeout.ms" not in props:
        request_ms = int(props.get("request.timeout.ms", wait_ms))
        options["kafka.request.timeout.ms"] = str(request_ms)
        options["kafka.default.api.timeout.ms"] = str(max(wait_ms, request_ms))
    return options


def split_owner(topic: str, partition: int, parallelism: int) -> int:
    """Flink's KafkaSourceEnumerator.getSplitOwner."""
    start = ((java_string_hash(topic) * 31) & 0x7FFFFFFF) % parallelism
    return (start + partition) % parallelism


def _missing(error: Exception, what: str) -> Exception:
    if is_missing_data_source(error):
        return missing_package_error(what, "kafka", KAFKA_ARTIFACT)
    return error


def kafka_scan_frame(spec: sources.KafkaSourceSpec, parallelism: int, session,
                     splits_end: bool = True):
    """Split rows of the records the spec's offsets delimit. splits_end: a bounded job's
    read, after which each partition is finished (False: a micro-batch's offset ranges of
    an unbounded source, whose partitions go on, already explicit offsets). A bounded
    read whose offsets Spark's options cannot say (committed offsets, latest() as start,
    offsets() of some partitions, ...) reads explicit offsets resolved on the driver
    first (kafka_offsets.py)."""
    if splits_end:
        # a broker that is down: one clear error within the wait (Spark's reader would
        # retry its offset lookups for minutes); an unbounded source's plan checked already
        from pyflink_on_spark.codecs.kafka.brokers import optional_check
        optional_check(spec.bootstrap_servers, spec.properties, "KafkaSource")
        from pyflink_on_spark.spark.kafka_offsets import needs_resolving, resolve_bounded
        if needs_resolving(spec):
            spec = resolve_bounded(spec)
            if spec is None:     # no partition has records between its offsets
                from pyflink_on_spark.spark.batch_schema import rows_frame
                return rows_frame(session, [])
    reader = session.read.format("kafka")
    options = kafka_source_options(spec)
    options.update(wait_options(spec))
    for key, value in sorted(options.items()):
        reader = reader.option(key, value)
    try:
        df = reader.load()
    except Exception as e:
        raise _missing(e, "KafkaSource") from None
    topic = only_topic(spec)
    # one topic: no topic column (Spark would copy its name into every record's row and its
    # Arrow batch: a column per record less in the JVM's share of a Kafka job, issue 41)
    df = df.select("value", "partition", "timestamp") if topic is not None \
        else df.select("value", "topic", "partition", "timestamp")
    return df.mapInArrow(_chunker(spec.value_decoder, parallelism, splits_end, topic),
                         SPARK_SCHEMA)


def only_topic(spec: sources.KafkaSourceSpec) -> Optional[str]:
    """The topic of every record the read returns, when the spec names exactly one (None:
    several, or a pattern)."""
    if spec.topic_pattern:
        return None
    names = set(spec.topics) if spec.topics else {topic for topic, _ in spec.partitions}
    return next(iter(names)) if len(names) == 1 else None


def _split_started_row(topic: str, partition: int, parallelism: int,
                       ends: bool = False) -> tuple:
    return (-1, split_owner(topic, partition, parallelism), -1, partition, KIND_SPLIT,
            pickle.dumps(sources.SplitStarted((topic, partition), ends), protocol=5))


def split_started_rows(partitions, parallelism: int) -> List[tuple]:
    """A SplitStarted row for each (topic, partition), to the subtask that reads it: it
    sorts before every record row of the source (src -1)."""
    return [_split_started_row(t, p, parallelism) for t, p in partitions]


_PER_MS = {"ms": 1, "us": 1000, "ns": 1000000}


def _epoch_millis(column: pa.Array) -> list:
    """Spark's Kafka `timestamp` column (Kafka's record timestamp) as epoch milliseconds
    (floored), divided in Arrow when no stamp is negative."""
    import pyarrow.compute as pc
    unit = column.type.unit
    raw = column.cast(pa.int64())
    if unit == "s":
        return pc.multiply(raw, 1000).to_pylist()
    per_ms = _PER_MS[unit]
    if per_ms == 1:
        return raw.to_pylist()
    lowest = pc.min(raw).as_py()
    if lowest is None or lowest >= 0:      # truncation is the floor for stamps >= 0
        return pc.divide(raw, per_ms).to_pylist()
    return [None if t is None else t // per_ms for t in raw.to_pylist()]


def _chunker(decode, parallelism: int, splits_end: bool = True,
             topic: Optional[str] = None):
    """Split rows of one Spark task's Kafka records (Spark reads each partition's offset
    range in one task): first a SplitStarted row per partition (src -1), so its subtask
    counts the partition's watermark before reading any partition's records (Flink assigns
    all splits up front), then chunks of up to CHUNK_RECORDS records with their Kafka
    timestamps (SplitRecords), src = the chunk's number within its partition and seq = the
    partition: a subtask reads its partitions' chunks in turn, as Flink's reader polls its
    partitions, each partition in offset order. With splits_end, a SplitFinished row after
    each partition's last chunk. Per record only the user's deserializer runs in Python:
    runs of one partition, timestamps and the values' conversion are done in Arrow.
    `topic`: the one topic of every record (the batches have no topic column), or None."""
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        chunks_of: Dict[tuple, int] = {}
        for batch in batches:
            if batch.num_rows == 0:
                continue
            partition_column = batch.column("partition")
            records = list(map(decode, batch.column("value").to_pylist()))
            stamps = _epoch_millis(batch.column("timestamp"))
            skipped = None in records       # a deserializer's None: the record is skipped
            rows = []
            if topic is None:
                topic_column = batch.column("topic")
                runs = run_bounds(partition_column, topic_column)
            else:
                runs = run_bounds(partition_column)
            for run_start, run_end in zip(runs, runs[1:]):
                run_topic = topic if topic is not None else topic_column[run_start].as_py()
                partition = partition_column[run_start].as_py()
                split = (run_topic, partition)
                owner = split_owner(run_topic, partition, parallelism)
                for begin in range(run_start, run_end, CHUNK_RECORDS):
                    end = min(begin + CHUNK_RECORDS, run_end)
                    number = chunks_of.get(split)
                    if number is None:
                        number = 0
                        rows.append(_split_started_row(run_topic, partition, parallelism,
                                                       splits_end))
                    chunks_of[split] = number + 1
                    kept, kept_stamps = records[begin:end], stamps[begin:end]
                    if skipped and None in kept:
                        pairs = [(r, t) for r, t in zip(kept, kept_stamps) if r is not None]
                        kept = [r for r, _ in pairs]
                        kept_stamps = [t for _, t in pairs]
                    rows.append((-1, owner, number, partition, KIND_SPLIT, pickle.dumps(
                        sources.SplitRecords(split, kept, kept_stamps), protocol=5)))
            yield rows_to_batch(rows)
        if splits_end and chunks_of:
            yield rows_to_batch([
                (-1, split_owner(name, partition, parallelism), number, partition,
                 KIND_SPLIT, pickle.dumps(sources.SplitFinished((name, partition)), protocol=5))
                for (name, partition), number in chunks_of.items()])
    return run
