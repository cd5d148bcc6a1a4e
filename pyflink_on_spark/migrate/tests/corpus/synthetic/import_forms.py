# Every import form: plain, aliased, module aliases, submodules, star, attribute chains.
import pyflink.common
import pyflink.datastream as ds
from pyflink.common import Types as T, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment as Env
from pyflink.datastream.connectors import file_system
from pyflink.datastream.window import *  # noqa: F401,F403

env = Env.get_execution_environment()
stream = env.from_collection([1, 2, 3], type_info=T.INT())
typed = pyflink.common.typeinfo.Types.STRING()
mode = ds.RuntimeExecutionMode.STREAMING
env.set_runtime_mode(mode)
sink = file_system.FileSink.for_row_format("/tmp/out", pyflink.common.Encoder.simple_string_encoder()).build()
stream.assign_timestamps_and_watermarks(WatermarkStrategy.no_watermarks()) \
    .key_by(lambda v: v % 2) \
    .window(TumblingEventTimeWindows.of(pyflink.common.Time.seconds(1))) \
    .reduce(lambda a, b: a + b) \
    .sink_to(sink)
env.execute("import forms")
