"""Renames and projections of a grouping query over a bounded stream in STREAMING mode:
Table.alias, select of renamed / reordered columns and an expression, rename_columns, SQL
over a view of it. Each is the grouping query's changelog (-U / +U pairs) under the new
names, in the same order at parallelism 1, of the aggregates the projection reads (Flink
prunes the others: a select of the key alone is +I per key, a MAX read without the COUNT
beside it emits nothing when only the count changed): through to_changelog_stream (execute() and
to_pandas() of two of them, to_retract_stream of the alias)."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection([('a', 1), ('b', 2), ('a', 3), ('a', 4), ('b', 5), ('a', 2)],
                         type_info=Types.ROW_NAMED(['k', 'v'], [Types.STRING(), Types.INT()]))
t_env.create_temporary_view("v", t_env.from_data_stream(ds))
counts = t_env.sql_query("SELECT k, COUNT(*) AS c FROM v GROUP BY k")
t_env.create_temporary_view("g", counts)
maxes = t_env.sql_query("SELECT k, MAX(v) AS m, COUNT(*) AS c FROM v GROUP BY k")
tables = [("alias", counts.alias('a', 'b')),
          ("select", counts.select(col('c'), col('k').alias('a'))),
          ("expression", counts.select(col('k'), col('c') + 1)),
          ("rename_columns", counts.rename_columns(col('k').alias('a'))),
          ("sql", t_env.sql_query("SELECT k AS a, c FROM g")),
          ("keys", counts.select(col('k'))),
          ("max", maxes.select(col('m'), col('k')))]
for name, table in tables:
    print(name)
    table.print_schema()
    if name in ("alias", "select"):
        with table.execute().collect() as rows:
            for r in rows:
                print(r.get_row_kind(), repr(r))
        print(table.to_pandas())
    with t_env.to_changelog_stream(table).execute_and_collect() as rows:
        for r in rows:
            print(r.get_row_kind(), repr(r))
with t_env.to_retract_stream(counts.alias('a', 'b'), Types.ROW_NAMED(
        ['x', 'y'], [Types.STRING(), Types.LONG()])).execute_and_collect() as pairs:
    for p in pairs:
        print(repr(p))
