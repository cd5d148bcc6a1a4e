# Objects whose origin is known through assignments; settings with and without effect.
from pyflink.common import Configuration, Types
from pyflink.datastream import StreamExecutionEnvironment, HashMapStateBackend
from pyflink.datastream.checkpoint_storage import FileSystemCheckpointStorage

config = Configuration()
config.set_string("taskmanager.memory.process.size", "2g")
config.set_string("parallelism.default", "2")
config.set_string("python.fn-execution.bundle.size", "1000")
env = StreamExecutionEnvironment.get_execution_environment(config)
env.add_jars("file:///opt/jars/flink-sql-connector-kafka-3.2.0-1.19.jar",
             "file:///opt/jars/my-udfs.jar")
env.add_classpaths("file:///opt/jars/flink-json-1.20.0.jar")
env.add_python_file("/opt/job/helpers.py")
env.set_python_requirements("requirements.txt")
env.set_python_executable("/usr/bin/python3")
env.set_parallelism(4)
env.set_state_backend(HashMapStateBackend())
env.enable_checkpointing(10000)
env.get_checkpoint_config().set_checkpoint_storage(FileSystemCheckpointStorage("file:///tmp/ck"))
env.set_buffer_timeout(5)

s = env.from_collection([("a", 1), ("b", 2)],
                        type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
doubled = s.map(lambda t: (t[0], t[1] * 2)).slot_sharing_group("heavy")
doubled.set_buffer_timeout(10)
doubled.key_by(lambda t: t[0]).sum(1).print()
env.execute()
