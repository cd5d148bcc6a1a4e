"""from_collection's element conversion (what PyFlink's Java side makes of each element),
as observed on PyFlink 1.20.5 (compat case basic/from_collection_values)."""
import pytest

from pyflink_on_spark.common._collection_values import collection_element
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.types import Row


class Sensor:
    def __init__(self, id, vc):
        self.id = id
        self.vc = vc


def test_integers_narrow_as_java_narrows():
    assert collection_element(Types.SHORT(), 43878) == -21658
    assert collection_element(Types.INT(), 9147483648) == 557549056
    assert collection_element(Types.BYTE(), 300) == 44
    assert collection_element(Types.BYTE(), -129) == 127
    assert collection_element(Types.LONG(), -2 ** 63) == -2 ** 63


def test_values_the_java_converter_turns_into_null_fail():
    for type_info, value in [(Types.LONG(), 2 ** 63), (Types.INT(), 2 ** 70),
                             (Types.SHORT(), 3.7), (Types.INT(), True),
                             (Types.DOUBLE(), 5), (Types.FLOAT(), 5), (Types.BOOLEAN(), 1)]:
        with pytest.raises(TypeError, match="from_collection"):
            collection_element(type_info, value)


def test_float_overflows_to_infinity_and_ints_become_their_text():
    assert collection_element(Types.FLOAT(), 1e40) == float("inf")
    assert collection_element(Types.STRING(), 5) == "5"
    assert collection_element(Types.STRING(), True) == "true"


def test_objects_convert_by_attribute_name():
    row = collection_element(Types.ROW_NAMED(["vc", "id", "x"],
                                             [Types.INT(), Types.STRING(), Types.INT()]),
                             Sensor("s1", 43878))
    assert isinstance(row, Row) and row.as_dict() == {"vc": 43878, "id": "s1", "x": None}
    mapped = collection_element(Types.MAP(Types.STRING(), Types.STRING()), Sensor("s1", 1))
    assert mapped == {"id": "s1", "vc": "1", "__class__": "%s.Sensor" % __name__}


def test_lists_are_tuples_and_lengths_must_match():
    assert collection_element(Types.TUPLE([Types.INT(), Types.INT()]), [1, 2]) == (1, 2)
    with pytest.raises(ValueError, match="2 fields are required while 3"):
        collection_element(Types.TUPLE([Types.INT(), Types.INT()]), (1, 2, 3))
    with pytest.raises(TypeError, match="Field 1 is null"):
        collection_element(Types.TUPLE([Types.INT(), Types.INT()]), (1, 2.5))


def test_a_row_field_the_converter_nulls_stays_null():
    row = collection_element(Types.ROW([Types.INT(), Types.STRING()]), (3.5, "x"))
    assert list(row) == [None, "x"]
