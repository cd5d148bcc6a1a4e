"""print("ident") sink identifier on each record type at parallelism 1."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

env.from_collection([1, 2], type_info=Types.INT()).print("ints")
env.execute("ints")
env.from_collection([(1, "a")], type_info=Types.ROW([Types.INT(), Types.STRING()])).print("rows")
env.execute("rows")
env.from_collection([(1, "a")], type_info=Types.TUPLE([Types.INT(), Types.STRING()])).print("tuples")
env.execute("tuples")
env.from_collection([(1, "a"), "s"]).print("pickled")
env.execute("pickled")
env.from_collection(["x"], type_info=Types.STRING()).print("my sink")
env.execute("strings")
