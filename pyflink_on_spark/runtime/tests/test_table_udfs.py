"""Python user-defined functions as a task runs them (runtime/table_udfs.py): results
converted as PyFlink 1.20.5's coders convert them, open / close once, the user's traceback
on an error."""
import pytest

from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.table_udfs import (AggregateRunner, ScalarRunner, TableRunner,
                                                 result_converter)
from pyflink_on_spark.table.udf import (AggregateFunction, DelegatingScalarFunction,
                                        DelegationTableFunction, ScalarFunction)


def test_results_convert_as_pyflinks_coders_do():
    to_bigint, to_int = result_converter("BIGINT"), result_converter("INT")
    assert to_bigint(2.7) == 2 and to_bigint(None) is None and to_int(-5) == -5
    assert result_converter("DOUBLE")(3) == 3.0
    with pytest.raises(OverflowError, match="value too large to convert to int32_t"):
        to_int(2 ** 40)
    with pytest.raises(TypeError, match="an integer is required"):
        to_int("oops")
    with pytest.raises(AttributeError, match="'int' object has no attribute 'encode'"):
        result_converter("STRING")(5)
    assert result_converter("VARCHAR(3)")("abc") == "abc"


class _Counting(ScalarFunction):
    def __init__(self):
        self.calls = []

    def open(self, context):
        self.calls.append(("open", context.get_job_parameter("k", "none"),
                           context.get_job_parameter("x", "default")))

    def eval(self, a, b):
        return None if a is None else a + b

    def close(self):
        self.calls.append("close")


def test_a_scalar_function_opens_once_sees_none_for_null_and_closes():
    f = _Counting()
    runner = ScalarRunner(f, "add", "INT", (("k", "v"),))
    assert runner.call([[1, None, 3], [10, 20, 30]]) == [11, None, 33]
    assert runner.call([[2], [2]]) == [4]
    runner.close()
    assert f.calls == [("open", "v", "default"), "close"]


def test_an_error_carries_the_users_traceback_from_the_users_frame():
    def boom(x):
        raise ValueError("boom %s" % x)
    runner = ScalarRunner(DelegatingScalarFunction(boom), "boom", "INT")
    with pytest.raises(UserFunctionError) as raised:
        runner.call([[7]])
    text = str(raised.value)
    assert "ValueError raised in operator 'boom'" in text and "ValueError: boom 7" in text
    assert text.split("Traceback (most recent call last):\n")[1].lstrip().startswith(
        'File "%s"' % __file__)
    with pytest.raises(UserFunctionError, match="an integer is required"):
        ScalarRunner(DelegatingScalarFunction(lambda x: "s"), "f", "INT").call([[1]])


def test_a_table_function_gives_each_rows_rows():
    def words(s):
        if s is not None:
            for w in s.split(" "):
                yield w, len(w)
    runner = TableRunner(DelegationTableFunction(words), "words", ["STRING", "INT"])
    assert runner.call([["a bb", None]]) == [[("a", 1), ("bb", 2)], []]
    single = TableRunner(DelegationTableFunction(lambda n: range(n)), "r", ["BIGINT"])
    assert single.call([[2, 0]]) == [[(0,), (1,)], []]


def test_an_aggregate_function_folds_a_groups_rows():
    class Total(AggregateFunction):
        def create_accumulator(self):
            return [0]

        def accumulate(self, acc, x):
            if x is not None:
                acc[0] += x

        def get_value(self, acc):
            return acc[0]
    runner = AggregateRunner(Total(), "total", "BIGINT")
    assert runner.aggregate([[1, None, 5]]) == 6 and runner.aggregate([[]]) == 0


def test_a_pandas_function_takes_a_batchs_series():
    import pandas as pd
    from pyflink_on_spark.runtime.table_udfs import PandasScalarRunner
    runner = PandasScalarRunner(DelegatingScalarFunction(lambda a, b: a + b), "add", "DOUBLE")
    assert runner.call_series([pd.Series([1.0, None, 3.0]), pd.Series([1, 2, 3])], 3) == \
        [2.0, None, 6.0]
    short = PandasScalarRunner(DelegatingScalarFunction(lambda a: a[:1]), "cut", "BIGINT")
    with pytest.raises(UserFunctionError, match="gave 1 results for 2 rows"):
        short.call_series([pd.Series([1, 2])], 2)


def test_a_pandas_aggregate_function_takes_a_groups_series():
    import pandas as pd
    runner = AggregateRunner(DelegatingScalarFunction(lambda s: s.mean()), "mean", "DOUBLE")
    assert runner.aggregate_series([pd.Series([1.0, None, 5.0])]) == 3.0
    assert runner.aggregate_series([pd.Series([], dtype=float)]) is None


def test_a_flat_map_function_takes_each_row_as_one_row_and_may_yield_rows():
    from pyflink_on_spark.common.types import Row

    def split(line):
        for s in line.text.split():
            yield Row(s)
    runner = TableRunner(DelegationTableFunction(split), "split", ["STRING"], (), ["id", "text"])
    assert runner.call([[1, 2], ["a b", "c"]]) == [[("a",), ("b",)], [("c",)]]


def test_a_pandas_map_takes_a_batch_as_one_frame_or_its_arguments_as_series():
    import pandas as pd
    from pyflink_on_spark.runtime.table_udfs import PandasMapRunner
    seen = []

    def frame(df):
        seen.append(list(df.columns))
        return pd.concat([df.a * 10, df.b.str.upper()], axis=1)
    runner = PandasMapRunner(DelegatingScalarFunction(frame), "frame", ["BIGINT", "STRING"], (),
                             ["a", "b"])
    # each input row its one row; NaN and None are NULL
    assert runner.call_frames([pd.Series([1, 2]), pd.Series(["x", None])], 2) == \
        [[(10, "X")], [(20, None)]]
    assert seen == [["a", "b"]]
    called = PandasMapRunner(DelegatingScalarFunction(lambda a, c: pd.concat([a + 1, c * 2],
                                                                             axis=1)),
                             "called", ["BIGINT", "DOUBLE"])
    assert called.call_frames([pd.Series([1, 2]), pd.Series([2.5, None])], 2) == \
        [[(2, 5.0)], [(3, None)]]
    one = PandasMapRunner(DelegatingScalarFunction(lambda a: a * 2), "one", ["BIGINT"])
    assert one.call_frames([pd.Series([4])], 1) == [[(8,)]]


def test_a_pandas_map_of_the_wrong_shape_fails_naming_the_function():
    import pandas as pd
    from pyflink_on_spark.runtime.table_udfs import PandasMapRunner
    short = PandasMapRunner(DelegatingScalarFunction(lambda a: a[:1]), "cut", ["BIGINT"])
    with pytest.raises(UserFunctionError, match="gave 1 rows for 2 rows"):
        short.call_frames([pd.Series([1, 2])], 2)
    narrow = PandasMapRunner(DelegatingScalarFunction(lambda a: pd.concat([a], axis=1)),
                             "narrow", ["BIGINT", "STRING"])
    with pytest.raises(UserFunctionError, match="gave a row of 1 fields for 2 declared"):
        narrow.call_frames([pd.Series([1])], 1)
