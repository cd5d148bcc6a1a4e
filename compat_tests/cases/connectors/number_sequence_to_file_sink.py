"""NumberSequenceSource at parallelism 3 (a parallel source of longs) mapped and written with
a FileSink; the parts are read back with a FileSource and summed."""
import os
import tempfile

from pyflink.common import Encoder, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import (BucketAssigner, FileSink, FileSource,
                                                       StreamFormat)
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

root = tempfile.mkdtemp()
base = os.path.join(root, "numbers")
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)
env.from_source(NumberSequenceSource(1, 100), WatermarkStrategy.no_watermarks(), "seq") \
    .map(lambda n: n * 10, output_type=Types.LONG()) \
    .sink_to(FileSink.for_row_format(base, Encoder.simple_string_encoder())
             .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
env.execute("write numbers")

source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), base).build()
back = sorted(int(v) for v in env.from_source(source, WatermarkStrategy.no_watermarks(), "read")
              .execute_and_collect())
print(len(back), back[:5], back[-3:], sum(back))
