"""Kafka on Spark without a broker (none runs here): the rows Spark's Kafka reader's records
become, checked without the reader (it needs the package)."""
from pyflink_on_spark.common.serialization import SimpleStringSchema


def test_kafka_records_become_chunks_for_the_partitions_owner():
    import pickle

    import pyarrow as pa

    from pyflink_on_spark.spark.kafka import _chunker, split_owner
    from pyflink_on_spark.specs.sources import SplitFinished, SplitRecords, SplitStarted
    # Spark's Kafka timestamp column is in microseconds; Flink's timestamps are milliseconds
    stamps = pa.array([1_000_000, 1_500_000, 2_500_000], pa.timestamp("us", tz="UTC"))
    batch = pa.RecordBatch.from_arrays(
        [pa.array([b"a", b"b", b"c"], pa.binary()), pa.array(["t", "t", "u"]),
         pa.array([0, 0, 1], pa.int32()), stamps],
        names=["value", "topic", "partition", "timestamp"])
    rows = [r for out in _chunker(SimpleStringSchema()._deserialize, 3)(iter([batch]))
            for r in out.to_pylist()]
    t0, u1 = split_owner("t", 0, 3), split_owner("u", 1, 3)
    # each partition announced first (src -1), then its chunks numbered within it (src),
    # the partition as seq (a subtask takes its partitions' chunks in turn), then the end
    # of each partition of this bounded read
    assert [(r["dest"], r["src"], r["seq"]) for r in rows] == \
        [(t0, -1, 0), (t0, 0, 0), (u1, -1, 1), (u1, 0, 1), (t0, 1, 0), (u1, 1, 1)]
    assert [pickle.loads(r["payload"]) for r in rows] == [
        SplitStarted(("t", 0), True), SplitRecords(("t", 0), ["a", "b"], [1000, 1500]),
        SplitStarted(("u", 1), True), SplitRecords(("u", 1), ["c"], [2500]),
        SplitFinished(("t", 0)), SplitFinished(("u", 1))]
    # a micro-batch's ranges of an unbounded source: the partitions go on
    rows = [r for out in _chunker(SimpleStringSchema()._deserialize, 3, False)(iter([batch]))
            for r in out.to_pylist()]
    assert [pickle.loads(r["payload"]) for r in rows][:2] == [
        SplitStarted(("t", 0), False), SplitRecords(("t", 0), ["a", "b"], [1000, 1500])]
    assert len(rows) == 4


def test_long_runs_are_cut_into_chunks_and_skipped_records_dropped():
    import pickle

    import pyarrow as pa

    from pyflink_on_spark.spark.kafka import CHUNK_RECORDS, _chunker
    # one partition's run longer than a chunk, then another partition; a deserializer's
    # None skips the record (and its timestamp)
    n = CHUNK_RECORDS + 3
    values = [b"%d" % i for i in range(n)] + [b"x", b"skip"]
    batch = pa.RecordBatch.from_arrays(
        [pa.array(values, pa.binary()), pa.array(["t"] * n + ["t", "t"]),
         pa.array([0] * n + [1, 1], pa.int32()),
         pa.array([i * 1000 for i in range(n + 2)], pa.timestamp("us"))],
        names=["value", "topic", "partition", "timestamp"])
    decode = lambda b: None if b == b"skip" or b == b"5" else b.decode()   # noqa: E731
    payloads = [pickle.loads(r["payload"]) for out in _chunker(decode, 2, False)(iter([batch]))
                for r in out.to_pylist()]
    chunks = [(p.split, p.values, p.timestamps) for p in payloads if hasattr(p, "values")]
    assert [len(c[1]) for c in chunks] == [CHUNK_RECORDS - 1, 3, 1]
    assert chunks[0][1][:6] == ["0", "1", "2", "3", "4", "6"]
    assert chunks[0][2][:6] == [0, 1, 2, 3, 4, 6]
    assert chunks[1] == (("t", 0), [str(i) for i in range(CHUNK_RECORDS, n)],
                         list(range(CHUNK_RECORDS, n)))
    assert chunks[2] == (("t", 1), ["x"], [n])


def test_a_read_of_one_topic_has_no_topic_column_and_the_same_rows():
    import pyarrow as pa

    from pyflink_on_spark.spark.kafka import _chunker, only_topic
    from pyflink_on_spark.specs.sources import KafkaSourceSpec
    values = [b"a", b"b", b"c", b"d"]
    partitions = pa.array([0, 0, 1, 0], pa.int32())
    stamps = pa.array([1000, 2000, 3000, 4000], pa.timestamp("ms"))
    with_topic = pa.RecordBatch.from_arrays(
        [pa.array(values, pa.binary()), pa.array(["t"] * 4), partitions, stamps],
        names=["value", "topic", "partition", "timestamp"])
    without = pa.RecordBatch.from_arrays(
        [pa.array(values, pa.binary()), partitions, stamps],
        names=["value", "partition", "timestamp"])
    decode = SimpleStringSchema()._deserialize

    def rows(batch, topic):
        return [r for out in _chunker(decode, 2, True, topic)(iter([batch]))
                for r in out.to_pylist()]
    assert rows(without, "t") == rows(with_topic, None)
    assert len(rows(without, "t")) == 7   # 2 started, 3 chunks (0, 1, 0 again), 2 finished

    def spec(**subscription):
        return KafkaSourceSpec(bootstrap_servers="b:1", value_decoder=decode,
                               starting=None, **subscription)
    # the spec names one topic: by name or by its partitions; a pattern or two: None
    assert only_topic(spec(topics=("t",))) == "t"
    assert only_topic(spec(partitions=(("t", 0), ("t", 1)))) == "t"
    assert only_topic(spec(partitions=(("t", 0), ("u", 1)))) is None
    assert only_topic(spec(topics=("t", "u"))) is None
    assert only_topic(spec(topic_pattern="t.*")) is None
