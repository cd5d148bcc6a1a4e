"""CsvReaderFormat fails the job on a record Flink's Jackson-based reader rejects (too many
values, too few, an unclosed quote, text after a closing quote, an unparsable number) rather
than inventing, truncating or merging records; well-formed files around them still read."""
import os
import tempfile

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource
from pyflink.datastream.formats.csv import CsvReaderFormat, CsvSchema
from pyflink.table.types import DataTypes

root = tempfile.mkdtemp()
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
schema = CsvSchema.builder().add_number_column("id", number_type=DataTypes.INT()) \
    .add_string_column("name").build()

cases = [
    ("too_many", "1,ann\n4,dave,extra\n9,zed\n", "Too many entries: expected at most 2"),
    ("too_few", "1,ann\n5\n9,zed\n", "Row length mismatch. 2 fields expected but was 1."),
    ("empty_line", "1,ann\n\n9,zed\n", "Row length mismatch. 2 fields expected but was 1."),
    ("unclosed_quote", '1,ann\n6,"unterminated\n7,zed\n', "Missing closing quote for value"),
    ("after_quote", '1,"ann"x\n', "Expected column separator character"),
    ("bad_number", "1,ann\nx,bob\n", 'For input string: "x"'),
]
for name, text, message in cases:
    path = os.path.join(root, name + ".csv")
    with open(path, "w") as f:
        f.write(text)
    source = FileSource.for_record_stream_format(CsvReaderFormat.for_schema(schema), path).build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "csv") \
        .map(lambda r: r.name, output_type=Types.STRING()).filter(lambda n: False).print()
    try:
        env.execute(name)
        print(name, "succeeded")
    except Exception as e:
        print(name, "failed, names the cause:", message in str(e))

# what stays valid: a trailing separator, quotes inside unquoted text, CRLF, no final newline
path = os.path.join(root, "fine.csv")
with open(path, "w", newline="") as f:
    f.write('1,ann,\r\n2,a"b\r\n3," spaced " \n4,"multi\nline"\n5,last')
source = FileSource.for_record_stream_format(CsvReaderFormat.for_schema(schema), path).build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "csv") \
    .map(lambda r: "%d %r" % (r.id, r.name), output_type=Types.STRING()).print()
env.execute("fine")
