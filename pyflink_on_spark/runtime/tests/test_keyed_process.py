"""KeyedProcessOperator's per-record path, without Spark."""
from pyflink_on_spark.datastream.functions import (
    KeyedProcessFunction, KeySelector, wrap_key_selector)
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.testing import OperatorHarness


class Count(KeyedProcessFunction):
    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("n", None))

    def process_element(self, value, ctx):
        n = (self.count.value() or 0) + 1
        self.count.update(n)
        if n > 1:  # the first record of a key yields nothing (a generator that ends at once)
            yield ctx.get_current_key(), n


class FirstLetter(KeySelector):
    def get_key(self, value):
        return value[0]


def _run(key_selector, values):
    harness = OperatorHarness(KeyedProcessOperator(Count(), key_selector), name="k")
    harness.elements((value, None) for value in values).close()
    return harness.values()


def test_key_selector_class_and_plain_function_key_the_same_way():
    values = ["apple", "avocado", "banana", "apricot", "blueberry"]
    expected = [("a", 2), ("a", 3), ("b", 2)]
    assert _run(FirstLetter(), values) == expected
    assert _run(wrap_key_selector(lambda v: v[0]), values) == expected


def test_a_function_returning_none_or_a_list_emits_accordingly():
    class ListOrNone(KeyedProcessFunction):
        def process_element(self, value, ctx):
            return [value, value * 10] if value % 2 else None

    harness = OperatorHarness(
        KeyedProcessOperator(ListOrNone(), wrap_key_selector(lambda v: v % 3)), name="k")
    harness.elements([(1, 5), (2, None), (3, 7)])
    assert harness.out == [(1, 5), (10, 5), (3, 7), (30, 7)]
