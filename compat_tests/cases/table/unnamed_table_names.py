"""str(table) registers the table once under UnnamedTable$<n> of its environment (listed as a
temporary view and a table), so "SELECT ... FROM %s" % table queries it."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
t_env = StreamTableEnvironment.create(env)
ds = env.from_collection([(1, "b"), (2, "c")], type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
t = t_env.from_data_stream(ds)
print(str(t), str(t), repr(str(t_env.from_data_stream(ds))))
print(t_env.list_temporary_views(), t_env.list_tables())
r = t_env.sql_query("SELECT f0 * 10 AS x, f1 FROM %s WHERE f0 > 1" % t)
with r.execute().collect() as rows:
    print([tuple(x) for x in rows])
print("%s" % r)
