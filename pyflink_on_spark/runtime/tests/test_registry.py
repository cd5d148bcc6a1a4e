"""The registry builds one runtime operator per spec class."""
import dataclasses
import inspect

import pytest

from pyflink_on_spark.datastream.functions import wrap_key_selector, wrap_map
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.operators.process import MapOperator
from pyflink_on_spark.runtime.registry import BUILDERS, build_operator
from pyflink_on_spark.specs import operators, sinks, sources
from pyflink_on_spark.specs.operators import AggregationSpec, Aggregation, MapSpec
from pyflink_on_spark.specs.stage import JobConfig


def _spec_classes(module):
    return [cls for _, cls in inspect.getmembers(module, inspect.isclass)
            if dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__]


def test_every_operator_source_and_sink_spec_has_a_builder():
    # the other specs.sources classes say what a source reads (split by the compiler or read
    # by the executor); every source node runs a SourceReaderSpec
    specs = _spec_classes(operators) + _spec_classes(sinks) + [sources.SourceReaderSpec]
    missing = [cls.__name__ for cls in specs if cls not in BUILDERS]
    assert missing == []


def test_specs_build_their_operators():
    config = JobConfig()
    assert type(build_operator(MapSpec(wrap_map(str)), config)) is MapOperator
    rolling = build_operator(AggregationSpec(Aggregation.SUM, 1, wrap_key_selector(len)),
                             JobConfig(runtime_mode="BATCH"))
    assert isinstance(rolling, KeyedProcessOperator)
    assert rolling._batch_key_order is not None


def test_an_unregistered_spec_is_an_error_naming_it():
    @dataclasses.dataclass(frozen=True)
    class MadeUpSpec:
        pass

    with pytest.raises(NotImplementedError, match="MadeUpSpec"):
        build_operator(MadeUpSpec(), JobConfig())
