"""get_execution_plan() with sink_to(FileSink): Flink shows the sink as "Sink: Writer" and
"Sink: Committer" operators (no "Data Sink" node), made when the plan is generated (new
ids, one skipped between them). The job is not run (the plan only)."""
import tempfile

from pyflink.common import Encoder, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSink

out = tempfile.mkdtemp()
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection(["a", "b"], type_info=Types.STRING())
ds.sink_to(FileSink.for_row_format(out, Encoder.simple_string_encoder()).build())
ds.map(lambda s: s.upper(), Types.STRING()).set_parallelism(1) \
    .sink_to(FileSink.for_row_format(out, Encoder.simple_string_encoder()).build())
ds.print()
print(env.get_execution_plan())
