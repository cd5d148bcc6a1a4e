"""KeyedCoProcessFunction with a count per key shared by both inputs and an event-time timer
(PyFlink's test_keyed_co_process), parallelism 1, results sorted."""
from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedCoProcessFunction, RuntimeContext
from pyflink.datastream.state import ValueStateDescriptor


class SecondColumn(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class CountBoth(KeyedCoProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.timer_registered = False
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

    def _bump(self):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        return count

    def process_element1(self, value, ctx):
        if not self.timer_registered:
            ctx.timer_service().register_event_time_timer(3)
            self.timer_registered = True
        return [Row(value[0], self._bump())]

    def process_element2(self, value, ctx):
        return [Row(value[0], self._bump())]

    def on_timer(self, timestamp, ctx):
        return [Row("on_timer", timestamp)]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
row = Types.ROW([Types.STRING(), Types.INT()])
strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondColumn())
ds1 = env.from_collection([("a", 1), ("b", 2), ("c", 3)], type_info=row) \
    .assign_timestamps_and_watermarks(strategy)
ds2 = env.from_collection([("b", 2), ("c", 3), ("d", 4)], type_info=row) \
    .assign_timestamps_and_watermarks(strategy)
out = ds1.connect(ds2).key_by(lambda x: x[0], lambda x: x[0]) \
    .process(CountBoth()).map(lambda x: Row(x[0], x[1] + 1))
print(sorted(str(r) for r in out.execute_and_collect()))
