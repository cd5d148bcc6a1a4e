"""Spark's reader settings for each FileSource format (spark/file_formats.py)."""
import pytest

from pyflink_on_spark.codecs.formats.text import TextInputFormat, TextLineFormat
from pyflink_on_spark.datastream.formats.avro import AvroInputFormat, AvroSchema
from pyflink_on_spark.datastream.formats.csv import CsvReaderFormat, CsvSchema
from pyflink_on_spark.spark.file_formats import reads_whole_file, spark_read


def test_spark_reads_utf8_and_its_own_codecs_the_rest_is_decoded_here():
    fmt = TextLineFormat()
    assert not reads_whole_file(fmt, "/d/a.txt")
    assert not reads_whole_file(fmt, "/d/a.txt.gz")
    assert not reads_whole_file(fmt, "/d/a.bz2")
    assert reads_whole_file(fmt, "/d/a.txt.xz")
    assert reads_whole_file(fmt, "/d/a.gzip")
    assert reads_whole_file(fmt, "/d/A.GZ")     # Hadoop's codec lookup is case-sensitive
    assert reads_whole_file(TextLineFormat("ISO-8859-1"), "/d/a.txt")


def test_text_formats_read_with_sparks_text_source():
    assert spark_read(TextLineFormat()).source == "text"
    assert spark_read(TextLineFormat()).options == {}
    # read_text_file splits lines at "\n" only, as Flink's TextInputFormat
    assert spark_read(TextInputFormat()).options == {"lineSep": "\n"}
    assert spark_read(TextInputFormat()).columns == ("value",)


def test_csv_files_are_decoded_whole_as_jacksons_parser_reads_them():
    schema = CsvSchema.builder().add_number_column("id").add_string_column("name") \
        .set_column_separator(";").build()
    fmt = CsvReaderFormat.for_schema(schema)._format()
    assert reads_whole_file(fmt, "/d/a.csv")
    assert [tuple(r) for r in fmt.decode_file("/d/a.csv", b"1;x\n2;y\n")] == \
        [(1, "x"), (2, "y")]


def test_avro_needs_the_spark_avro_package():
    schema = AvroSchema.parse_string('{"type": "record", "name": "R", "fields": '
                                     '[{"name": "a", "type": "int"}]}')
    read = spark_read(AvroInputFormat("/x", schema).get_java_object()[1])
    assert (read.source, read.package, read.columns) == ("avro", "spark-avro", ("a",))


def test_an_unknown_format_is_an_error_naming_it():
    with pytest.raises(NotImplementedError, match="cannot be read on Spark"):
        spark_read(object())
