"""The one schema of every stage boundary: a row is a chunk of records for one subtask."""
from __future__ import annotations

from array import array
from itertools import accumulate
from typing import List

import pyarrow as pa
from pyflink_on_spark.runtime.boundary import row_order
from pyspark.sql.types import (BinaryType, IntegerType, LongType, StructField, StructType)

SPARK_SCHEMA = StructType([
    StructField("edge", IntegerType(), False),
    StructField("dest", IntegerType(), False),
    StructField("src", IntegerType(), False),
    StructField("seq", LongType(), False),
    StructField("kind", IntegerType(), False),
    StructField("payload", BinaryType(), False),
    StructField("order", BinaryType(), False),
])

ARROW_SCHEMA = pa.schema([
    pa.field("edge", pa.int32(), False),
    pa.field("dest", pa.int32(), False),
    pa.field("src", pa.int32(), False),
    pa.field("seq", pa.int64(), False),
    pa.field("kind", pa.int32(), False),
    pa.field("payload", pa.binary(), False),
    pa.field("order", pa.binary(), False),
])


# array typecodes of the integer columns (edge, dest, src, seq, kind)
_INT_CODES = ((0, "i"), (1, "i"), (2, "i"), (3, "q"), (4, "i"))
_MAX_BINARY_BYTES = 2 ** 31 - 1   # a binary column's int32 offsets


def rows_to_batch(rows: List[tuple]) -> pa.RecordBatch:
    """Boundary rows (runtime/boundary.py; `order` may be left out) as one Arrow batch.

    The columns are laid into Arrow buffers directly (array module, bytes.join) rather than
    through pa.array(): twice as fast, and pa.array() of a Python sequence first asks
    whether it is a pandas object, which imports pandas (0.1-0.3 s in every Python worker's
    first batch; nothing here uses pandas)."""
    columns = list(zip(*rows)) or [()] * 7   # as many columns as the shortest row has
    if len(columns) < 7:
        columns[6:] = [[row_order(row) for row in rows]]
    n = len(rows)
    arrays = [pa.Array.from_buffers(ARROW_SCHEMA.field(i).type, n,
                                    [None, pa.py_buffer(array(code, columns[i]))])
              for i, code in _INT_CODES]
    for i in (5, 6):
        data = b"".join(columns[i])
        if len(data) > _MAX_BINARY_BYTES:
            # (pa.array() would make a ChunkedArray here, which no batch takes either)
            raise ValueError(
                "%d bytes of %s in one batch of stage-boundary rows: more than an Arrow "
                "binary column holds (2 GiB)" % (len(data), ARROW_SCHEMA.field(i).name))
        offsets = array("i", accumulate(map(len, columns[i]), initial=0))
        arrays.append(pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer(offsets),
                                                             pa.py_buffer(data)]))
    return pa.RecordBatch.from_arrays(arrays, schema=ARROW_SCHEMA)


def rows_frame(session, rows):
    """A DataFrame of boundary rows made on the driver (`order` may be left out). Made from
    an Arrow table, which Spark reads into a local relation itself: from a list of tuples,
    pyspark makes a Python RDD, whose tasks need Python workers of their own (a second
    pyspark daemon beside the stages' mapInArrow workers: ~1 s of a cold run's first job,
    and Python tasks in every job's first stage)."""
    rows = list(rows)
    table = pa.Table.from_batches([rows_to_batch(rows)]) if rows \
        else ARROW_SCHEMA.empty_table()
    return session.createDataFrame(table, SPARK_SCHEMA)


def control_rows_frame(session, rows):
    """rows_frame of a few rows for every subtask (presence, ticks), in one partition: a
    local relation of N rows is up to N tasks (one per core), each a scheduling round trip
    before the stage's exchange can finish."""
    return rows_frame(session, rows).coalesce(1)

