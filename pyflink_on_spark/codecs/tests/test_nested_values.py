"""ARRAY / MAP / ROW values between a stream's records, Arrow and the results PyFlink 1.20.5
gives (codecs/nested_values.py; the shapes seen in compat_tests/cases/table/nested_columns.py)."""
import pyarrow as pa

from pyflink_on_spark.codecs.nested_values import (
    arrow_type, arrow_values, collected_converter, is_nested, pandas_converter, stream_values)
from pyflink_on_spark.common.types import Row, RowKind

ROW = "ROW<`p` INT, `q` ARRAY<INT NOT NULL>>"


def test_arrow_types_keep_the_inner_not_nulls():
    assert arrow_type("ARRAY<INT NOT NULL>") == pa.list_(pa.field("element", pa.int32(), False))
    assert arrow_type("MAP<STRING, DOUBLE>") == pa.map_(pa.string(), pa.float64())
    assert arrow_type(ROW) == pa.struct([
        pa.field("p", pa.int32()),
        pa.field("q", pa.list_(pa.field("element", pa.int32(), False)))])
    assert is_nested(ROW) and is_nested("MAP<STRING, INT>") and not is_nested("STRING")


def test_a_streams_values_go_to_arrow_and_back_as_to_data_stream_gives_them():
    values = [Row(1, [2, 3]), None, Row(None, [])]
    column = pa.array(arrow_values(values, ROW), type=arrow_type(ROW))
    back = stream_values(column)
    assert back[0] == Row(p=1, q=[2, 3]) and back[0].as_dict() == {"p": 1, "q": [2, 3]}
    assert back[1] is None and back[2].as_dict() == {"p": None, "q": []}
    maps = [{"u": ["v"]}, {}]
    sql = "MAP<STRING, ARRAY<STRING>>"
    assert stream_values(pa.array(arrow_values(maps, sql), type=arrow_type(sql))) == maps


def test_collect_gives_a_row_as_one_field_holding_its_values_and_floats_as_java_prints_them():
    convert = collected_converter(ROW, lambda f: f)
    row = convert((1, [2]))
    assert len(row) == 1 and row[0] == [1, [2]] and row.get_row_kind() == RowKind.INSERT
    assert convert(None) is None
    floats = collected_converter("ARRAY<FLOAT>", lambda f: None if f is None else round(f, 1))
    assert floats([1.100000023841858, None]) == [1.1, None]


def test_to_pandas_gives_maps_as_lists_of_pairs_at_any_depth():
    assert pandas_converter("MAP<INT NOT NULL, DOUBLE>")({1: 1.5}) == [(1, 1.5)]
    assert pandas_converter("ROW<`m` MAP<STRING, INT>>")({"m": {"a": 1}}) == {"m": [("a", 1)]}
    assert pandas_converter("ARRAY<MAP<STRING, INT>>")([{"a": 1}]) == [[("a", 1)]]
