"""CoProcessFunction: ctx.timestamp() of each input's records (event time assigned on one
input only: the other reports Long.MIN_VALUE), the current watermark, and a non-keyed timer
service that refuses timers."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import CoProcessFunction


class SecondField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Show(CoProcessFunction):
    def process_element1(self, value, ctx):
        yield "1 %s ts=%s" % (value[0], ctx.timestamp())

    def process_element2(self, value, ctx):
        try:
            ctx.timer_service().register_event_time_timer(5)
            registered = "registered"
        except Exception as e:
            registered = type(e).__name__
        yield "2 %s ts=%s timer:%s" % (value, ctx.timestamp(), registered)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
stamped = env.from_collection([("a", 1000), ("b", 2000), ("c", 3000)],
                              type_info=Types.TUPLE([Types.STRING(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondField()))
plain = env.from_collection(["x", "y"], type_info=Types.STRING())
for line in sorted(stamped.connect(plain).process(Show(), Types.STRING()).execute_and_collect()):
    print(line)
