"""KeyedProcessOperator's per-record path, without Spark."""
from pyflink_on_spark.datastream.functions import (
    KeyedProcessFunction, KeySelector, wrap_key_selector)
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.runtime.context import TaskContext
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.output import Output


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
    records = []
    output = Output()
    output.add_main_target(lambda v, ts: records.append(v), lambda wm: None)
    operator = KeyedProcessOperator(Count(), key_selector)
    operator.setup(output, TaskContext(task_name="k", subtask_index=0, parallelism=1,
                                       max_parallelism=128), "k")
    operator.prepare()
    operator.open()
    for value in values:
        operator.process_element(value, None)
    operator.close()
    return records


def test_key_selector_class_and_plain_function_key_the_same_way():
    values = ["apple", "avocado", "banana", "apricot", "blueberry"]
    expected = [("a", 2), ("a", 3), ("b", 2)]
    assert _run(FirstLetter(), values) == expected
    assert _run(wrap_key_selector(lambda v: v[0]), values) == expected


def test_a_function_returning_none_or_a_list_emits_accordingly():
    class ListOrNone(KeyedProcessFunction):
        def process_element(self, value, ctx):
            return [value, value * 10] if value % 2 else None

    records = []
    output = Output()
    output.add_main_target(lambda v, ts: records.append((v, ts)), lambda wm: None)
    operator = KeyedProcessOperator(ListOrNone(), wrap_key_selector(lambda v: v % 3))
    operator.setup(output, TaskContext(task_name="k", subtask_index=0, parallelism=1,
                                       max_parallelism=128), "k")
    operator.prepare()
    operator.open()
    for value, ts in [(1, 5), (2, None), (3, 7)]:
        operator.process_element(value, ts)
    assert records == [(1, 5), (10, 5), (3, 7), (30, 7)]
