"""ROW_NUMBER() in STREAMING mode over a converted stream (parallelism 1): Flink's Top-N
changelog as rows arrive and displace others. With the rank number each rank that moves is a
-U / +U at that rank and a growing rank a +I (a row tied with the last rank when the ranks are
full is not taken in); without it the row that falls out is a -D; ranks from 2 emit only their
ranks; NULL sorts last for DESC unless NULLS FIRST; a top 1 (rn = 1) keeps the first of ties;
no rank end fails when run with Flink's words. Collected with row kinds and as
to_changelog_stream."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection([('a', 3, 1), ('a', None, 2), ('b', 5, 3), ('a', 5, 4), ('a', 7, 5),
                          ('b', 2, 6), ('a', 9, 7), ('a', 7, 8), ('b', 8, 9), ('a', 5, 10)],
                         type_info=Types.ROW_NAMED(['k', 'v', 'n'],
                                                   [Types.STRING(), Types.INT(), Types.INT()]))
t_env.create_temporary_view("t", ds)
inner = "SELECT k, v, n, ROW_NUMBER() OVER (%s) AS rn FROM t"
by_k = "PARTITION BY k ORDER BY v DESC"
for q in ["SELECT k, v, rn FROM (%s) WHERE rn <= 2" % (inner % by_k),
          "SELECT k, v, n FROM (%s) WHERE rn < 3" % (inner % by_k),
          "SELECT rn, n AS m FROM (%s) WHERE rn BETWEEN 2 AND 3"
          % (inner % "ORDER BY v DESC NULLS FIRST"),
          "SELECT k, v FROM (%s) WHERE rn > 2" % (inner % by_k)]:
    print(q)
    table = t_env.sql_query(q)
    table.print_schema()
    try:
        with table.execute().collect() as rows:
            for r in rows:
                print(r.get_row_kind(), repr(r))
    except Exception as e:
        print(type(e).__name__, [line.split('TableException: ')[-1]
                                 for line in str(e).split('\n') if 'Rank end' in line][0])
top_1 = t_env.sql_query("SELECT k, n FROM (%s) WHERE rn = 1" % (inner % by_k))
changes = t_env.to_changelog_stream(top_1)
changes.map(lambda r: '%s %r' % (r.get_row_kind(), r), output_type=Types.STRING()).print()
env.execute("top_n_streaming")
