"""FLOAT values as PyFlink 1.20.5's collect() gives them (table_result.collected_float):
the Python float of Java's Float.toString of the single, read by ast.literal_eval; every
value here was seen on PyFlink 1.20.5 (compat case table/float_results)."""
import struct

import pytest

from pyflink_on_spark.specs.tables import TableColumn
from pyflink_on_spark.table.table_result import TableResult, collected_float, rows_of


def single(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


@pytest.mark.parametrize("value, seen", [
    (1.1, 1.1), (2.2, 2.2), (0.1, 0.1), (1 / 3, 0.33333334), (2 / 3, 0.6666667),
    (3.3000002, 3.3000002), (1e10, 1e10), (1e-5, 1e-05), (-0.0, -0.0), (16777217.0, 16777216.0),
    (1.4e-45, 1.4e-45)])
def test_a_float_is_the_text_java_prints_for_it(value, seen):
    assert collected_float(single(value)) == seen
    assert collected_float(None) is None


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_a_value_without_a_python_literal_fails_as_on_pyflink(value):
    with pytest.raises(ValueError, match="malformed node or string"):
        collected_float(value)


class _Table:
    """What TableResult reads of a Table: its rows and its columns."""

    def __init__(self, rows, columns):
        self.rows, self.columns = rows, columns

    def _rows(self):
        return rows_of(iter(self.rows))

    def _resolved_columns(self):
        return self.columns


def test_collect_converts_the_float_columns_only():
    columns = [TableColumn("k", "INT"), TableColumn("f", "FLOAT"), TableColumn("d", "DOUBLE")]
    rows = [((1, single(1.1), single(1.1)), 0), ((2, None, None), 0)]
    with TableResult(_Table(rows, columns)).collect() as results:
        assert [tuple(r) for r in results] == [(1, 1.1, single(1.1)), (2, None, None)]
