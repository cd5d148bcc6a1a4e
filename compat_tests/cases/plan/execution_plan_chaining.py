"""get_execution_plan(): which Python operators PyFlink chains into one node (a new id,
names joined by ", "): forward edge, equal parallelism, the upstream operator with one
consumer, chaining allowed (start_new_chain / disable_chaining stop it); names,
descriptions and sink names as the plan shows them. The plan of a second call is the same
(the chained nodes are kept); a job run in between takes plan ids too (its own chaining),
so the next job's ids follow."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([1, 2, 3], type_info=Types.INT())
a = ds.map(lambda x: x + 1, Types.INT()).name("first").set_description("adds one")
b = a.map(lambda x: x * 2, Types.INT()).set_description("doubles")
c = b.map(lambda x: x - 1, Types.INT()).start_new_chain()
d = c.filter(lambda x: x > 0).disable_chaining()
e = d.map(lambda x: x, Types.INT()).set_parallelism(1)
e.print().name("out")
b.map(lambda x: -x, Types.INT()).print()       # b has two consumers: nothing chains to it
ds.rebalance().map(str, Types.STRING()).filter(lambda s: s != "2").print()
plan = env.get_execution_plan()
print(plan)
print("same plan again:", plan == env.get_execution_plan())

env2 = StreamExecutionEnvironment.get_execution_environment()
env2.set_parallelism(2)
env2.from_collection([1, 2], type_info=Types.INT()).map(lambda x: x, Types.INT()) \
    .filter(lambda x: False).print()          # prints nothing
env2.execute()
env2.from_collection([1], type_info=Types.INT()).map(lambda x: x, Types.INT()) \
    .filter(lambda x: True).print()
print(env2.get_execution_plan())
