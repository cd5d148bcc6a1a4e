"""An unbounded PyFlink job (unmodified PyFlink API): keyed running sums in ValueState and
event-time timers over text files arriving in a directory, written by a FileSink.
Arguments: input dir, output dir, checkpoint dir, "stream" | "bounded"."""
import sys

from pyflink.common import Duration, Encoder, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSink, FileSource, StreamFormat
from pyflink.datastream.state import ValueStateDescriptor


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class SumWithTimers(KeyedProcessFunction):
    def open(self, ctx):
        self.total = ctx.get_state(ValueStateDescriptor("total", Types.LONG()))

    def process_element(self, value, ctx):
        total = (self.total.value() or 0) + value[2]
        self.total.update(total)
        ctx.timer_service().register_event_time_timer(value[1] // 100 * 100 + 99)
        yield "sum,%s,%d,%d" % (value[0], value[1], total)

    def on_timer(self, timestamp, ctx):
        yield "timer,%s,%d,%d" % (ctx.get_current_key(), timestamp, self.total.value())


def parse(line):
    key, ts, value = line.split(",")
    return key, int(ts), int(value)


in_dir, out_dir, checkpoints, mode = sys.argv[1:5]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
builder = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir)
if mode == "stream":
    env.enable_checkpointing(200)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
    builder = builder.monitor_continuously(Duration.of_millis(200))
source = builder.build()
events = env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
    .map(parse, output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
results = events.key_by(lambda e: e[0], key_type=Types.STRING()) \
    .process(SumWithTimers(), output_type=Types.STRING())
results.sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build())
env.execute("keyed sums with timers")
