"""Several print() sinks in one task at parallelism 1: one block per operator feeding a sink,
in the order the program created those operators, not the order of the print() calls."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
S = Types.STRING()

print("-- two maps created m1, m2; printed m2, m1", flush=True)
s = env.from_collection([1, 2, 3], type_info=Types.INT())
m1 = s.map(lambda x: "m1-%d" % x, S)
m2 = s.map(lambda x: "m2-%d" % x, S)
m2.print()
m1.print()
env.execute()

print("-- three maps created m1, m2, m3; printed m3, m1, m2", flush=True)
s = env.from_collection([1, 2, 3], type_info=Types.INT())
m1 = s.map(lambda x: "m1-%d" % x, S)
m2 = s.map(lambda x: "m2-%d" % x, S)
m3 = s.map(lambda x: "m3-%d" % x, S)
m3.print()
m1.print()
m2.print()
env.execute()
