"""ROW_NUMBER() Top-N in STREAMING mode over an updating input (a grouping subquery) of a
converted stream (parallelism 1): Flink ranks the aggregate's changelog. COUNT DESC moves a
group up as its count grows (UpdatableTopNFunction: -U / +U per rank it passes, a group that
fell past the end still counted), rank 1 of it -U / +U (FastTop1Function); SUM (of negative
and positive values) and COUNT ASC retract and re-rank (RetractableTopNFunction: -D / +I
without rn). Collected with row kinds and as to_retract_stream."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection([('a', 'x', 5), ('a', 'y', 3), ('a', 'x', -4), ('a', 'z', 4),
                          ('b', 'x', 1), ('a', 'w', 2), ('a', 'y', -5), ('a', 'w', -3),
                          ('a', 'w', 6), ('b', 'y', 2), ('a', 'z', 1), ('a', 'z', -10),
                          ('a', 'y', 9), ('b', 'y', 3)],
                         type_info=Types.ROW_NAMED(['k', 'item', 'n'],
                                                   [Types.STRING(), Types.STRING(),
                                                    Types.INT()]))
t_env.create_temporary_view("v", ds)
ranked = ("SELECT %s FROM (SELECT %s, ROW_NUMBER() OVER (PARTITION BY k ORDER BY %s) AS rn "
          "FROM (SELECT k, item, COUNT(*) AS cnt, SUM(n) AS s FROM v GROUP BY k, item)) "
          "WHERE %s")
for q in [ranked % ("*", "k, cnt", "cnt DESC", "rn <= 2"),
          ranked % ("k, item", "k, item, cnt", "cnt DESC", "rn = 1"),
          ranked % ("k, item, s", "k, item, s", "s DESC", "rn <= 2"),
          ranked % ("*", "k, item, s", "s ASC", "rn BETWEEN 2 AND 3")]:
    print(q)
    table = t_env.sql_query(q)
    table.print_schema()
    with table.execute().collect() as rows:
        for r in rows:
            print(r.get_row_kind(), repr(r))
by_count = t_env.sql_query(ranked % ("k, item, rn", "k, item, cnt", "cnt ASC", "rn <= 2"))
t_env.to_retract_stream(by_count, Types.ROW_NAMED(['k', 'item', 'rn'], [
    Types.STRING(), Types.STRING(), Types.LONG()])).map(
    lambda r: repr(r), output_type=Types.STRING()).print()
env.execute("top_n_updating")
