"""Records a value format cannot decode, as PyFlink 1.20.5 reads them from Kafka (each case
observed there, compat case kafka/bad_records): CSV without ignore_parse_errors fails, with
it skips what does not parse and reads a bad field or a missing column as None;
SimpleStringSchema never fails, bytes that are not UTF-8 become U+FFFD as Java decodes them;
Avro that ends early or is malformed fails, bytes after a whole record are ignored (PyFlink
1.20.5 with flink-sql-avro 1.20.0, the same records through a KafkaSource)."""
import pytest

from pyflink_on_spark.codecs.formats.java_charset import java_decode
from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.types import Row
from pyflink_on_spark.datastream.formats.csv import CsvRowDeserializationSchema

ROW = Types.ROW_NAMED(["name", "n"], [Types.STRING(), Types.INT()])


@pytest.mark.parametrize("message", [b"", b"d", b"e,5,6", b"f,", b"b,x"])
def test_csv_records_that_do_not_parse_fail(message):
    schema = CsvRowDeserializationSchema.Builder(ROW).build()
    with pytest.raises(IOError, match="Failed to deserialize CSV row"):
        schema._deserialize(message)


@pytest.mark.parametrize("message, row", [
    (b"a,1", Row(name="a", n=1)), (b",7", Row(name="", n=7)), (b" g , 8 ", Row(name=" g ", n=8)),
])
def test_csv_records_that_parse(message, row):
    assert CsvRowDeserializationSchema.Builder(ROW).build()._deserialize(message) == row


@pytest.mark.parametrize("message, row", [
    (b"b,x", Row(name="b", n=None)), (b"f,", Row(name="f", n=None)),
    (b"d", Row(name="d", n=None)),                       # a missing column
    (b"e,5,6", None), (b"", None), (b"h,\xff", None),    # skipped
])
def test_csv_with_ignore_parse_errors(message, row):
    schema = CsvRowDeserializationSchema.Builder(ROW).set_ignore_parse_errors(True).build()
    assert schema._deserialize(message) == row


@pytest.mark.parametrize("message, text", [
    (b"bad \xff\xfe utf8", "bad \ufffd\ufffd utf8"), (b"cut \xe2\x82", "cut \ufffd"),
    (b"x\xc0\xafy", "x\ufffd\ufffdy"), ("\u00e9t\u00e9".encode(), "\u00e9t\u00e9"),
    # an encoded surrogate is one U+FFFD in Java, three in Python's errors="replace"
    (b"\xed\xa0\x80z", "\ufffdz"), (b"\x00\xdf\xed\xa0", "\x00\ufffd\ufffd"),
    (b"\x00\xed\xed\xa0\xa0", "\x00\ufffd\ufffd"), (b"", ""),
])
def test_simple_string_schema_decodes_as_java(message, text):
    assert SimpleStringSchema()._deserialize(message) == text


def test_other_charsets_replace_per_byte_and_keep_their_own_rules():
    assert java_decode(b"a\xffb", "ascii") == "a\ufffdb"
    assert java_decode(b"\xed\xa0\x80", "latin-1") == "\xed\xa0\x80"


AVRO = ('{"type":"record","name":"R","fields":[{"name":"name","type":"string"},'
        '{"name":"n","type":"int"}]}')


@pytest.mark.parametrize("message", [
    b"\x02a",                      # ends in the middle of a record (EOFException)
    b"",
    b"\x01",                       # a negative string length
    b"\xff" * 10 + b"\x01",        # a varint longer than a long
])
def test_avro_records_that_do_not_decode_fail(message):
    from pyflink_on_spark.datastream.formats.avro import AvroRowDeserializationSchema
    from pyflink_on_spark.codecs.formats.avro import AvroDataError
    with pytest.raises(AvroDataError):
        AvroRowDeserializationSchema(avro_schema_string=AVRO)._deserialize(message)


def test_avro_bytes_after_the_record_are_ignored():
    from pyflink_on_spark.datastream.formats.avro import AvroRowDeserializationSchema
    schema = AvroRowDeserializationSchema(avro_schema_string=AVRO)
    assert schema._deserialize(b"\x02a\x02zz") == Row(name="a", n=1)
