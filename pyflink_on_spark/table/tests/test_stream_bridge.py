"""A TableEnvironment's STREAMING grouping query calling a udaf / udtaf runs in the keyed
aggregate through a StreamTableEnvironment sharing its state (table/stream_bridge.py).
Checked without Spark: the table's keyed changelog job, built and not run."""
from pyflink_on_spark.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_on_spark.table.group_aggregates import (BundledGroupAggregate,
                                                     BundledTableAggregate)
from pyflink_on_spark.table.stream_bridge import stream_bridge
from pyflink_on_spark.table.udf import (AggregateFunction, TableAggregateFunction, udaf,
                                        udtaf)


class Total(AggregateFunction):
    def create_accumulator(self):
        return [0]

    def accumulate(self, acc, v):
        acc[0] += v

    def get_value(self, acc):
        return acc[0]


class Both(TableAggregateFunction):
    def create_accumulator(self):
        return [0]

    def accumulate(self, acc, v):
        acc[0] += v

    def emit_value(self, acc):
        yield acc[0]


def _t_env(parallelism=None):
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    if parallelism is not None:
        t_env.get_config().set("parallelism.default", str(parallelism))
    t_env.create_temporary_view("t", t_env.from_elements([(1, 2), (1, 3)], ["k", "v"]))
    t_env.create_temporary_function("total", udaf(
        Total(), result_type=DataTypes.BIGINT(),
        accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT())))
    return t_env


def _keyed_function(table):
    keyed = table._description.keyed_changelog
    assert keyed is not None
    (sink,) = keyed.sinks
    return sink.input.spec.function, keyed


def test_the_bridge_shares_the_environments_state():
    from pyflink_on_spark.table import StreamTableEnvironment
    t_env = _t_env()
    bridge = stream_bridge(t_env)
    assert isinstance(bridge, StreamTableEnvironment) and bridge._env is t_env._env
    t_env.create_temporary_view("u", t_env.from_path("t"))
    assert "u" in bridge.list_temporary_views()     # registered after: seen too
    assert stream_bridge(bridge) is bridge


def test_a_udaf_query_of_a_table_environment_reads_the_keyed_aggregate():
    t_env = _t_env(parallelism=1)
    table = t_env.sql_query("SELECT k, total(v) AS s FROM t GROUP BY k")
    function, keyed = _keyed_function(table)
    assert isinstance(function, BundledGroupAggregate)
    assert [c.name for c in keyed.columns] == ["k", "s"]
    assert keyed.settings.default_parallelism == 1  # the config's parallelism.default
    assert table._t_env is t_env
    assert t_env._env._parallelism is None          # the environment's left as it was


def test_a_udtaf_of_a_table_environment_reads_the_keyed_aggregate():
    from pyflink_on_spark.table.expressions import col
    t_env = _t_env()
    both = udtaf(Both(), result_type=DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT())]),
                 accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))
    table = t_env.from_path("t").group_by(col("k")).flat_aggregate(both(col("v"))) \
        .select(col("*"))
    function, _ = _keyed_function(table)
    assert isinstance(function, BundledTableAggregate)


def test_a_query_without_a_udaf_stays_as_it_is():
    t_env = _t_env(parallelism=1)
    table = t_env.sql_query("SELECT k, SUM(v) AS s FROM t GROUP BY k")
    assert table._description.keyed_changelog is None   # the one-task changelog runs it
