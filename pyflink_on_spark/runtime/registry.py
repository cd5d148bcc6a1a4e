"""Spec class -> the operator that runs it (the idea of Beam's TransformEvaluatorRegistry).

A task builds each operator of its chain with `build_operator(spec, config)`. The engine has
a few primitives (source, process, keyed process, co-process, keyed co-process, broadcast,
keyed broadcast, window, timestamps, the sinks); every other operator is an adapter over
one of them (runtime/adapters.py, runtime/co_adapters.py), as PyFlink's runtime runs them.

Adding an operator: a spec in pyflink_on_spark/specs, an operator (or adapter) class, and
one line in BUILDERS.
"""
from __future__ import annotations

from typing import Any, Callable, Dict

from pyflink_on_spark.runtime import adapters, co_adapters
from pyflink_on_spark.runtime.batch_order import batch_key_order
from pyflink_on_spark.runtime.operators.base import Operator
from pyflink_on_spark.runtime.operators.broadcast import (
    BroadcastProcessOperator, KeyedBroadcastProcessOperator)
from pyflink_on_spark.runtime.operators.bundled_aggregate import BundleOperator
from pyflink_on_spark.runtime.operators.cassandra_sink import CassandraSinkOperator
from pyflink_on_spark.runtime.operators.co_process import (
    CoProcessOperator, KeyedCoProcessOperator)
from pyflink_on_spark.runtime.operators.discard_sink import DiscardSinkOperator
from pyflink_on_spark.runtime.operators.driver_sink import CollectSinkOperator, PrintSinkOperator
from pyflink_on_spark.runtime.operators.elasticsearch_sink import ElasticsearchSinkOperator
from pyflink_on_spark.runtime.operators.file_sink import FileSinkOperator
from pyflink_on_spark.runtime.operators.jdbc_sink import JdbcSinkOperator
from pyflink_on_spark.runtime.operators.jdbc_upsert_sink import JdbcUpsertSinkOperator
from pyflink_on_spark.runtime.operators.kafka_sink import KafkaSinkOperator
from pyflink_on_spark.runtime.operators.kafka_transactional_sink import (
    KafkaTransactionalSinkOperator)
from pyflink_on_spark.runtime.operators.upsert_kafka_sink import UpsertBufferKafkaSinkOperator
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.operators.process import (
    FilterOperator, FlatMapOperator, MapOperator, ProcessOperator)
from pyflink_on_spark.runtime.operators.rabbitmq_sink import RabbitMQSinkOperator
from pyflink_on_spark.runtime.operators.source import EventScriptSourceOperator, SourceOperator
from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
from pyflink_on_spark.runtime.window.operator import WindowOperator
from pyflink_on_spark.specs import operators as op
from pyflink_on_spark.specs import sinks, sources
from pyflink_on_spark.specs.stage import JobConfig

Builder = Callable[[Any, JobConfig], Operator]


def _batch(config: JobConfig) -> bool:
    return config.runtime_mode == "BATCH"


def _order(spec, config: JobConfig):
    """BATCH mode processes keyed input grouped by key, keys in serialized-key order."""
    return batch_key_order(spec.key_type) if _batch(config) else None


def _keyed(function, spec, config: JobConfig) -> KeyedProcessOperator:
    return KeyedProcessOperator(function, spec.key_selector, _order(spec, config))


def _keyed_process(spec, config: JobConfig) -> Operator:
    """A keyed process function's operator; the Table API's Python group aggregate ends
    PyFlink's bundles (table/group_aggregates.py BundledGroupAggregate)."""
    if getattr(spec.function, "runs_in_bundles", False):
        return BundleOperator(spec.function, spec.key_selector)
    return _keyed(spec.function, spec, config)


def _keyed_co(function, spec, config: JobConfig) -> KeyedCoProcessOperator:
    return KeyedCoProcessOperator(function, spec.key_selector1, spec.key_selector2,
                                  _order(spec, config))


def _print_renderer(type_info, as_java_holds: bool = False) -> Callable[[Any], str]:
    render = getattr(type_info, "_java_str", None) if as_java_holds \
        else getattr(type_info, "_to_java_string", None)
    return render if render is not None else str


