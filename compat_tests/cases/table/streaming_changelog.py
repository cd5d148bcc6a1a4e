"""Group-by aggregates over a converted stream in STREAMING mode: Flink's changelog, in input
order at parallelism 1: a group's first row +I, then -U (old) / +U (new) per row that changes
its result, nothing when the result stays the same; collected with row kinds and as
to_changelog_stream into the DataStream job."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection([('a', 3), ('b', 1), ('a', 2), ('a', 5), ('b', 1), ('c', 4), ('a', 5)],
                         type_info=Types.ROW_NAMED(['k', 'v'], [Types.STRING(), Types.INT()]))
t_env.create_temporary_view("t", ds)
for q in ["SELECT k, MAX(v) AS m FROM t GROUP BY k",
          "SELECT k, COUNT(*) AS c, SUM(v) AS s FROM t GROUP BY k",
          "SELECT COUNT(*) AS c, MIN(v) AS lo FROM t",
          "SELECT v, COUNT(*) AS c FROM t WHERE k <> 'c' GROUP BY v",
          "SELECT DISTINCT k FROM t",
          "SELECT UPPER(k) AS u, SUM(v) * 2 AS s2 FROM t GROUP BY UPPER(k)"]:
    print(q)
    table = t_env.sql_query(q)
    table.print_schema()
    with table.execute().collect() as rows:
        for r in rows:
            print(r.get_row_kind(), repr(r))
print(t_env.sql_query("SELECT k, MAX(v) AS m FROM t GROUP BY k").to_pandas())
changes = t_env.to_changelog_stream(t_env.sql_query("SELECT k, SUM(v) AS s FROM t GROUP BY k"))
changes.map(lambda r: '%s %r' % (r.get_row_kind(), r), output_type=Types.STRING()).print()
env.execute("streaming_changelog")
