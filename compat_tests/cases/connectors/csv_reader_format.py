"""CsvReaderFormat.for_schema: typed columns, quoted values with separators and doubled
quotes, a header row, a custom separator. print() shows Flink's RowData (+I(...)); a Python
function receives a Row with the schema's column names."""
import os
import tempfile

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource
from pyflink.datastream.formats.csv import CsvReaderFormat, CsvSchema
from pyflink.table.types import DataTypes

root = tempfile.mkdtemp()
with open(os.path.join(root, "people.csv"), "w") as f:
    f.write('1,alice,3.5,true\n2,"bob, jr",-0.25,false\n3,"q""uote",1e3,true\n')
with open(os.path.join(root, "header.psv"), "w") as f:
    f.write("id|name\n7|x\n8|y z\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
schema = CsvSchema.builder() \
    .add_number_column("id", number_type=DataTypes.INT()) \
    .add_string_column("name") \
    .add_number_column("score", number_type=DataTypes.DOUBLE()) \
    .add_boolean_column("ok") \
    .build()
print(schema, flush=True)
source = FileSource.for_record_stream_format(CsvReaderFormat.for_schema(schema),
                                             os.path.join(root, "people.csv")).build()
people = env.from_source(source, WatermarkStrategy.no_watermarks(), "csv")
people.print()
env.execute("print rows")

people.map(lambda r: "%r %s %s" % (r, type(r.id).__name__, type(r.score).__name__),
           output_type=Types.STRING()).print()
env.execute("python rows")

header_schema = CsvSchema.builder().add_number_column("id").add_string_column("name") \
    .set_column_separator("|").set_use_header().build()
source = FileSource.for_record_stream_format(CsvReaderFormat.for_schema(header_schema),
                                             os.path.join(root, "header.psv")).build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "psv").print()
env.execute("header")
