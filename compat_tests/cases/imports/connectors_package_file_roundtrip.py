"""Connector classes imported from pyflink.datastream.connectors itself (PyFlink re-exports
them there; real programs import them this way): write with FileSink, read back with
FileSource."""
import os
import tempfile

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import Encoder
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors import (DeliveryGuarantee, FileSink, FileSource,
                                           NumberSequenceSource, OutputFileConfig,
                                           RollingPolicy, StreamFormat)

root = tempfile.mkdtemp()
out_dir = os.path.join(root, "out")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
env.set_parallelism(1)
numbers = env.from_source(NumberSequenceSource(1, 5), WatermarkStrategy.no_watermarks(),
                          "numbers")
sink = FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()) \
    .with_output_file_config(OutputFileConfig.builder().with_part_prefix("num")
                             .with_part_suffix(".txt").build()) \
    .with_rolling_policy(RollingPolicy.default_rolling_policy()).build()
numbers.map(lambda n: "n=%d" % n, output_type=Types.STRING()).sink_to(sink)
env.execute("write")

source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), out_dir).build()
lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "files")
print(sorted(lines.execute_and_collect()))
print(DeliveryGuarantee.AT_LEAST_ONCE.name)
