"""env.configure(Configuration) applies the DataStream configuration keys (the getters
report them); add_jars takes URLs and a missing local jar or cached file fails execute(),
a missing classpath does not."""
from pyflink.common import Configuration, Types
from pyflink.datastream import StreamExecutionEnvironment

conf = Configuration()
conf.set_string("pipeline.operator-chaining", "false")
conf.set_string("pipeline.max-parallelism", "64")
conf.set_string("pipeline.object-reuse", "true")
conf.set_string("execution.buffer-timeout", "50 ms")
conf.set_string("execution.checkpointing.interval", "5 s")
conf.set_string("pipeline.auto-watermark-interval", "300 ms")
conf.set_string("parallelism.default", "3")
conf.set_string("pipeline.global-job-parameters", "a:1,b:two")
env = StreamExecutionEnvironment.get_execution_environment()
env.configure(conf)
print("chaining enabled:", env.is_chaining_enabled())
print("max parallelism:", env.get_max_parallelism())
print("object reuse:", env.get_config().is_object_reuse_enabled())
print("buffer timeout:", env.get_buffer_timeout())
print("checkpoint interval:", env.get_checkpoint_interval())
print("watermark interval:", env.get_config().get_auto_watermark_interval())
print("parallelism:", env.get_parallelism())
print("job parameters:", sorted(env.get_config().get_global_job_parameters().items()), flush=True)

env = StreamExecutionEnvironment.get_execution_environment(conf)
print("from get_execution_environment(conf):", env.is_chaining_enabled(), env.get_parallelism(), flush=True)


def job(title, setup):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    try:
        setup(env)
    except Exception:
        print(title, "- setup failed", flush=True)
        return
    env.from_collection([title], Types.STRING()).print()
    try:
        env.execute(title)
    except Exception as e:
        print(title, "- execute failed, names the file:", "nope" in str(e), flush=True)


job("plain path to add_jars", lambda env: env.add_jars("/tmp/pyflink-compat-nope.jar"))
job("missing jar URL", lambda env: env.add_jars("file:///tmp/pyflink-compat-nope.jar"))
job("missing classpath URL", lambda env: env.add_classpaths("file:///tmp/pyflink-compat-nope/"))
job("missing cached file", lambda env: env.register_cached_file("/tmp/pyflink-compat-nope.txt", "nope"))
