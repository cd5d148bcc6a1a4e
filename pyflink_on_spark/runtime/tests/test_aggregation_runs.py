"""A BATCH sum over a tuple index folds a run of plain tuples in one loop; every other run
takes the record-by-record fold, and both give what PyFlink's sum gives."""
import pytest

from pyflink_on_spark.common import Row
from pyflink_on_spark.runtime.adapters import AggregationAdapter
from pyflink_on_spark.specs.operators import Aggregation


def _adapter(aggregation=Aggregation.SUM, position=1, state=None, count_combines=None):
    adapter = AggregationAdapter(aggregation, position, batch_mode=True)
    adapter.first_value = state   # the key's value before the runs
    if count_combines is not None:
        combine = adapter._combine

        def counted(current, value):
            count_combines.append(1)
            return combine(current, value)
        adapter._combine = counted
    return adapter


def _fold(adapter, *runs):
    """The key's value after these runs, folded as a BATCH operator on sorted input folds
    them (KeyedProcessOperator._fold_key_run)."""
    current = adapter.first_value
    for run in runs:
        current = adapter.fold_values(current, list(run))
    return current


def test_a_run_of_plain_tuples_is_summed_without_a_call_per_record():
    calls = []
    adapter = _adapter(count_combines=calls)
    assert _fold(adapter, [("w", 1, "x"), ("w", 2, "y")], [("w", 4, "z")]) == ("w", 7, "x")
    assert calls == []
    # floats and ints add in record order, as one by one
    adapter = _adapter(position=0)
    assert _fold(adapter, [(0.1,), (0.2,), (3,)]) == ((0.1 + 0.2) + 3,)


@pytest.mark.parametrize("run, expected", [
    # a bool field is summed as _sum sums it (True + 1), through the record-by-record fold
    ([("a", True), ("a", 1)], ("a", 2)),
    # str fields concatenate
    ([("a", "x"), ("a", "y")], ("a", "xy")),
    # a list record keeps being a list
    ([["a", 1], ["a", 2]], ["a", 3]),
])
def test_runs_that_are_not_plain_number_tuples_take_the_record_by_record_fold(run, expected):
    calls = []
    assert _fold(_adapter(count_combines=calls), run) == expected
    assert calls == [1]


def test_a_row_keeps_its_fields_and_kind():
    out = _fold(_adapter(position="n"), [Row(k="a", n=1), Row(k="a", n=5)])
    assert out == Row(k="a", n=6) and out._fields == ["k", "n"]


def test_a_record_without_the_field_fails_with_the_aggregations_message():
    with pytest.raises(IndexError, match="the aggregation's field 3 is not in the record"):
        _fold(_adapter(position=3), [("a", 1), ("a", 2)])


def test_the_stored_value_of_earlier_runs_is_the_start_of_the_next():
    adapter = _adapter(state=("k", 10))
    assert _fold(adapter, [("k", 1)]) == ("k", 11)
    # one record and no stored value: the record itself
    assert _fold(_adapter(), [("k", 1, "first")]) == ("k", 1, "first")
