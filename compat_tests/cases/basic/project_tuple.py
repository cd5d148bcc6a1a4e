"""project() on TUPLE streams."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

ds = env.from_collection([(1, "a", 2.5), (2, "b", 3.0)],
                         type_info=Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()]))
ds.project(2, 0).print()
env.execute("project 2,0")
ds.project(1).map(lambda t: type(t).__name__ + repr(t), output_type=Types.STRING()).print()
env.execute("project 1")
ds.project(0, 0, 1).print()
env.execute("project 0,0,1")
