"""Kafka on Spark's own Kafka source and sink (package spark-sql-kafka-0-10).

Reading: a batch read between the mapped starting and ending offsets; each Kafka partition
goes to the subtask Flink's KafkaSourceEnumerator would give it
((hash(topic) * 31 & 0x7FFFFFFF) % p + partition) % p, its records in offset order.
Writing: the sink operator's encoded (topic, key, value) records are written with Spark's
Kafka writer (at least once).
"""
from __future__ import annotations

import pickle
from typing import Iterator

import pyarrow as pa

from pyflink_on_spark.common._java_text import java_string_hash
from pyflink_on_spark.graph.frame_sinks import KafkaWrite
from pyflink_on_spark.graph.frame_sources import KafkaScan
from pyflink_on_spark.runtime.boundary import KIND_SPLIT
from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA, rows_to_batch
from pyflink_on_spark.spark.frame_sources import is_missing_data_source, missing_package_error

KAFKA_ARTIFACT = "spark-sql-kafka-0-10"
CHUNK_RECORDS = 4096


def split_owner(topic: str, partition: int, parallelism: int) -> int:
    """Flink's KafkaSourceEnumerator.getSplitOwner."""
    start = ((java_string_hash(topic) * 31) & 0x7FFFFFFF) % parallelism
    return (start + partition) % parallelism


def _missing(error: Exception, what: str) -> Exception:
    if is_missing_data_source(error):
        return missing_package_error(what, "kafka", KAFKA_ARTIFACT)
    return error


def kafka_scan_frame(scan: KafkaScan, parallelism: int, session):
    reader = session.read.format("kafka")
    for key, value in scan.options:
        reader = reader.option(key, value)
    try:
        df = reader.load()
    except Exception as e:
        raise _missing(e, "KafkaSource") from None
    df = df.select("value", "topic", "partition", "offset")
    return df.mapInArrow(_chunker(scan.value_decoder, parallelism), SPARK_SCHEMA)


def _chunker(decode, parallelism: int):
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            if batch.num_rows == 0:
                continue
            values = batch.column(0).to_pylist()
            topics = batch.column(1).to_pylist()
            partitions = batch.column(2).to_pylist()
            offsets = batch.column(3).to_pylist()
            rows = []
            begin = 0
            n = len(values)
            while begin < n:
                topic, partition = topics[begin], partitions[begin]
                end = begin + 1
                while end < n and end - begin < CHUNK_RECORDS and topics[end] == topic \
                        and partitions[end] == partition:
                    end += 1
                records = [r for r in (decode(v) for v in values[begin:end]) if r is not None]
                rows.append((-1, split_owner(topic, partition, parallelism), partition,
                             offsets[begin], KIND_SPLIT, pickle.dumps(records, protocol=5)))
                begin = end
            yield rows_to_batch(rows)
    return run


_KAFKA_COLUMNS = pa.schema([pa.field("topic", pa.string()), pa.field("key", pa.binary()),
                            pa.field("value", pa.binary())])


def _decode_encoded(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        topics, keys, values = [], [], []
        for payload in batch.column(0).to_pylist():
            records, _ = pickle.loads(payload)
            for topic, key, value in records:
                topics.append(topic)
                keys.append(key)
                values.append(value)
        if topics:
            yield pa.RecordBatch.from_arrays(
                [pa.array(topics, pa.string()), pa.array(keys, pa.binary()),
                 pa.array(values, pa.binary())], schema=_KAFKA_COLUMNS)


def write_kafka(description: KafkaWrite, rows) -> None:
    records = rows.select("payload").mapInArrow(_decode_encoded,
                                                "topic string, key binary, value binary")
    writer = records.write.format("kafka")
    for key, value in description.options:
        writer = writer.option(key, value)
    try:
        writer.save()
    except Exception as e:
        raise _missing(e, "KafkaSink") from None
