"""Table methods as PyFlink's basic_operations example calls them (the Flink SQL they write,
without Spark): distinct() names its columns (a STREAMING changelog keys its groups by the
select's items; a star failed in Spark), join_lateral of a table function not called gives
it each row, as flat_map does."""
from pyflink_on_spark.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink_on_spark.table.udf import udtf


def test_distinct_names_its_columns():
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    table = t_env.from_elements([(1, 'a')], ['id', 's'])
    distinct = table.select(table.s).distinct()
    assert distinct._description.flink_query.startswith("SELECT DISTINCT `s` FROM ")
    assert [c.name for c in distinct._resolved_columns()] == ['s']


def test_join_lateral_of_a_table_function_not_called_takes_each_row():
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    table = t_env.from_elements([(1, 'a')], ['id', 's'])

    @udtf(result_types=[DataTypes.STRING()])
    def split(r):
        yield r.s

    joined = table.join_lateral(split.alias('a'))
    assert [c.name for c in joined._resolved_columns()] == ['id', 's', 'a']
    assert "(`id`, `s`)) AS lateral_table(`a`)" in joined._description.flink_query
