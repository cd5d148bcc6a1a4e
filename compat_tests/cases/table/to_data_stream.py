"""A table back into the DataStream job: to_data_stream gives named Rows with row kind +I;
to_append_stream gives records of the type it is asked for; the rest of the job runs on them."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

ds = env.from_collection([(1, 'a'), (2, 'b'), (3, 'c')],
                         type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
t_env.create_temporary_view("v", ds)
table = t_env.sql_query("SELECT f1 AS name, f0 * 10 AS score FROM v WHERE f0 <> 2")
out = t_env.to_data_stream(table)
out.map(lambda r: '%r %s %s %s' % (r, r.get_row_kind(), r.name, r['score']),
        output_type=Types.STRING()).print()
env.execute("to_data_stream")

appended = t_env.to_append_stream(table, Types.TUPLE([Types.STRING(), Types.INT()]))
appended.map(lambda t: '%r' % (t,), output_type=Types.STRING()).print()
env.execute("to_append_stream")

rows = t_env.to_append_stream(table, Types.ROW([Types.STRING(), Types.INT()]))
rows.key_by(lambda r: r[0]).map(lambda r: r[1] + 1, output_type=Types.INT()).print()
env.execute("to_append_stream rows")

changes = t_env.to_changelog_stream(t_env.from_data_stream(ds))
changes.map(lambda r: str(r), output_type=Types.STRING()).print()
env.execute("to_changelog_stream")
