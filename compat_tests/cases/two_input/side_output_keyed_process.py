"""Side output of a KeyedProcessFunction carrying a ReducingState total
(test_keyed_process_side_output); main and side merged into one collected stream."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction, RuntimeContext
from pyflink.datastream.state import ReducingStateDescriptor

tag = OutputTag("side", Types.INT())


class Totals(KeyedProcessFunction):
    def open(self, context: RuntimeContext):
        self.total = context.get_reducing_state(
            ReducingStateDescriptor("reduce", lambda i, j: i + j, Types.INT()))

    def process_element(self, value, ctx):
        yield value[1]
        self.total.add(value[1])
        yield tag, self.total.get()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([('a', 1), ('b', 2), ('a', 3), ('b', 4)],
                         type_info=Types.ROW([Types.STRING(), Types.INT()]))
main = ds.key_by(lambda e: e[0]).process(Totals(), output_type=Types.INT())
both = main.map(lambda v: "main %d" % v, Types.STRING()) \
    .union(main.get_side_output(tag).map(lambda v: "side %d" % v, Types.STRING()))
print(sorted(both.execute_and_collect()))
