"""The job of benchmarks/streaming_latency.py, unmodified for the shim and real PyFlink:
a monitored directory of "key,written_ms" lines -> key_by -> keyed ValueState counter ->
print "key,count,written_ms" (one line per record, so the harness can time every record).

    python streaming_latency_job.py IN_DIR CHECKPOINT_DIR CHECKPOINT_INTERVAL_MS [KEY=VALUE...]

(KEY=VALUE: configuration options given to the environment, e.g.
python.fn-execution.bundle.time=100 for PyFlink.)
"""
import sys

from pyflink.common import Configuration, Duration, Types, WatermarkStrategy
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.datastream.state import ValueStateDescriptor


class Count(KeyedProcessFunction):
    def open(self, ctx):
        self.count = ctx.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, line, ctx):
        n = (self.count.value() or 0) + 1
        self.count.update(n)
        key, written = line.split(",", 1)
        yield "%s,%d,%s" % (key, n, written)


in_dir, checkpoints, interval_ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
config = Configuration()
for option in sys.argv[4:]:
    config.set_string(*option.split("=", 1))
env = StreamExecutionEnvironment.get_execution_environment(config)
env.set_parallelism(2)
env.enable_checkpointing(interval_ms)
env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
    .monitor_continuously(Duration.of_millis(100)).build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
    .key_by(lambda line: line.split(",", 1)[0], key_type=Types.STRING()) \
    .process(Count(), output_type=Types.STRING()) \
    .print()
env.execute("streaming latency")
