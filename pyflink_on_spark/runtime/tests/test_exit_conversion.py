"""An exit converts values to their declared type (as PyFlink's serializer does at an
unchained boundary); values already of the exact class, in range, pass without a call."""
import pytest

from pyflink_on_spark.common._basic_values import unchanged_when
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.runtime.boundary import loads_records
from pyflink_on_spark.runtime.exits import ExitCollector
from pyflink_on_spark.specs.partitioning import ForwardPartitioning
from pyflink_on_spark.specs.stage import ExitSpec


class Text(str):
    pass


def _through_exit(type_info, values):
    spec = ExitSpec(edge_id=1, source=0, side_tag=None, partitioning=ForwardPartitioning(),
                    target_parallelism=1, target_max_parallelism=128,
                    converter=type_info._python_converter())
    rows = []
    collector = ExitCollector(spec, 0, 1, rows, lambda e: e)
    collector.process_many(values, None)
    collector.flush()
    return [v for row in rows for v in loads_records(row[5])[0]]


@pytest.mark.parametrize("type_info, values, expected", [
    (Types.LONG(), [1, -5, True, 3.7], [1, -5, 1, 3]),
    (Types.INT(), [2 ** 31 - 1, False], [2 ** 31 - 1, 0]),
    (Types.STRING(), ["a", Text("b")], ["a", "b"]),
    (Types.DOUBLE(), [1.5, float("inf")], [1.5, float("inf")]),
    (Types.BOOLEAN(), [True, False], [True, False]),
])
def test_values_leave_as_their_declared_type(type_info, values, expected):
    out = _through_exit(type_info, values)
    assert out == expected
    assert [type(v) for v in out] == [type(v) for v in expected]


@pytest.mark.parametrize("type_info, value, error", [
    (Types.INT(), 2 ** 31, OverflowError),
    (Types.LONG(), -2 ** 63 - 1, OverflowError),
    (Types.LONG(), "7", TypeError),
    (Types.STRING(), 7, TypeError),
])
def test_a_value_the_type_cannot_hold_fails_at_the_exit(type_info, value, error):
    with pytest.raises(error):
        _through_exit(type_info, [value])


def test_basic_converters_name_the_class_they_pass_unchanged_also_in_a_task():
    # a stage's converters reach its tasks cloudpickled, the int converters (closures) by
    # value: the test of what they pass unchanged must survive that
    import cloudpickle
    for type_info, passes, fails in [
            (Types.LONG(), [0, -2 ** 63, 2 ** 63 - 1], [2 ** 63, True, 1.0, "1"]),
            (Types.INT(), [7, -2 ** 31], [2 ** 31, -2 ** 31 - 1]),
            (Types.STRING(), ["", "a"], [b"a", 1, None]),
            (Types.DOUBLE(), [0.5], [1, True])]:
        convert = type_info._python_converter()
        for shipped in (convert, cloudpickle.loads(cloudpickle.dumps(convert))):
            test = unchanged_when(shipped)
            assert [eval(test.format(v="v"), {"v": v}) for v in passes] == [True] * len(passes)
            assert [eval(test.format(v="v"), {"v": v}) for v in fails] == [False] * len(fails)
    assert unchanged_when(lambda v: v) is None


def test_a_tuple_of_another_length_goes_to_the_converter():
    """The loop's test unpacks a declared tuple's fields without len() (runtime/exits/
    loops.py exact_test): a tuple of another length is not exact and the converter decides
    (a longer one cut to the declared fields, a shorter one refused), as before."""
    pair = Types.TUPLE([Types.LONG(), Types.LONG()])
    out = _through_exit(pair, [(1, 2), (1, 2, 3), (True, 5), (4, 5)])
    assert out == [(1, 2), (1, 2), (1, 5), (4, 5)]
    assert [type(v[0]) for v in out] == [int] * 4
    with pytest.raises(ValueError, match="expects 2 fields, got 1"):
        _through_exit(pair, [(1, 2), (1,)])
    single = Types.TUPLE([Types.LONG()])
    assert _through_exit(single, [(7,), (7, 8), (2 ** 70 % 3,)]) == [(7,), (7,), (1,)]
    with pytest.raises(Exception):   # out of LONG's range: not exact, the converter refuses
        _through_exit(single, [(2 ** 70,)])
