"""TableDescriptor / FormatDescriptor options (table/table_descriptor.py), without Spark:
the prefixes Flink gives a format's options and java.util.HashMap's order, as PyFlink 1.20.5
returns them (seen)."""
from pyflink_on_spark.common.config_options import ConfigOptions
from pyflink_on_spark.table.table_descriptor import FormatDescriptor, TableDescriptor


def test_a_format_descriptors_options_are_prefixed_with_its_format():
    csv = FormatDescriptor.for_format("csv").option("field-delimiter", ";") \
        .option("ignore-parse-errors", "true").build()
    options = TableDescriptor.for_connector("filesystem").option("path", "/tmp/x") \
        .format(csv).build().get_options()
    assert list(options.items()) == [
        ("path", "/tmp/x"), ("connector", "filesystem"), ("csv.ignore-parse-errors", "true"),
        ("format", "csv"), ("csv.field-delimiter", ";")]
    assert str(csv) == "csv[{field-delimiter=;, ignore-parse-errors=true}]"


def test_a_format_option_gives_its_key_prefix():
    key_format = ConfigOptions.key("key.format").string_type().no_default_value()
    json = FormatDescriptor.for_format("json").option("fail-on-missing-field", "true").build()
    options = TableDescriptor.for_connector("kafka").format(json, key_format) \
        .format("json").build().get_options()
    assert list(options.items()) == [
        ("connector", "kafka"), ("key.format", "json"), ("format", "json"),
        ("key.json.fail-on-missing-field", "true")]


def test_format_descriptors_compare_by_format_and_options():
    def make(delimiter):
        return FormatDescriptor.for_format("csv").option("field-delimiter", delimiter).build()
    assert make(";") == make(";") and hash(make(";")) == hash(make(";"))
    assert make(";") != make(",")
