"""Driver rows read back in slices (spark/driver_rows.py `sliced_rows`, the streaming
executor's and Spark Connect's path): every row, in partition order, however the output
compares with a slice; an empty output costs no read job, an output of at most one slice
one read job over all partitions (each Spark job is a fixed cost of every micro-batch)."""
import pytest

from pyflink_on_spark.spark.driver_rows import sliced_rows
from pyflink_on_spark.spark.progress import job_group, new_group_id

PARTITIONS = 3


def _frame(spark, rows):
    return spark.sparkContext.parallelize(rows, PARTITIONS).toDF("edge int, payload binary")


def _read(spark, rows, slice_rows):
    """(rows read, Spark jobs run to read them)."""
    context = spark.sparkContext
    group = new_group_id("sliced rows test")
    with job_group(context, group, "sliced rows test"):
        read = list(sliced_rows(_frame(spark, rows), slice_rows))
    return read, len(context.statusTracker().getJobIdsForGroup(group))


def _rows(n):
    return [(i % 4, b"v%d" % i) for i in range(n)]


@pytest.mark.parametrize("n, slice_rows", [(0, 4), (5, 4), (3, 4), (4, 4), (11, 2),
                                           (30, 4)])
def test_every_row_in_partition_order(spark, n, slice_rows):
    rows = _rows(n)
    read, _ = _read(spark, rows, slice_rows)
    assert read == rows   # parallelize keeps the list's order across its partitions


def test_read_jobs_empty_one_slice_and_more(spark):
    _, empty_jobs = _read(spark, [], 4)
    _, one_slice_jobs = _read(spark, _rows(4), 4)
    _, sliced_jobs = _read(spark, _rows(9), 2)
    # 9 rows in 3 partitions of 3 rows, slices of 2: two slices per partition
    assert one_slice_jobs == empty_jobs + 1
    assert sliced_jobs == empty_jobs + 2 * PARTITIONS
