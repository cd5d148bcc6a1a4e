"""Table.explain / explain_sql / StatementSet.explain (table/explain.py): a string headed as
the shim's plan, with the Flink SQL, the Spark SQL, the inputs and Spark's plan (here a stub
executor stands for Spark); an explain does not fail when Spark cannot plan."""
import pytest

from pyflink_on_spark.table import EnvironmentSettings, TableEnvironment
from pyflink_on_spark.table.explain import HEADER, ExplainDetail
from pyflink_on_spark.table.expressions import col


class _Executor(object):
    plan_error = None

    @classmethod
    def table_plan(cls, description, mode):
        if cls.plan_error is not None:
            raise cls.plan_error
        return "== Physical Plan ==\n(stub, mode %s)" % mode

    @staticmethod
    def table_updates(description):
        return "GROUP BY" in description.query

    @staticmethod
    def table_reads_unbounded(description):
        return False


@pytest.fixture
def t_env(monkeypatch):
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    monkeypatch.setattr(t_env, "_executor", lambda: _Executor)
    _Executor.plan_error = None
    return t_env


def test_table_explain_is_the_shims_plan(t_env):
    table = t_env.from_elements([(1, 'a')], ['id', 's']).where(col('id') > 1)
    text = table.explain()
    assert isinstance(text, str) and text.startswith(HEADER)
    assert "== Flink SQL ==\nSELECT * FROM" in text and "WHERE (`id` > 1)" in text
    assert "== Spark SQL ==\nSELECT * FROM" in text
    assert "rows held by the program (from_elements / from_pandas), 1 rows" in text
    assert text.endswith("== Spark Plan ==\n== Physical Plan ==\n(stub, mode formatted)\n")


def test_extra_details(t_env):
    t_env.create_temporary_view('t', t_env.from_elements([(1, 'a')], ['id', 's']))
    text = t_env.explain_sql("SELECT s, COUNT(*) FROM t GROUP BY s",
                             ExplainDetail.CHANGELOG_MODE, ExplainDetail.ESTIMATED_COST,
                             ExplainDetail.JSON_EXECUTION_PLAN, ExplainDetail.PLAN_ADVICE)
    assert "== Changelog Mode ==\nchangelogMode=[I,UB,UA] (+I, -U, +U rows)" in text
    assert "(stub, mode cost)" in text
    assert "JSON_EXECUTION_PLAN: Flink's JSON execution plan has no counterpart" in text
    assert "PLAN_ADVICE: pyflink_on_spark gives no plan advice" in text
    with pytest.raises(ValueError, match="Unsupported ExplainDetail"):
        t_env.explain_sql("SELECT * FROM t", 7)


def test_an_explain_does_not_fail_when_spark_cannot_plan(t_env):
    _Executor.plan_error = RuntimeError("no Java here\nmore")
    text = t_env.from_elements([(1,)], ['id']).select(col('id')).explain()
    assert "(Spark's plan is not available: RuntimeError: no Java here)" in text


def test_statement_set_and_insert_explains(t_env):
    t_env.execute_sql("CREATE TABLE sink (id BIGINT) WITH ('connector' = 'blackhole')")
    t_env.create_temporary_view('t', t_env.from_elements([(1,)], ['id']))
    statements = t_env.create_statement_set()
    assert statements.explain() == ""      # as PyFlink's
    statements.add_insert_sql("INSERT INTO sink SELECT id FROM t")
    text = statements.explain()
    assert text.startswith(HEADER) and "== INSERT INTO sink ==" in text
    assert "== INSERT INTO sink ==" in t_env.explain_sql("INSERT INTO sink SELECT id FROM t")
    with pytest.raises(NotImplementedError, match="explains queries and INSERT"):
        t_env.explain_sql("DROP TABLE sink")
    from pyflink_on_spark.util.exceptions import TableException
    with pytest.raises(TableException, match="Unsupported operation: org.apache.flink.table."
                                             "operations.ddl.CreateTableOperation"):
        t_env.explain_sql("CREATE TABLE x (a INT) WITH ('connector' = 'blackhole')")
