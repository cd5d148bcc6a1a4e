"""benchmarks/driver_heap.py's unbounded job: a FileSource monitored every 200 ms, a keyed
running count, a print of every 100,000th count (none in a short run)."""
import sys
from pyflink.common import WatermarkStrategy, Types, Duration
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
env.enable_checkpointing(1000)
src = FileSource.for_record_stream_format(StreamFormat.text_line_format(), sys.argv[1]) \
    .monitor_continuously(Duration.of_millis(200)).build()
(env.from_source(src, WatermarkStrategy.no_watermarks(), "files")
    .map(lambda s: (int(s) % 1000, 1), output_type=Types.TUPLE([Types.LONG(), Types.INT()]))
    .key_by(lambda t: t[0])
    .reduce(lambda a, b: (a[0], a[1] + b[1]))
    .filter(lambda t: t[1] % 100000 == 0)
    .print())
env.execute("growth2")
