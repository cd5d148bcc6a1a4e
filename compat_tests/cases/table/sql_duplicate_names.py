"""A SQL query's result columns of one name: Flink keeps the first and names a later one
with the first free numbered suffix (k, k0, k1...; k00 when k0 is taken), stars and joins
too, in BATCH and STREAMING mode; a subquery's names stay as they are. An unnamed item is
EXPR$<ordinal>, counting a star's columns, and in an aggregating select the distinct names
before it."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.create_temporary_view("t", t_env.from_elements([("a", 1), ("b", 2)], ["k", "v"]))
for query in ["SELECT k, * FROM t", "SELECT k, k, k, k FROM t", "SELECT v AS k, k FROM t",
              "SELECT k, v, k AS v FROM t", "SELECT *, v + 1 AS v FROM t",
              "SELECT k, v AS k1, k, k FROM t", "SELECT k, UPPER(k) AS K FROM t",
              "SELECT v AS EXPR$1, UPPER(k), k FROM t",
              "SELECT k, k, k0 FROM (SELECT k, v AS k0 FROM t)",
              "SELECT * FROM t t1 JOIN t t2 ON t1.k = t2.k",
              "SELECT t2.*, t1.k FROM t t1 JOIN t t2 ON t1.k = t2.k",
              "SELECT k, k FROM t UNION ALL SELECT UPPER(k), k FROM t",
              "SELECT k0 FROM (SELECT k, k FROM t)",
              "SELECT *, UPPER(k) FROM t", "SELECT k, COUNT(*), k, SUM(v) FROM t GROUP BY k",
              "SELECT k, v AS k, COUNT(*) FROM t GROUP BY k, v",
              "SELECT k AS EXPR$1, COUNT(*), SUM(v) FROM t GROUP BY k",
              "SELECT COUNT(*), SUM(v) AS EXPR$0, MAX(v) FROM t"]:
    try:
        table = t_env.sql_query(query)
        with table.execute().collect() as rows:
            print(query, "->", table.get_schema().get_field_names(),
                  sorted(str(r) for r in rows))
    except Exception as e:
        print(query, "-> refused:", "Column 'k0' not found in any table" in str(e))

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
s_env = StreamTableEnvironment.create(env)
s_env.create_temporary_view("s", s_env.from_data_stream(env.from_collection(
    [("a", 1), ("b", 2), ("a", 3)],
    Types.ROW_NAMED(["k", "v"], [Types.STRING(), Types.INT()]))))
table = s_env.sql_query("SELECT k, k, SUM(v) AS s FROM s GROUP BY k")
print(table.get_schema().get_field_names())
with s_env.to_changelog_stream(table).execute_and_collect() as rows:
    print(sorted(str(r) for r in rows))
