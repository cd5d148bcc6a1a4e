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
