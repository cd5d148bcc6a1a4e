"""pyflink.common re-exports the JSON / CSV / Avro row schemas of pyflink.datastream.formats."""
import pyflink.common as common
from pyflink.common import (AvroRowDeserializationSchema, CsvRowSerializationSchema,
                            JsonRowDeserializationSchema, JsonRowSerializationSchema,
                            SimpleStringSchema, Types)
from pyflink.datastream.formats.csv import CsvRowSerializationSchema as FromFormats

print(sorted(n for n in dir(common) if n.endswith("Schema")))
print(CsvRowSerializationSchema is FromFormats)
print(JsonRowDeserializationSchema.__name__, AvroRowDeserializationSchema.__name__,
      JsonRowSerializationSchema.__name__, SimpleStringSchema.__name__)
print(Types.STRING())
