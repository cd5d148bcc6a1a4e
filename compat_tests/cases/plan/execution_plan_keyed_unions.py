"""get_execution_plan() of unions with KeyedStream members (issue 43): PyFlink puts a values
map (`_keyed_stream_values_operator`) after every KeyedStream member, whether the KeyedStream
is the one union() is called on or an argument, in argument order and before the union's own
id; a projection of a union is its own node."""
import json

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
T = Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()])
a = env.from_collection([(1, "a", 2.0)], type_info=T)
b = env.from_collection([(2, "b", 3.0)], type_info=T)
ka = a.key_by(lambda t: t[0])
kb = b.key_by(lambda t: t[0])
ka.union(kb).project(0, 2).print()
a.union(kb, ka).map(lambda t: t[1], output_type=Types.STRING()).print()
b.union(a).union(kb).map(lambda t: t[0] * 10, output_type=Types.INT()).print()
plan = json.loads(env.get_execution_plan())
for n in plan["nodes"]:
    print(n["id"], n["type"], "| p =", n["parallelism"],
          [(p["id"], p["ship_strategy"]) for p in n.get("predecessors", [])])