BUILDERS: Dict[type, Builder] = {
    # sources and sinks
    sources.SourceReaderSpec: lambda s, c: SourceOperator(s.reader, s.watermark_strategy),
    sources.EventScriptReaderSpec: lambda s, c: EventScriptSourceOperator(),
    sinks.PrintSinkSpec: lambda s, c: PrintSinkOperator(
        s.identifier, _print_renderer(s.input_type, s.as_java_holds)),
    sinks.CollectSinkSpec: lambda s, c: CollectSinkOperator(),
    sinks.DiscardSinkSpec: lambda s, c: DiscardSinkOperator(),
    sinks.ElasticsearchSinkSpec: lambda s, c: ElasticsearchSinkOperator(s),
    sinks.FileSinkSpec: lambda s, c: FileSinkOperator(s),
    sinks.JdbcSinkSpec: lambda s, c: JdbcSinkOperator(s),
    sinks.JdbcUpsertSinkSpec: lambda s, c: JdbcUpsertSinkOperator(s),
    sinks.KafkaSinkSpec: lambda s, c: KafkaSinkOperator(s),
    sinks.KafkaUpsertBufferSinkSpec: lambda s, c: UpsertBufferKafkaSinkOperator(s),
    sinks.KafkaTransactionalSinkSpec: lambda s, c: KafkaTransactionalSinkOperator(s),
    sinks.RabbitMQSinkSpec: lambda s, c: RabbitMQSinkOperator(s),
    sinks.CassandraSinkSpec: lambda s, c: CassandraSinkOperator(s),
    # one input
    op.MapSpec: lambda s, c: MapOperator(s.function),
    op.FlatMapSpec: lambda s, c: FlatMapOperator(s.function),
    op.FilterSpec: lambda s, c: FilterOperator(s.function),
    op.ProcessSpec: lambda s, c: ProcessOperator(s.function),
    op.TimestampsSpec: lambda s, c: TimestampsAndWatermarksOperator(s.watermark_strategy),
    op.KeyedProcessSpec: _keyed_process,
    op.KeyedMapSpec: lambda s, c: _keyed(adapters.KeyedMapAdapter(s.function), s, c),
    op.KeyedFlatMapSpec: lambda s, c: _keyed(adapters.KeyedFlatMapAdapter(s.function), s, c),
    op.KeyedFilterSpec: lambda s, c: _keyed(adapters.KeyedFilterAdapter(s.function), s, c),
    op.ReduceSpec: lambda s, c: _keyed(adapters.ReduceAdapter(s.function, _batch(c)), s, c),
    op.AggregationSpec: lambda s, c: _keyed(
        adapters.AggregationAdapter(s.aggregation, s.position, _batch(c)), s, c),
    op.WindowSpec: lambda s, c: WindowOperator(s.operation, s.key_selector, _order(s, c)),
    # two inputs
    op.CoMapSpec: lambda s, c: CoProcessOperator(co_adapters.CoMapAdapter(s.function),
                                                 s.input_key_selectors),
    op.CoFlatMapSpec: lambda s, c: CoProcessOperator(
        co_adapters.CoFlatMapAdapter(s.function), s.input_key_selectors),
    op.CoProcessSpec: lambda s, c: CoProcessOperator(s.function, s.input_key_selectors),
    op.KeyedCoMapSpec: lambda s, c: _keyed_co(co_adapters.CoMapAdapter(s.function), s, c),
    op.KeyedCoFlatMapSpec: lambda s, c: _keyed_co(
        co_adapters.CoFlatMapAdapter(s.function), s, c),
    op.KeyedCoProcessSpec: lambda s, c: _keyed_co(s.function, s, c),
    op.BroadcastProcessSpec: lambda s, c: BroadcastProcessOperator(s.function),
    op.KeyedBroadcastProcessSpec: lambda s, c: KeyedBroadcastProcessOperator(
        s.function, s.key_selector, _order(s, c)),
}


def build_operator(spec: Any, config: JobConfig) -> Operator:
    """The runtime operator for `spec` (a fresh instance, for one subtask)."""
    builder = BUILDERS.get(type(spec))
    if builder is None:
        raise NotImplementedError("no runtime operator is registered for %s"
                                  % type(spec).__name__)
    return builder(spec, config)
