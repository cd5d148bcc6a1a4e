"""An unbounded PyFlink job (unmodified PyFlink API) over text files arriving in a directory:
keyed running sums in ValueState with event-time timers, event-time session windows, a
keyed broadcast function with broadcast state, all written by one FileSink.
Arguments: input dir, output dir, checkpoint dir, "stream" | "bounded",
optional "hashmap" | "rocksdb" (state backend), optional parallelism (default 2)."""
import sys

from pyflink.common import Duration, Encoder, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (EmbeddedRocksDBStateBackend, HashMapStateBackend,
                                KeyedProcessFunction, ProcessWindowFunction,
                                StreamExecutionEnvironment)
from pyflink.datastream.connectors.file_system import FileSink, FileSource, StreamFormat
from pyflink.datastream.functions import KeyedBroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor, ValueStateDescriptor
from pyflink.datastream.window import EventTimeSessionWindows


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


class Session(ProcessWindowFunction):
    def process(self, key, context, elements):
        window = context.window()
        values = [e[2] for e in elements]
        yield "session,%s,%d,%d,%d" % (key, window.start, window.end, sum(values))


LAST_SEEN = MapStateDescriptor("last seen", Types.STRING(), Types.LONG())


class LastSeen(KeyedBroadcastProcessFunction):
    """Broadcast state: every key's newest timestamp, as broadcast to every subtask."""

    def process_element(self, value, ctx):
        seen = ctx.get_broadcast_state(LAST_SEEN)
        yield "broadcast,%s,%d,%d" % (value[0], value[1], len(list(seen.keys())))

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(LAST_SEEN).put(value[0], value[1])


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
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
    builder = builder.monitor_continuously(Duration.of_millis(200))
row = Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])
events = env.from_source(builder.build(), WatermarkStrategy.no_watermarks(), "files") \
    .uid("files") \
    .map(parse, output_type=row).uid("parse") \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())) \
    .uid("timestamps")
by_key = events.key_by(lambda e: e[0], key_type=Types.STRING())
sums = by_key.process(SumWithTimers(), output_type=Types.STRING()).uid("sums")
sessions = by_key.window(EventTimeSessionWindows.with_gap(Time.milliseconds(50))) \
    .process(Session(), output_type=Types.STRING()).uid("sessions")
last_seen = by_key.connect(events.broadcast(LAST_SEEN)) \
    .process(LastSeen(), output_type=Types.STRING()).uid("last seen")
sums.union(sessions, last_seen) \
    .sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build()) \
    .uid("sink")
env.execute("acceptance: sums, timers, sessions, broadcast state")
