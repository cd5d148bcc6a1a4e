"""Table.explain / TableEnvironment.explain_sql / StatementSet.explain: a str of '== ... =='
sections on both (the plans themselves differ: Flink's optimizer text, the shim's Spark SQL
and Spark plan, docs/table.md), with ExplainDetail extras accepted; an empty statement set
explains as ''; explain_sql of CREATE TABLE fails with Flink's TableException."""
from pyflink.table import EnvironmentSettings, ExplainDetail, TableEnvironment
from pyflink.table.expressions import col

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set('parallelism.default', '1')
t_env.create_temporary_view('t', t_env.from_elements([(1, 'a'), (2, 'b')], ['id', 's']))
t_env.execute_sql("CREATE TABLE sink (id BIGINT, s STRING) WITH ('connector' = 'blackhole')")
texts = [t_env.from_path('t').where(col('id') > 1).explain(),
         t_env.sql_query("SELECT s, COUNT(*) FROM t GROUP BY s").explain(
             ExplainDetail.CHANGELOG_MODE, ExplainDetail.ESTIMATED_COST),
         t_env.explain_sql("SELECT * FROM t", ExplainDetail.JSON_EXECUTION_PLAN),
         t_env.explain_sql("INSERT INTO sink SELECT * FROM t", ExplainDetail.PLAN_ADVICE)]
statements = t_env.create_statement_set()
print(repr(statements.explain()))
statements.add_insert_sql("INSERT INTO sink SELECT * FROM t")
texts.append(statements.explain())
for text in texts:
    print(type(text).__name__, text.startswith('== '), text.count('\n') > 3)
try:
    t_env.explain_sql("CREATE TABLE x (a INT) WITH ('connector' = 'blackhole')")
except Exception as e:
    print(type(e).__name__, str(e).split('\n')[0])
