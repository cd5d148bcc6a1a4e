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


@pytest.mark.parametrize("field", [Types.STRING(), Types.BIG_DEC(), Types.BIG_INT(),
                                   Types.SQL_DATE(), Types.SQL_TIME(), Types.SQL_TIMESTAMP()])
def test_a_null_tuple_field_java_takes_is_kept_and_named_for_python_operators(field):
    # seen on PyFlink 1.20.5: from_collection runs, print shows null, a map fails the job
    from pyflink_on_spark.common._collection_values import python_input_error
    declared = Types.TUPLE([Types.INT(), field])
    values = [collection_element(declared, v) for v in [(1, None)]]
    assert values == [(1, None)]
    assert "field 1 is null" in python_input_error(declared, values)
    assert declared._java_str(values[0]) == "(1,null)"


@pytest.mark.parametrize("field", [Types.INT(), Types.LONG(), Types.DOUBLE(), Types.BOOLEAN(),
                                   Types.CHAR(), Types.PICKLED_BYTE_ARRAY(),
                                   Types.LIST(Types.INT()), Types.ROW([Types.INT()])])
def test_a_null_tuple_field_of_other_types_fails_from_collection(field):
    with pytest.raises(TypeError, match="Field 1 is null"):
        collection_element(Types.TUPLE([Types.INT(), field]), (1, None))


def test_values_without_java_nulls_reach_python_operators():
    from pyflink_on_spark.common._collection_values import python_input_error
    declared = Types.TUPLE([Types.INT(), Types.STRING()])
    assert python_input_error(declared, [(1, "a")]) is None
    assert python_input_error(Types.ROW([Types.INT(), Types.STRING()]), [(1, None)]) is None
