"""FileSink.for_row_format with OutputFileConfig (prefix, suffix) at parallelism 2: one part
file per sink subtask named <prefix>-<uuid>-<counter><suffix>, directly in the base path
(BasePathBucketAssigner). Which records each subtask got varies (rebalance starts at a
random channel): file contents are printed sorted."""
import os
import re
import tempfile

from pyflink.common import Encoder, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import (BucketAssigner, FileSink,
                                                       OutputFileConfig)

root = tempfile.mkdtemp()
base = os.path.join(root, "out")
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
sink = FileSink.for_row_format(base, Encoder.simple_string_encoder()) \
    .with_output_file_config(OutputFileConfig.builder().with_part_prefix("events")
                             .with_part_suffix(".log").build()) \
    .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()) \
    .build()
env.from_collection(["a", "b", "c", "d", "e", "f"], type_info=Types.STRING()) \
    .map(lambda s: s * 2, output_type=Types.STRING()) \
    .sink_to(sink)
env.execute("file sink")

names = sorted(os.listdir(base))
pattern = re.compile(r"^events-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-0\.log$")
print("files:", len(names), "all named <prefix>-<uuid>-0<suffix>:",
      all(pattern.match(n) for n in names))
print("distinct uuids:", len({n[len("events-"):-len("-0.log")] for n in names}))
contents = []
for name in names:
    with open(os.path.join(base, name)) as f:
        contents.append(f.read())
print(sorted(contents))
print(sorted(line for c in contents for line in c.splitlines()))
