"""print() of TUPLE and basic-typed records at parallelism 1 (Java toString formatting)."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)


def show(title, data, type_info):
    print("-- " + title, flush=True)
    env.from_collection(data, type_info=type_info).print()
    env.execute(title)


show("TUPLE", [(1, "a", 1.5), (2, "b c", 2.0)], Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()]))
show("nested TUPLE", [(1, (2, "x"))], Types.TUPLE([Types.INT(), Types.TUPLE([Types.INT(), Types.STRING()])]))
show("STRING", ["a", "hello world", ""], Types.STRING())
show("INT", [1, -2, 3], Types.INT())
show("LONG", [1, 2 ** 40], Types.LONG())
show("DOUBLE", [1.0, 0.1, 2.5e10, 1e-7, 100.0, -0.5], Types.DOUBLE())
show("FLOAT", [1.0, 0.5, 2.25], Types.FLOAT())
show("BOOLEAN", [True, False], Types.BOOLEAN())
