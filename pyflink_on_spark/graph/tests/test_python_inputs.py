"""A collection source's records with nulls only Java takes (CollectionSourceSpec.
python_input_error) may reach a sink but not a Python function (compile.python_input_error):
PyFlink's job fails at its start when one does."""
from pyflink_on_spark.datastream.functions import wrap_key_selector, wrap_map
from pyflink_on_spark.graph.compile import python_input_error
from pyflink_on_spark.graph.sources import collection_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, PartitionTransformation, SinkTransformation, SourceTransformation)
from pyflink_on_spark.specs.operators import MapSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sinks import CollectSinkSpec, PrintSinkSpec


def _source(error="the String record must not be null"):
    return SourceTransformation(name="Collection",
                                source=collection_source([(1, None)], error))


def test_a_sink_takes_the_records_a_python_function_does_not():
    src = _source()
    assert python_input_error([SinkTransformation(name="Print", input=src,
                                                  spec=PrintSinkSpec())]) is None
    mapped = OneInputTransformation(name="Map", input=src, spec=MapSpec(wrap_map(str)))
    assert "must not be null" in python_input_error(
        [SinkTransformation(name="Collect", input=mapped, spec=CollectSinkSpec())])


def test_key_bys_key_selector_is_a_python_function():
    src = _source()
    keyed = PartitionTransformation(name="KeyBy", input=src, partitioning=KeyedPartitioning(
        wrap_key_selector(lambda t: t[0])))
    assert python_input_error([SinkTransformation(name="Print", input=keyed,
                                                  spec=PrintSinkSpec())]) is not None


def test_a_source_without_such_nulls_goes_anywhere():
    src = _source(None)
    mapped = OneInputTransformation(name="Map", input=src, spec=MapSpec(wrap_map(str)))
    assert python_input_error([SinkTransformation(name="Print", input=mapped,
                                                  spec=PrintSinkSpec())]) is None
