"""An unbounded PyFlink job (unmodified PyFlink API) over text files arriving in a directory,
written by a FileSink: keyed running sums in ValueState with event-time timers and broadcast
state (a KeyedBroadcastProcessFunction reading every record's key from the broadcast side),
and event-time session windows.
Arguments: input dir, output dir, checkpoint dir, "stream" | "bounded", and optionally the
state backend, "hashmap" (default) | "rocksdb", and the parallelism (default 2)."""
import sys

from pyflink.common import Duration, Encoder, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    EmbeddedRocksDBStateBackend, HashMapStateBackend, KeyedBroadcastProcessFunction,
    ProcessWindowFunction, StreamExecutionEnvironment)
from pyflink.datastream.connectors.file_system import FileSink, FileSource, StreamFormat
from pyflink.datastream.state import MapStateDescriptor, ValueStateDescriptor
from pyflink.datastream.window import EventTimeSessionWindows

SEEN = MapStateDescriptor("seen", Types.STRING(), Types.LONG())


class Stamp(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class SumWithTimers(KeyedBroadcastProcessFunction):
    """Running sum per key (ValueState), an event-time timer per hundred, and how many keys
    the broadcast state has seen so far (every record is broadcast too)."""

    def open(self, ctx):
        self.total = ctx.get_state(ValueStateDescriptor("total", Types.LONG()))

    def process_element(self, value, ctx):
        total = (self.total.value() or 0) + value[2]
        self.total.update(total)
        ctx.timer_service().register_event_time_timer(value[1] // 100 * 100 + 99)
        seen = len(list(ctx.get_broadcast_state(SEEN).keys()))
        yield "sum,%s,%d,%d,%d" % (value[0], value[1], total, seen)

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(SEEN).put(value[0], value[1])

    def on_timer(self, timestamp, ctx):
        yield "timer,%s,%d,%d" % (ctx.get_current_key(), timestamp, self.total.value())


class Session(ProcessWindowFunction):
    def process(self, key, context, elements):
        window = context.window()
        yield "session,%s,%d,%d,%d" % (key, window.start, window.end,
                                       sum(e[2] for e in elements))


def parse(line):
    key, ts, value = line.split(",")
    return key, int(ts), int(value)


in_dir, out_dir, checkpoints, mode = sys.argv[1:5]
backend = sys.argv[5] if len(sys.argv) > 5 else "hashmap"
parallelism = int(sys.argv[6]) if len(sys.argv) > 6 else 2
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(parallelism)
env.set_state_backend(EmbeddedRocksDBStateBackend() if backend == "rocksdb"
                      else HashMapStateBackend())
builder = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir)
if mode == "stream":
    env.enable_checkpointing(200)
    env.get_checkpoint_config().set_checkpoint_storage_dir(
        checkpoints if "://" in checkpoints else "file://" + checkpoints)
    builder = builder.monitor_continuously(Duration.of_millis(200))
source = builder.build()
events = env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
    .map(parse, output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp()))
sums = events.key_by(lambda e: e[0], key_type=Types.STRING()) \
    .connect(events.broadcast(SEEN)) \
    .process(SumWithTimers(), output_type=Types.STRING())
sessions = events.key_by(lambda e: e[0], key_type=Types.STRING()) \
    .window(EventTimeSessionWindows.with_gap(Time.milliseconds(30))) \
    .process(Session(), output_type=Types.STRING())
sums.union(sessions) \
    .sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build())
env.execute("keyed sums with timers, broadcast state and session windows")
