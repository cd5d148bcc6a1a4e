"""union of three streams (test_union), of a stream with itself, and of a union, at
parallelism 2; and the plan: every source feeds the operator after the union."""
import json

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds_1 = env.from_collection([1, 2, 3], type_info=Types.INT())
ds_2 = env.from_collection([4, 5, 6], type_info=Types.INT())
ds_3 = env.from_collection([7, 8, 9], type_info=Types.INT())
print(sorted(ds_3.union(ds_1, ds_2).map(lambda x: x + 1, Types.INT()).execute_and_collect()))
print(sorted(ds_1.union(ds_1).union(ds_2.union(ds_3), ds_3).execute_and_collect()))

ds_3.union(ds_1, ds_2).map(lambda x: x + 1, Types.INT()).print()
plan = json.loads(env.get_execution_plan())
sources = sorted(n["id"] for n in plan["nodes"] if n["pact"] == "Data Source")
fed = sorted(p["id"] for n in plan["nodes"] if n["pact"] == "Operator"
             for p in n.get("predecessors", []))
print("sources feed the map:", sources == fed, len(sources))
