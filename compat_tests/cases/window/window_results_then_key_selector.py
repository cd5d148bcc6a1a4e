"""Each window result's get_result, then the key selector of a key_by after the window, in
turn per result (both print): PyFlink calls them result by result. The shim sends a round's
results on in one call only where nothing after the window runs user code, so a key
selector after it still sees each result as it is made. The results are collected, then
printed after the job (the functions' lines come first, in their order)."""
from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import AggregateFunction, KeyedProcessFunction
from pyflink.datastream.window import TumblingEventTimeWindows


class ByField(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class CountLatest(AggregateFunction):
    def create_accumulator(self):
        return None, 0, None

    def add(self, value, accumulator):
        _, count, latest = accumulator
        return value[0], count + 1, value[1] if latest is None else max(latest, value[1])

    def get_result(self, accumulator):
        print("result", accumulator[0], accumulator[2], flush=True)
        return accumulator

    def merge(self, a, b):
        return a[0], a[1] + b[1], max(a[2], b[2])


class Stamped(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield value + (ctx.timestamp(),)


def loud_key(result):
    print("key", result[0], result[2], flush=True)
    return result[0]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("k%d" % (i % 4), i * 500) for i in range(40)]
results = list(
    env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(ByField()))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(TumblingEventTimeWindows.of(Time.seconds(5)))
    .aggregate(CountLatest(),
               output_type=Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()]))
    .key_by(loud_key, key_type=Types.STRING())
    .process(Stamped(), output_type=Types.TUPLE(
        [Types.STRING(), Types.INT(), Types.LONG(), Types.LONG()]))
    .execute_and_collect())
for result in results:
    print(result)
