"""A sink in a task behind another task prints after the sinks of the task before it: a map
that is not chained (disable_chaining, rebalance) or a keyed reduce comes after a map chained
to the source, whatever the order of creation or of the print() calls."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
S = Types.STRING()
I = Types.INT()

print("-- m1 not chained (disable_chaining), m2 chained; printed m2, m1", flush=True)
s = env.from_collection([1, 2, 3], type_info=I)
m1 = s.map(lambda x: "m1-%d" % x, S).disable_chaining()
m2 = s.map(lambda x: "m2-%d" % x, S)
m2.print()
m1.print()
env.execute()

print("-- m1 behind a rebalance, m2 chained; printed m1, m2", flush=True)
s = env.from_collection([1, 2, 3], type_info=I)
m1 = s.rebalance().map(lambda x: "m1-%d" % x, S)
m2 = s.map(lambda x: "m2-%d" % x, S)
m1.print()
m2.print()
env.execute()

print("-- keyed reduce created before a chained map; printed reduce, map", flush=True)
s = env.from_collection([1, 2, 3, 4], type_info=I)
k = s.key_by(lambda x: x % 2, key_type=I).reduce(lambda a, b: a + b)
m = s.map(lambda x: "m-%d" % x, S)
k.print()
m.print()
env.execute()
