"""A side output and the main output of one process function, both printed: get_side_output()
adds a map when it is called, print() on the untyped main output adds one when it is called;
the block of whichever was created first comes first. A typed main output prints straight
from the process function, before its side output's map hands anything on."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
S = Types.STRING()
tag = OutputTag("odd", S)


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        if value % 2:
            yield tag, "side-%d" % value
        else:
            yield "main-%d" % value


print("-- untyped main, get_side_output before the prints", flush=True)
p = env.from_collection([1, 2, 3, 4, 5, 6], type_info=Types.INT()).process(Split())
side = p.get_side_output(tag)
p.print()
side.print()
env.execute()

print("-- untyped main printed, then get_side_output", flush=True)
p = env.from_collection([1, 2, 3, 4, 5, 6], type_info=Types.INT()).process(Split())
p.print()
p.get_side_output(tag).print()
env.execute()

print("-- typed main, side output printed first", flush=True)
p = env.from_collection([1, 2, 3, 4, 5, 6], type_info=Types.INT()).process(Split(),
                                                                            output_type=S)
side = p.get_side_output(tag)
side.print()
p.print()
env.execute()
