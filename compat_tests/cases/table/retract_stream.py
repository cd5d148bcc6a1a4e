"""to_retract_stream: (True, row) for +I / +U, (False, row) for -U, the row named by the type's
fields and keeping its RowKind; of a grouping query in STREAMING mode and of an insert-only
query. Parallelism 1, one job each."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
words = env.from_collection([("a", 1), ("b", 2), ("a", 3), ("a", 0)],
                            type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
t_env.create_temporary_view("words", t_env.from_data_stream(words))
counts = t_env.sql_query("SELECT f0 AS w, COUNT(*) AS n, MAX(f1) AS top FROM words GROUP BY f0")
retract = t_env.to_retract_stream(counts, Types.ROW([Types.STRING(), Types.LONG(), Types.INT()]))
print(retract.get_type())
retract.map(lambda t: "%r %s %s" % (t, type(t).__name__, t[1].get_row_kind()),
            output_type=Types.STRING()).print()
env.execute("retract")
named = t_env.to_retract_stream(counts, Types.ROW_NAMED(["w", "n", "top"],
                                                        [Types.STRING(), Types.LONG(),
                                                         Types.INT()]))
named.map(lambda t: repr(t), output_type=Types.STRING()).print()
env.execute("named")
plain = t_env.to_retract_stream(t_env.sql_query("SELECT f0 FROM words WHERE f1 > 1"),
                                Types.ROW([Types.STRING()]))
plain.map(lambda t: repr(t), output_type=Types.STRING()).print()
env.execute("plain")
