"""Side outputs feeding further operators at parallelism 2: a keyed process summing a side
output per key (final sums from an end-of-input timer), a side output connected to the main
output, and a side output of a side output's consumer."""
from pyflink.common import Types
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import CoMapFunction, KeyedProcessFunction, ProcessFunction
from pyflink.datastream.state import ValueStateDescriptor

odd = OutputTag("odd", Types.TUPLE([Types.STRING(), Types.INT()]))
big = OutputTag("big", Types.INT())


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        if value % 2:
            yield odd, ("k%d" % (value % 3), value)
        else:
            yield value


class Bigger(ProcessFunction):
    def process_element(self, value, ctx):
        if value[1] > 4:
            yield big, value[1]
        yield value[1]


class FinalSum(KeyedProcessFunction):
    def open(self, runtime_context):
        self.sum = runtime_context.get_state(ValueStateDescriptor("sum", Types.INT()))

    def process_element(self, value, ctx):
        self.sum.update((self.sum.value() or 0) + value[1])
        ctx.timer_service().register_event_time_timer(1)

    def on_timer(self, timestamp, ctx):
        yield ctx.get_current_key(), self.sum.value()


class Tag(CoMapFunction):
    def map1(self, value):
        return "even %d" % value

    def map2(self, value):
        return "odd %s" % (value,)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
main = env.from_collection(list(range(10)), type_info=Types.INT()).process(Split(), Types.INT())
sums = main.get_side_output(odd).key_by(lambda t: t[0], key_type=Types.STRING()) \
    .process(FinalSum())
print("odd sums", sorted(sums.execute_and_collect()))
print("connected", sorted(main.connect(main.get_side_output(odd)).map(Tag(), Types.STRING())
                          .execute_and_collect()))
nested = main.get_side_output(odd).process(Bigger(), Types.INT())
print("nested side", sorted(nested.get_side_output(big).execute_and_collect()))
