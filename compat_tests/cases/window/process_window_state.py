"""ProcessWindowFunction.Context: window_state() is scoped to the window, global_state() to
the key; clear() runs when a window is cleaned up and sees the window's state. A
ContinuousEventTimeTrigger (every 6 ms) fires each 10 ms window twice (all at the end of
input, in timestamp order: [0, 10) at 6 and 9, then [10, 20) at 18 and 19), so the second
window's firings see what clear() of the first one left in the key's state."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.window import ContinuousEventTimeTrigger, TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class Firings(ProcessWindowFunction):
    def __init__(self):
        self.in_window = ValueStateDescriptor("firings-in-window", Types.INT())
        self.in_key = ValueStateDescriptor("firings-of-key", Types.INT())
        self.cleared = ValueStateDescriptor("cleared", Types.STRING())

    def process(self, key, context, elements):
        window_firings = context.window_state().get_state(self.in_window)
        key_firings = context.global_state().get_state(self.in_key)
        window_firings.update((window_firings.value() or 0) + 1)
        key_firings.update((key_firings.value() or 0) + 1)
        yield "%s [%d, %d): firing %d of the window, %d of the key, %d elements, cleared: %s" % (
            key, context.window().start, context.window().end, window_firings.value(),
            key_firings.value(), len(list(elements)),
            context.global_state().get_state(self.cleared).value())

    def clear(self, context):
        firings = context.window_state().get_state(self.in_window)
        context.global_state().get_state(self.cleared).update(
            "[%d, %d) after %d firings" % (context.window().start, context.window().end,
                                           firings.value()))
        firings.clear()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("a", 2), ("a", 13), ("a", 14)]
(env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(TumblingEventTimeWindows.of(Time.milliseconds(10)))
    .trigger(ContinuousEventTimeTrigger.of(Time.milliseconds(6)))
    .process(Firings(), Types.STRING())
    .print())
env.execute("window state")
