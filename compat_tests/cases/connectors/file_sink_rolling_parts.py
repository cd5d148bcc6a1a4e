"""DefaultRollingPolicy with a small part size: a part rolls before a record once its size
exceeds part_size bytes, so parts hold [aaaa, bbbb], [cccc, dddd], [eeee] with counters
0, 1, 2 of one subtask uuid."""
import os
import tempfile

from pyflink.common import Encoder, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import (BucketAssigner, FileSink,
                                                       OutputFileConfig, RollingPolicy)

root = tempfile.mkdtemp()
base = os.path.join(root, "out")
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection(["aaaa", "bbbb", "cccc", "dddd", "eeee"], type_info=Types.STRING()) \
    .sink_to(FileSink.for_row_format(base, Encoder.simple_string_encoder())
             .with_rolling_policy(RollingPolicy.default_rolling_policy(part_size=7))
             .with_output_file_config(OutputFileConfig("chunk", ".txt"))
             .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
env.execute("rolling")
names = os.listdir(base)
print("uuids:", len({n.rsplit("-", 1)[0] for n in names}))
for name in sorted(names, key=lambda n: int(n.rsplit("-", 1)[1].split(".")[0])):
    with open(os.path.join(base, name)) as f:
        print("part", name.rsplit("-", 1)[1], repr(f.read()))
