"""print() on a stream without a declared type adds a Python map (str of each record) when it
is called, and that map joins the Python operator before it: such a sink's block takes the
place of the print() call among the operators created."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
S = Types.STRING()

print("-- untyped maps created m1, m2; printed m2, m1", flush=True)
s = env.from_collection([1, 2, 3], type_info=Types.INT())
m1 = s.map(lambda x: "m1-%d" % x)
m2 = s.map(lambda x: "m2-%d" % x)
m2.print()
m1.print()
env.execute()

print("-- m1 untyped, m2 and m3 typed; printed m3, m1, m2", flush=True)
s = env.from_collection([1, 2, 3], type_info=Types.INT())
m1 = s.map(lambda x: "m1-%d" % x)
m2 = s.map(lambda x: "m2-%d" % x, S)
m3 = s.map(lambda x: "m3-%d" % x, S)
m3.print()
m1.print()
m2.print()
env.execute()
