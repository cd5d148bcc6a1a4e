"""Job scripts the plan tests draw (written to a temporary directory by the tests)."""

SIDE_OUTPUT_AND_WINDOW = '''
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.window import TumblingProcessingTimeWindows

ODD = OutputTag("odd_numbers", Types.INT())


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        yield (ODD, value) if value % 2 else value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
numbers = env.from_collection(list(range(10)), type_info=Types.INT()).name("Numbers")
evens = numbers.process(Split(), output_type=Types.INT()).name("Split odd from even")
(evens.filter(lambda v: v != 4).name("Not four")
      .key_by(lambda v: v % 3)
      .window(TumblingProcessingTimeWindows.of(Time.seconds(1)))
      .reduce(lambda a, b: a + b).name("Sum per key")
      .print())
evens.get_side_output(ODD).rebalance().map(lambda v: v * 10).set_parallelism(1) \\
     .name("Times ten").print()
print("script output is not the picture")
env.execute("side outputs and windows")
'''

TWO_JOBS = '''
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([1, 2], type_info=Types.INT()).map(lambda v: v + 1).name("Add one").print()
env.execute("first job")
with env.from_collection([3], type_info=Types.INT()).filter(lambda v: v > 0) \\
        .name("Positive").execute_and_collect("second job") as values:
    assert list(values) == []       # captured, not run: nothing is collected
'''

NO_JOB = '''
from pyflink.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
'''
