"""The configuration idiom of many PyFlink programs: wrap the environment's configuration with
get_j_env_configuration and set keys on it; they take effect on the environment."""
from pyflink.common import Configuration, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.util.java_utils import get_j_env_configuration

env = StreamExecutionEnvironment.get_execution_environment()
config = Configuration(j_configuration=get_j_env_configuration(
    env._j_stream_execution_environment))
config.set_integer("python.fn-execution.bundle.size", 10)
config.set_integer("parallelism.default", 1)
config.set_string("pipeline.auto-watermark-interval", "7 ms")
print("parallelism:", env.get_parallelism())
print("watermark interval:", env.get_config().get_auto_watermark_interval())
print("bundle size:", config.get_integer("python.fn-execution.bundle.size", 0))

j_config = get_j_env_configuration(env._j_stream_execution_environment)
j_config.setString("parallelism.default", "1")
print("java getString:", j_config.getString("python.fn-execution.bundle.size", None))

env.from_collection([3, 1, 2], type_info=Types.INT()).map(lambda x: x * 10,
                                                         output_type=Types.INT()).print()
env.execute("configured")
