# API the shim refuses: an unbounded file source. (DataStream.cache, refused when this was written, is supported now.)
from pyflink.common import Duration, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

env = StreamExecutionEnvironment.get_execution_environment()
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), "/data/in") \
    .monitor_continuously(Duration.of_seconds(10)) \
    .build()
lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "files")
cached = lines.cache()
cached.print()
env.execute()
