"""Sinks behind operators of different depths in one task: the end of input goes through the
task depth first, each operator's outputs in the order they were created; consecutive Python
maps with a single consumer become one operator placed where the last of them was created."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
S = Types.STRING()
I = Types.INT()

print("-- m1 -> m1a created before m2; printed m1a, m2", flush=True)
s = env.from_collection([1, 2, 3], type_info=I)
m1 = s.map(lambda x: x * 10, I)
m1a = m1.map(lambda x: "m1a-%d" % x, S)
m2 = s.map(lambda x: "m2-%d" % x, S)
m1a.print()
m2.print()
env.execute()

print("-- m1, m2 created, then m1 -> m1a; printed m1a, m2", flush=True)
s = env.from_collection([1, 2, 3], type_info=I)
m1 = s.map(lambda x: x * 10, I)
m2 = s.map(lambda x: "m2-%d" % x, S)
m1a = m1.map(lambda x: "m1a-%d" % x, S)
m1a.print()
m2.print()
env.execute()

print("-- m1 with two consumers m1a, m1b created after m2; printed m1b, m2, m1a", flush=True)
s = env.from_collection([1, 2, 3], type_info=I)
m1 = s.map(lambda x: x * 10, I)
m2 = s.map(lambda x: "m2-%d" % x, S)
m1a = m1.map(lambda x: "m1a-%d" % x, S)
m1b = m1.map(lambda x: "m1b-%d" % x, S)
m1b.print()
m2.print()
m1a.print()
env.execute()
