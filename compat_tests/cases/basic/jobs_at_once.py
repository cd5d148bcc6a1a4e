"""Several jobs of one script running at once (issue 43, "the client API"): two
execute_and_collect iterators open together, read in the other order; two execute_async jobs
started before either ends (each writing a FileSink), their results awaited in the other
order. (PyFlink's local
MiniCluster refuses get_job_status() once both jobs finished: not asked here.)"""
import os
import tempfile

from pyflink.common import Encoder, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSink

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
first = env.from_collection([1, 2, 3], type_info=Types.INT()).map(lambda x: x * 10, Types.INT())
first_results = first.execute_and_collect("first")
second = env.from_collection([4, 5], type_info=Types.INT()).map(lambda x: x + 100, Types.INT())
second_results = second.execute_and_collect("second")
print("second:", sorted(second_results))
print("first:", sorted(first_results))

root = tempfile.mkdtemp()
clients = []
for name, value in (("one", 7), ("two", 8)):
    env.from_collection([value], type_info=Types.INT()) \
        .map(lambda x: "%d" % (x + 1), Types.STRING()) \
        .sink_to(FileSink.for_row_format(os.path.join(root, name),
                                         Encoder.simple_string_encoder()).build())
    clients.append(env.execute_async("async " + name))
status = type(clients[1].get_job_status().result()).__name__
clients[1].get_job_execution_result().result()
clients[0].get_job_execution_result().result()
print("ids differ:", clients[0].get_job_id() != clients[1].get_job_id())
print("status while running is a", status)
for name in ("one", "two"):
    lines = []
    for directory, _, files in os.walk(os.path.join(root, name)):
        for file_name in files:
            with open(os.path.join(directory, file_name)) as f:
                lines.extend(f.read().split())
    print(name, sorted(lines))
