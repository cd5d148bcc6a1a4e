"""Filters over a grouping query's changelog in STREAMING mode (bounded stream, parallelism 1):
Table.where / filter, SQL WHERE over the grouping query as a subquery, HAVING (on a selected
aggregate, and on ones the select list does not read), a filter on the group key, a select
of a filter and of an alias of a select. Each change row that fails the filter is dropped on
its own: +U with no +I before it when a group enters the range, -U with no +U after it when
it leaves (not turned into +I / -D); a HAVING on an unread aggregate gives -U / +U pairs of
equal rows. to_changelog_stream, execute(), to_pandas(), to_retract_stream; BATCH mode's
final rows."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment, TableEnvironment
from pyflink.table.expressions import col

data = [('a', 1), ('b', 2), ('a', 3), ('a', 4), ('b', 5), ('a', 2), ('c', 1)]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection(data, type_info=Types.ROW_NAMED(['k', 'v'],
                                                         [Types.STRING(), Types.INT()]))
t_env.create_temporary_view("v", t_env.from_data_stream(ds))
counts = t_env.sql_query("SELECT k, COUNT(*) AS c, SUM(v) AS s FROM v GROUP BY k")
t_env.create_temporary_view("g", counts)
maxes = t_env.sql_query("SELECT k, MAX(v) AS m, COUNT(*) AS c FROM v GROUP BY k")
where = counts.where(col('c') > 1)
tables = [
    ("where", where),
    ("range", counts.filter((col('s') > 3) & (col('s') < 9)).select(col('k'), col('s'))),
    ("sql", t_env.sql_query(
        "SELECT k, c FROM (SELECT k, COUNT(*) AS c FROM v GROUP BY k) WHERE c > 1")),
    ("having", t_env.sql_query(
        "SELECT k, COUNT(*) AS c FROM v GROUP BY k HAVING COUNT(*) > 1")),
    ("having_unread", t_env.sql_query(
        "SELECT k, MAX(v) AS m FROM v GROUP BY k HAVING SUM(v) > 2 * COUNT(*) AND k <> 'c'")),
    ("key", t_env.sql_query("SELECT * FROM g WHERE k <> 'a'")),
    ("max_key", maxes.where(col('m') > 2).select(col('k'))),
    ("select_of_alias", counts.select(col('k'), col('c') + 1).alias('x', 'y')
     .select(col('y'), col('x'))),
]
for name, table in tables:
    print(name)
    table.print_schema()
    with t_env.to_changelog_stream(table).execute_and_collect() as rows:
        for r in rows:
            print(r.get_row_kind(), repr(r))
print("execute")
with where.execute().collect() as rows:
    for r in rows:
        print(r.get_row_kind(), repr(r))
print(where.to_pandas())
with t_env.to_retract_stream(where, Types.ROW_NAMED(
        ['k', 'c', 's'], [Types.STRING(), Types.LONG(), Types.INT()])).execute_and_collect() \
        as pairs:
    for p in pairs:
        print(repr(p))
print("batch")
b_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
b_env.create_temporary_view("v", b_env.from_elements(data, ['k', 'v']))
b_counts = b_env.sql_query("SELECT k, COUNT(*) AS c, SUM(v) AS s FROM v GROUP BY k")
for table in (b_counts.where(col('c') > 1), b_env.sql_query(
        "SELECT k, COUNT(*) AS c FROM v GROUP BY k HAVING COUNT(*) > 1")):
    with table.execute().collect() as rows:
        for r in sorted(rows, key=repr):
            print(r.get_row_kind(), repr(r))
