"""A stage's task reads its input in Arrow batches cut by bytes as well as by rows
(spark/session.py ARROW_BATCH_BYTES): rows of big payloads (a file's split rows) no longer
arrive as one batch per partition, whose size grew with the input."""
from pyspark.sql import functions as F

from pyflink_on_spark.spark.session import ARROW_BATCH_BYTES


def test_input_batches_are_cut_by_bytes(spark):
    def _batch_rows(batches):   # (defined here: pickled by value for the workers)
        import pyarrow as pa
        for batch in batches:
            yield pa.RecordBatch.from_pydict({"rows": [batch.num_rows],
                                              "bytes": [batch.nbytes]})

    payload = ARROW_BATCH_BYTES // 4
    rows = 3 * ARROW_BATCH_BYTES // payload
    frame = spark.range(0, rows, 1, 1).select(F.expr("repeat('x', %d)" % payload).alias("p"))
    batches = frame.mapInArrow(_batch_rows, "rows long, bytes long").collect()
    assert sum(b.rows for b in batches) == rows
    assert len(batches) >= 3
    # a batch ends at the row that reaches the limit
    assert max(b.bytes for b in batches) <= ARROW_BATCH_BYTES + 2 * payload
