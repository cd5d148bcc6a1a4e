"""from_elements' row type inference and value checks (table/element_schema.py), without
Spark. The types and texts were seen on PyFlink 1.20.5."""
import datetime
import decimal

import pytest

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.table.columns import row_type_columns
from pyflink_on_spark.table.element_schema import inferred_row_type, row_values, verify_value
from pyflink_on_spark.table.types import DataTypes


def _texts(elements, names=None):
    return [c.text() for c in row_type_columns(inferred_row_type(elements, names))]


def test_python_values_give_flinks_types():
    row = (True, 1, 1.5, "s", bytearray(b"ab"), decimal.Decimal("1.25"),
           datetime.date(2020, 1, 2), datetime.datetime(2020, 1, 2, 3, 4, 5))
    assert _texts([row]) == ["`_1` BOOLEAN", "`_2` BIGINT", "`_3` DOUBLE", "`_4` STRING",
                             "`_5` BYTES", "`_6` DECIMAL(38, 18)", "`_7` DATE",
                             "`_8` TIMESTAMP_LTZ(6)"]


def test_names_fill_with_positions_and_extra_names_are_ignored():
    assert _texts([(1, "x")], ["a"]) == ["`a` BIGINT", "`_2` STRING"]
    assert _texts([(1, "x")], ["a", "b", "c"]) == ["`a` BIGINT", "`b` STRING"]


def test_dicts_are_read_by_sorted_key_and_named_rows_by_their_names():
    assert _texts([{"b": "x", "a": 1}]) == ["`a` BIGINT", "`b` STRING"]
    assert row_values({"b": "x", "a": 1}, 2) == (1, "x")
    assert _texts([Row(k=1, v="x")], ["ignored", "too"]) == ["`k` BIGINT", "`v` STRING"]


def test_none_takes_the_type_of_another_row():
    assert _texts([(1, None), (None, "b")], ["a", "b"]) == ["`a` BIGINT", "`b` STRING"]


@pytest.mark.parametrize("elements, error, text", [
    ([], ValueError, "can not infer schema from empty data set"),
    ([(1, None), (2, None)], ValueError,
     "Some column types cannot be determined after inferring"),
    ([(1,), (2.5,)], TypeError,
     "field a: Can not merge type <class 'pyflink.table.types.BigIntType'> and "
     "<class 'pyflink.table.types.DoubleType'>"),
    ([1, 2], TypeError, "Can not infer schema for type: <class 'int'>"),
    ([(b"ab",)], TypeError, "not supported type: <class 'bytes'>"),
])
def test_what_cannot_be_inferred_is_refused_with_pyflinks_text(elements, error, text):
    with pytest.raises(error) as raised:
        inferred_row_type(elements, ["a"])
    assert str(raised.value) == text


@pytest.mark.parametrize("data_type, value, error, text", [
    (DataTypes.STRING(), 1, TypeError,
     "field a: VARCHAR can not accept object 1 in type <class 'int'>"),
    (DataTypes.INT(), True, TypeError,
     "field a: INT can not accept object True in type <class 'bool'>"),
    (DataTypes.TINYINT(), 1000, ValueError,
     "field a: object of TinyIntType out of range, got: 1000"),
    (DataTypes.INT(False), None, ValueError,
     "field a: This field is not nullable, but got None"),
    (DataTypes.VARCHAR(3), "abcdef", ValueError,
     "field a: length of object (abcdef) of VarCharType exceeds: 3"),
    (DataTypes.BYTES(), b"ab", TypeError,
     "field a: VARBINARY can not accept object b'ab' in type <class 'bytes'>"),
])
def test_values_are_checked_against_a_declared_row(data_type, value, error, text):
    row_type = DataTypes.ROW([DataTypes.FIELD("a", data_type)])
    with pytest.raises(error) as raised:
        verify_value(row_type, (value,))
    assert str(raised.value) == text


def test_a_row_of_another_length_is_refused():
    row_type = DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT())])
    with pytest.raises(ValueError, match=r"^Length of object \(2\) does not match with "
                                         r"length of fields \(1\)$"):
        verify_value(row_type, (1, 2))
    verify_value(row_type, (1,))     # accepted
