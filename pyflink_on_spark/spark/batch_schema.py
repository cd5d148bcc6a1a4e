"""The one schema of every stage boundary: a row is a chunk of records for one subtask."""
from __future__ import annotations

from typing import List

import pyarrow as pa
from pyspark.sql.types import (BinaryType, IntegerType, LongType, StructField, StructType)

SPARK_SCHEMA = StructType([
    StructField("edge", IntegerType(), False),
    StructField("dest", IntegerType(), False),
    StructField("src", IntegerType(), False),
    StructField("seq", LongType(), False),
    StructField("kind", IntegerType(), False),
    StructField("payload", BinaryType(), False),
])

ARROW_SCHEMA = pa.schema([
    pa.field("edge", pa.int32(), False),
    pa.field("dest", pa.int32(), False),
    pa.field("src", pa.int32(), False),
    pa.field("seq", pa.int64(), False),
    pa.field("kind", pa.int32(), False),
    pa.field("payload", pa.binary(), False),
])


def rows_to_batch(rows: List[tuple]) -> pa.RecordBatch:
    columns = list(zip(*rows))
    return pa.RecordBatch.from_arrays(
        [pa.array(columns[i], type=ARROW_SCHEMA.field(i).type) for i in range(6)],
        schema=ARROW_SCHEMA)
