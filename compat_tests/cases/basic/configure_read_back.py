"""env.configure(Configuration) as PyFlink 1.20 applies it: the time characteristic and the
checkpoint settings (timeout, interval, min pause, max concurrent, tolerable failures,
unaligned, externalized retention, mode) are read back by the environment's and
CheckpointConfig's getters, even where the engine has no use for them."""
from pyflink.common import Configuration
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
first = Configuration()
first.set_string("pipeline.time-characteristic", "ProcessingTime")
first.set_string("execution.checkpointing.timeout", "42 s")
first.set_string("execution.checkpointing.interval", "5 s")
first.set_string("execution.checkpointing.max-concurrent-checkpoints", "3")
first.set_string("execution.checkpointing.min-pause", "7 s")
first.set_string("pipeline.auto-watermark-interval", "123 ms")
first.set_string("parallelism.default", "3")
env.configure(first)
config = env.get_checkpoint_config()
print(env.get_stream_time_characteristic())
print(config.get_checkpoint_timeout(), config.get_checkpoint_interval(),
      config.get_max_concurrent_checkpoints(), config.get_min_pause_between_checkpoints())
print(env.get_config().get_auto_watermark_interval(), env.get_parallelism())

second = Configuration()
second.set_string("execution.checkpointing.tolerable-failed-checkpoints", "4")
second.set_string("execution.checkpointing.unaligned.enabled", "true")
second.set_string("execution.checkpointing.externalized-checkpoint-retention",
                  "RETAIN_ON_CANCELLATION")
second.set_string("execution.checkpointing.mode", "AT_LEAST_ONCE")
second.set_string("pipeline.time-characteristic", "IngestionTime")
env.configure(second)
config = env.get_checkpoint_config()
print(config.get_tolerable_checkpoint_failure_number(),
      config.is_unaligned_checkpoints_enabled(), config.get_externalized_checkpoint_cleanup(),
      config.get_checkpointing_mode())
print(env.get_stream_time_characteristic())
# what the first configure set and the second did not touch stays
print(config.get_checkpoint_timeout(), config.get_max_concurrent_checkpoints())
