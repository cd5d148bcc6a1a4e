"""A table's streams' watermarks fed to its source subtasks (runtime/fed_watermarks.py), and
a kafka table's source generating them per partition (table/kafka_tables.py), without
Spark: the table source's watermark is the minimum over the stream's upstream subtasks,
each subtask's the minimum over its partitions (as PyFlink 1.20.5 gives a kafka table's:
compat case kafka/table_partition_watermarks)."""
from pyflink_on_spark.runtime.fed_watermarks import FedWatermark
from pyflink_on_spark.runtime.operators import timestamps
from pyflink_on_spark.runtime.operators.source import SourceOperator
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.runtime.watermarks import IDLE, MAX_WATERMARK
from pyflink_on_spark.specs.sources import SplitRecords, SplitStarted


def _table_source():
    return OperatorHarness(SourceOperator(reader=lambda split: split),
                           name="Source: Table Source")


def test_the_table_source_emits_the_minimum_over_the_upstream_subtasks():
    harness = _table_source()
    source = harness.operator
    source.process_split(FedWatermark(0, 5000, 2))
    assert harness.watermarks == []             # subtask 1 has sent none: it holds it back
    source.process_split(FedWatermark(1, 3000, 2))
    assert harness.watermarks == [3000]
    source.process_split(FedWatermark(1, 9000, 2))
    assert harness.watermarks == [3000, 5000]
    source.process_split(FedWatermark(0, IDLE, 2))      # an idle subtask does not count
    assert harness.watermarks == [3000, 5000, 9000]
    source.process_split(FedWatermark(0, 6000, 2))      # active again, behind: no way back
    source.process_split(FedWatermark(1, 12000, 2))
    assert harness.watermarks == [3000, 5000, 9000]
    source.process_split(FedWatermark(0, MAX_WATERMARK, 2))
    assert harness.watermarks[-1] == 12000


def test_the_table_rows_keep_their_stamps_beside_fed_watermarks():
    harness = _table_source()
    source = harness.operator
    source.process_split(SplitRecords(("table", 0), ["a", "b"], [1000, 8000]))
    source.process_split(FedWatermark(0, 6000, 1))
    assert harness.out == [("a", 1000), ("b", 8000)]
    assert harness.watermarks == [6000]


def test_fed_watermarks_are_kept_in_a_checkpoint():
    harness = _table_source()
    harness.operator.process_split(FedWatermark(0, 5000, 2))
    harness.operator.process_split(FedWatermark(1, 7000, 2))
    snapshot = harness.operator.snapshot_state(None)
    restored = _table_source()

    class Context:
        subtask = 0
    restored.operator.restore_state([(0, snapshot)], Context())
    restored.operator.process_split(FedWatermark(0, 8000, 2))
    assert restored.watermarks == [7000]        # subtask 1's 7000 was restored


def test_a_batchs_watermarks_per_upstream_subtask_leave_the_largest_then_idle():
    from pyflink_on_spark.spark.streaming.table_feeds import last_watermarks
    kept = last_watermarks([0, 1, 0, 1, 0], [2, 1, 5, 3, 7],
                           [3000, 100, IDLE, IDLE, 4000])
    assert kept == {0: [4000], 1: [100, IDLE]}
    assert last_watermarks([2], [0], [IDLE]) == {2: [IDLE]}


