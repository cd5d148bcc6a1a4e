"""Boundary rows to an Arrow batch (spark/batch_schema.py rows_to_batch): laid into Arrow
buffers directly, the same batch pa.array() makes, without importing pandas."""
import subprocess
import sys

import pyarrow as pa
import pytest

from pyflink_on_spark.runtime.boundary import row_order
from pyflink_on_spark.spark.batch_schema import ARROW_SCHEMA, rows_to_batch


def _by_pyarrow(rows):
    columns = [list(c) for c in zip(*rows)]
    if len(columns) < 7:
        columns.append([row_order(row) for row in rows])
    return pa.RecordBatch.from_arrays(
        [pa.array(columns[i], type=ARROW_SCHEMA.field(i).type) for i in range(7)],
        schema=ARROW_SCHEMA)


def test_rows_with_order_make_the_batch_pyarrow_makes():
    rows = [(0, 1, 2, 2 ** 40 + i, 3, b"x" * i, b"o" * (i % 3)) for i in range(50)]
    batch = rows_to_batch(rows)
    assert batch.equals(_by_pyarrow(rows))
    assert batch.column(3).to_pylist()[-1] == 2 ** 40 + 49
    assert batch.column(5).to_pylist()[7] == b"x" * 7
    assert batch.column(6).to_pylist()[:3] == [b"", b"o", b"oo"]


def test_rows_without_order_get_their_row_order():
    rows = [(1, 0, 0, 5, 0, b"payload"), (1, 1, 0, 6, 0, b"")]
    batch = rows_to_batch(rows)
    assert batch.equals(_by_pyarrow(rows))
    assert batch.column(6).to_pylist() == [row_order(r) for r in rows]


def test_no_rows_make_an_empty_batch():
    batch = rows_to_batch([])
    assert batch.num_rows == 0 and batch.schema.equals(ARROW_SCHEMA)


def test_an_out_of_range_integer_is_an_error():
    with pytest.raises(OverflowError):
        rows_to_batch([(2 ** 31, 0, 0, 0, 0, b"", b"")])


def test_rows_to_batch_does_not_import_pandas():
    # pa.array() of a Python sequence imports pandas (0.1-0.3 s in each Python worker)
    code = ("import sys\n"
            "from pyflink_on_spark.spark.batch_schema import rows_to_batch\n"
            "rows_to_batch([(0, 0, 0, 1, 0, b'p', b'o')])\n"
            "print('pandas' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_more_bytes_than_a_binary_column_holds_is_a_clear_error(monkeypatch):
    from pyflink_on_spark.spark import batch_schema
    monkeypatch.setattr(batch_schema, "_MAX_BINARY_BYTES", 10)
    with pytest.raises(ValueError, match=r"bytes of payload in one batch .*\(2 GiB\)"):
        rows_to_batch([(0, 0, 0, 1, 0, b"x" * 11, b"o")])
