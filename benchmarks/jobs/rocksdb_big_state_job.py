"""The job of benchmarks/rocksdb_big_state.py, an unmodified PyFlink program: a monitored
directory of "key,flag" lines -> key_by key -> a ValueState count per key on
EmbeddedRocksDBStateBackend with incremental checkpoints -> print "key,count" for the lines
flagged "v" (the harness's read-back of a key's count; other lines print nothing).

    rocksdb_big_state_job.py IN_DIR CHECKPOINT_DIR INTERVAL_MS [PARALLELISM]
"""
import sys

from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.datastream import (EmbeddedRocksDBStateBackend, KeyedProcessFunction,
                                StreamExecutionEnvironment)
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.datastream.state import ValueStateDescriptor


class Count(KeyedProcessFunction):
    def open(self, ctx):
        self.count = ctx.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, line, ctx):
        n = (self.count.value() or 0) + 1
        self.count.update(n)
        if line.endswith(",v"):
            yield "%s,%d" % (line[:-2], n)


in_dir, checkpoints, interval_ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
parallelism = int(sys.argv[4]) if len(sys.argv) > 4 else 2
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(parallelism)
env.set_state_backend(EmbeddedRocksDBStateBackend(enable_incremental_checkpointing=True))
env.enable_checkpointing(interval_ms)
env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
    .monitor_continuously(Duration.of_millis(200)).build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
    .key_by(lambda line: line.split(",", 1)[0], key_type=Types.STRING()) \
    .process(Count(), output_type=Types.STRING()) \
    .print()
env.execute("rocksdb big state")
