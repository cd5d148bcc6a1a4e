"""Misuse a program can catch: timers in a non-keyed ProcessFunction and keyed state in a
non-keyed function fail the job (checked by the exception text, which is all PyFlink
guarantees here)."""
import traceback

from pyflink.common import Types
from pyflink.datastream import MapFunction, ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.state import ValueStateDescriptor


class TimerOnNonKeyed(ProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(10)
        yield value


class StateOnNonKeyed(MapFunction):
    def open(self, runtime_context):
        self.state = runtime_context.get_state(ValueStateDescriptor("v", Types.INT()))

    def map(self, value):
        return value


class ReadTimeOnNonKeyed(ProcessFunction):
    def process_element(self, value, ctx):
        yield "wm=%d, time is int: %s" % (ctx.timer_service().current_watermark(),
                                          type(ctx.timer_service().current_processing_time())
                                          is int)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
nums = env.from_collection([1], type_info=Types.INT())
nums.process(ReadTimeOnNonKeyed(), output_type=Types.STRING()).print()
env.execute()
for name, fn in [("timer in ProcessFunction", TimerOnNonKeyed()),
                 ("state in non-keyed map", StateOnNonKeyed())]:
    if isinstance(fn, ProcessFunction):
        nums.process(fn, output_type=Types.INT()).print()
    else:
        nums.map(fn, output_type=Types.INT()).print()
    try:
        env.execute()
        print(name, "ran")
    except Exception as e:
        text = "".join(traceback.format_exception(e))
        print(name, "failed:", "keyed" in text.lower())
