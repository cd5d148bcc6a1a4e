# User subclasses of PyFlink functions: overridden methods, their parameters typed from
# PyFlink's signatures (whatever the parameter names), self attributes, indirect subclasses.
import pyflink.datastream.functions as fns
from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, RuntimeContext
from pyflink.datastream.state import MapStateDescriptor, ValueStateDescriptor


class CountWithTimeout(KeyedProcessFunction):

    def open(self, context: RuntimeContext):
        self.count = context.get_state(ValueStateDescriptor("count", Types.LONG()))
        self.seen = context.get_map_state(
            MapStateDescriptor("seen", Types.STRING(), Types.BOOLEAN()))

    def process_element(self, value, c):
        current = self.count.value() or 0
        self.count.update(current + 1)
        self.seen.put_all({value: True})
        c.timer_service().register_event_time_timer(c.timestamp() + 1000)
        yield value

    def on_timer(self, timestamp, ctx: 'KeyedProcessFunction.OnTimerContext'):
        ctx.timer_service().delete_event_time_timer(timestamp)
        yield ctx.get_current_key(), self.count.value()


class Refined(CountWithTimeout):
    def close(self):
        pass


class Doubler(fns.MapFunction):
    def map(self, value):
        return value * 2
