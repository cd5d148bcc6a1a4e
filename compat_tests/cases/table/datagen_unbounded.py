"""An unbounded datagen table (random fields, no number-of-rows: PyFlink's streaming word
count example reads one) at parallelism 2 and 40 rows a second: a stateless query over it ->
to_data_stream -> a map, and the table itself -> to_append_stream -> a map, the two unioned
and read through execute_and_collect(), closed once at least 10 rows of each came (which
cancels the job).
Random values are checked by what PyFlink guarantees: an INT field with min = max is that
value, a STRING field of length n has n lowercase hex digits, a BOOLEAN is a bool."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
t_env = StreamTableEnvironment.create(env)
t_env.execute_sql("""
    CREATE TABLE clicks (user_id INT, page STRING, flag BOOLEAN, score BIGINT) WITH (
      'connector' = 'datagen', 'rows-per-second' = '40',
      'fields.user_id.min' = '3', 'fields.user_id.max' = '3',
      'fields.page.length' = '6', 'fields.score.min' = '10', 'fields.score.max' = '20')""")
t_env.from_path("clicks").print_schema()

table = t_env.sql_query(
    "SELECT user_id * 10 AS uid, CHAR_LENGTH(page) AS page_len, score BETWEEN 10 AND 20 AS "
    "in_range, page FROM clicks WHERE user_id = 3")
table.print_schema()
# one job: the query's rows and the table's own rows (to_append_stream), read together
queried = t_env.to_data_stream(table).map(
    lambda row: "uid=%d len=%d in_range=%s hex=%s" % (
        row.uid, row.page_len, row.in_range, all(c in "0123456789abcdef" for c in row.page)),
    output_type=Types.STRING())
typed = t_env.to_append_stream(
    t_env.from_path("clicks"),
    Types.ROW([Types.INT(), Types.STRING(), Types.BOOLEAN(), Types.LONG()])) \
    .map(lambda row: "%s %s %s %s" % (type(row[0]).__name__, len(row[1]),
                                      type(row[2]).__name__, 10 <= row[3] <= 20),
         output_type=Types.STRING())
seen = {}
counts = {}
with queried.union(typed).execute_and_collect("clicks") as rows:
    for value in rows:
        kind = value.startswith("uid")
        seen.setdefault(kind, set()).add(value)
        counts[kind] = counts.get(kind, 0) + 1
        if min(counts.get(True, 0), counts.get(False, 0)) >= 10:
            break
for kind in (True, False):
    print(sorted(seen[kind]))
