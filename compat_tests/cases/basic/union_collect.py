"""union of several streams; contents printed sorted (arrival order across inputs varies)."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()

for p in [1, 2]:
    env.set_parallelism(p)
    a = env.from_collection([1, 2, 3], type_info=Types.INT())
    b = env.from_collection([10, 20], type_info=Types.INT())
    c = env.from_collection([100], type_info=Types.INT())
    print("p=%d" % p, sorted(a.union(b, c).execute_and_collect()))
    doubled = a.map(lambda x: x * 2, output_type=Types.INT())
    print("p=%d" % p, sorted(a.union(doubled).map(lambda x: x + 1, output_type=Types.INT()).execute_and_collect()))
    s = env.from_collection(["x", "y"], type_info=Types.STRING())
    print("p=%d" % p, sorted(s.union(s).execute_and_collect()))
