"""Side outputs: a ProcessFunction and a KeyedProcessFunction yield (OutputTag, value) to
several tags (typed and pickled), also from on_timer; each output read with its own job.
A tag nobody asked for is dropped. get_side_output is called before the first execution
(PyFlink cannot add side outputs to a stream that already ran)."""
from pyflink.common import Types
from pyflink.datastream import (KeyedProcessFunction, OutputTag, ProcessFunction,
                                StreamExecutionEnvironment)

small = OutputTag("small", Types.INT())
words = OutputTag("words", Types.STRING())
pickled = OutputTag("pickled")
timers = OutputTag("timers", Types.STRING())


class Route(ProcessFunction):
    def process_element(self, value, ctx):
        if value < 3:
            yield small, value
        if value % 2 == 0:
            yield words, "even-%d" % value
        yield pickled, (value, "p")
        yield value * 100


class KeyedRoute(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(value)
        if value < 3:
            yield small, value
        yield value * 1000

    def on_timer(self, timestamp, ctx):
        yield timers, "timer %d key %d" % (timestamp, ctx.get_current_key())
        yield -timestamp


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
nums = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT())

routed = nums.process(Route(), output_type=Types.INT())
small_out = routed.get_side_output(small)
words_out = routed.get_side_output(words)
pickled_out = routed.get_side_output(pickled)

keyed = nums.key_by(lambda v: v % 2, key_type=Types.INT()).process(KeyedRoute(),
                                                                  output_type=Types.INT())
keyed_small = keyed.get_side_output(small)
keyed_timers = keyed.get_side_output(timers)

print("main", list(routed.execute_and_collect()))
print("small", list(small_out.execute_and_collect()))
print("words", list(words_out.execute_and_collect()))
print("pickled", list(pickled_out.execute_and_collect()))
print("keyed main", list(keyed.execute_and_collect()))
print("keyed small", list(keyed_small.execute_and_collect()))
print("keyed timers", list(keyed_timers.execute_and_collect()))
