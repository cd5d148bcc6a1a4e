"""Keyed ValueState count over text files "key,value": unbounded (monitor_continuously) or
bounded (the same files, read once). Bounded mode runs the job twice and prints the second
run's seconds on stderr (the first warms Spark up)."""
import sys
import time

from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.datastream.state import ValueStateDescriptor


class Count(KeyedProcessFunction):
    def open(self, ctx):
        self.count = ctx.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, value, ctx):
        self.count.update((self.count.value() or 0) + 1)


def build(in_dir, mode, checkpoints):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    builder = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir)
    if mode == "stream":
        env.enable_checkpointing(500)
        env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
        builder = builder.monitor_continuously(Duration.of_millis(500))
    env.from_source(builder.build(), WatermarkStrategy.no_watermarks(), "files") \
        .key_by(lambda line: line.split(",", 1)[0], key_type=Types.STRING()) \
        .process(Count()).print()
    return env


in_dir, mode, checkpoints = sys.argv[1:4]
if mode == "stream":
    build(in_dir, mode, checkpoints).execute("streaming keyed count")
else:
    for run in range(2):
        start = time.time()
        build(in_dir, mode, checkpoints).execute("bounded keyed count")
    sys.stderr.write("BOUNDED_SECONDS %.3f\n" % (time.time() - start))
