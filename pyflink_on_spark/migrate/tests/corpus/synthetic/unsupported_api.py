# API the shim refuses: a custom (Java) state backend. (DataStream.cache and monitor_continuously,
# refused when this was written, are supported now.)
from pyflink.common import Duration, WatermarkStrategy
from pyflink.datastream import CustomStateBackend, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

env = StreamExecutionEnvironment.get_execution_environment()
env.set_state_backend(CustomStateBackend(None))
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), "/data/in") \
    .monitor_continuously(Duration.of_seconds(10)) \
    .build()
lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "files")
cached = lines.cache()
cached.print()
env.execute()