def test_a_kafka_tables_source_generates_the_watermark_per_partition(monkeypatch):
    # PyFlink 1.20.5 (compat case kafka/table_partition_watermarks): rowtimes 1, 2, 6, 12 s
    # in partition 0, 3, 7 s in partition 1, `ts - INTERVAL '1' SECOND`: 6 s, not 11 s
    from pyflink_on_spark.table.kafka_formats import RowDecoder
    from pyflink_on_spark.table.kafka_tables import _partition_watermarks
    monkeypatch.setattr(timestamps, "PERIODIC_EVERY_RECORDS", 1)
    decoder = RowDecoder("json", ["k", "ts"], ["STRING", "TIMESTAMP(3)"], {})
    strategy = _partition_watermarks(decoder, 1, "`ts` - INTERVAL '1' SECOND")
    harness = OperatorHarness(SourceOperator(reader=None, watermark_strategy=strategy),
                              name="Source: kafka")
    source = harness.operator

    def chunk(partition, *seconds):
        values = ['{"k": "x", "ts": "2024-01-01 00:00:%02d"}' % s for s in seconds]
        return SplitRecords(("clicks", partition), values, [0] * len(values))
    source.process_split(SplitStarted(("clicks", 0)))
    source.process_split(SplitStarted(("clicks", 1)))
    source.process_split(chunk(0, 1, 2, 6, 12))
    source.process_split(chunk(1, 3, 7))
    base = 1704067200000            # 2024-01-01 00:00:00 as epoch ms of the wall clock
    assert [t for _, t in harness.out] == [base + s * 1000 for s in (1, 2, 6, 12, 3, 7)]
    assert harness.watermarks[-1] == base + 6000
    source.process_split(chunk(1, 8, 20))
    assert harness.watermarks[-1] == base + 11000


def test_a_value_that_does_not_decode_has_no_rowtime_in_the_source():
    # the table's decoding flat_map fails on it (or skips it) after, as before
    from pyflink_on_spark.table.kafka_formats import RowDecoder
    from pyflink_on_spark.table.kafka_tables import _Rowtime
    rowtime = _Rowtime(RowDecoder("json", ["k", "ts"], ["STRING", "TIMESTAMP(3)"], {}), 1)
    assert rowtime.extract_timestamp("not json", 5) is None
    assert rowtime.extract_timestamp('{"k": "x", "ts": null}', 5) is None
    assert rowtime.extract_timestamp('{"k": "x", "ts": "1970-01-01 00:00:01.5"}', 5) == 1500


def test_only_a_table_of_its_streams_own_rowtime_is_fed_their_watermarks():
    from pyflink_on_spark.spark.streaming.table_feeds import takes_source_watermarks
    from pyflink_on_spark.specs.tables import QueryTable, RowtimeTable, StreamTable
    plain = StreamTable((), 1, None, ())
    stamped = StreamTable((), 1, None, (), timestamp_column=0)   # SOURCE_WATERMARK()
    kafka = RowtimeTable(plain, "ts", (), source_watermarks=True)
    computed = RowtimeTable(plain, "ts", ())                       # a computed column's
    assert [takes_source_watermarks(d) for d in (plain, stamped, kafka, computed)] == \
        [False, True, True, False]
    query = QueryTable("SELECT * FROM t", (("t", kafka),), None)
    assert takes_source_watermarks(query)


def test_a_streams_watermark_rows_become_splits_of_every_table_source_subtask_last():
    import pickle
    import pyarrow as pa
    from pyflink_on_spark.runtime.boundary import KIND_SPLIT
    from pyflink_on_spark.spark.streaming.table_feeds import FED_SRC, fed_watermark_rows
    batch = pa.RecordBatch.from_arrays(
        [pa.array([1, 0, 1], pa.int32()), pa.array([4, 9, 2], pa.int64()),
         pa.array([pickle.dumps(w) for w in (7000, 3000, 5000)], pa.binary())],
        ["src", "seq", "payload"])
    (out,) = list(fed_watermark_rows(2, 3)(iter([batch])))
    rows = out.to_pydict()
    assert set(rows["kind"]) == {KIND_SPLIT} and set(rows["src"]) == {FED_SRC}
    assert sorted(rows["dest"]) == [0, 0, 1, 1, 2, 2]
    splits = {(d, pickle.loads(p)) for d, p in zip(rows["dest"], rows["payload"])}
    assert splits == {(d, FedWatermark(src, mark, 2)) for d in range(3)
                      for src, mark in ((0, 3000), (1, 7000))}
