"""FileSink.for_bulk_format with CsvBulkWriters.for_schema: Rows written as CSV with
Jackson's quoting (a value with a separator, a quote or a space is quoted), one part per
subtask (OnCheckpointRollingPolicy)."""
import os
import tempfile

from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import BucketAssigner, FileSink
from pyflink.datastream.formats.csv import CsvBulkWriters, CsvSchema

root = tempfile.mkdtemp()
base = os.path.join(root, "csv")
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
schema = CsvSchema.builder().add_number_column("id").add_string_column("name") \
    .add_boolean_column("ok").build()
rows = [Row(id=1, name="plain", ok=True), Row(id=2, name="a,b", ok=False),
        Row(id=3, name='say "hi"', ok=True), Row(id=4, name="two words", ok=False)]
env.from_collection(rows, type_info=Types.ROW_NAMED(["id", "name", "ok"],
                                                    [Types.LONG(), Types.STRING(),
                                                     Types.BOOLEAN()])) \
    .sink_to(FileSink.for_bulk_format(base, CsvBulkWriters.for_schema(schema))
             .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
env.execute("csv bulk")
for name in os.listdir(base):
    with open(os.path.join(base, name)) as f:
        print(repr(f.read()))
