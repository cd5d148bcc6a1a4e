"""Node kind -> runtime operator factory. The one place that maps the declarative graph onto
the engine's few primitives (source, process, keyed process, timestamps, driver sinks)."""
from __future__ import annotations

import functools

from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, SinkTransformation, SourceTransformation, Transformation)
from pyflink_on_spark.runtime import adapters
from pyflink_on_spark.runtime.batch_order import batch_key_order
from pyflink_on_spark.runtime.operators.driver_sink import CollectSinkOperator, PrintSinkOperator
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.operators.process import ProcessOperator
from pyflink_on_spark.runtime.operators.source import SourceOperator
from pyflink_on_spark.runtime.operators.timestamps import TimestampsAndWatermarksOperator
from pyflink_on_spark.runtime.spec import JobConfig

_KEYED_ADAPTERS = {
    "keyed_map": adapters.KeyedMapAdapter,
    "keyed_flat_map": adapters.KeyedFlatMapAdapter,
    "keyed_filter": adapters.KeyedFilterAdapter,
}


def _renderer(type_info):
    render = getattr(type_info, "_to_java_string", None)
    return render if render is not None else str


def _keyed(function, key_selector, batch_order=None):
    return KeyedProcessOperator(function, key_selector, batch_order)


def operator_factory(node: Transformation, config: JobConfig):
    batch = config.runtime_mode == "BATCH"
    if isinstance(node, SourceTransformation):
        return functools.partial(SourceOperator, node.source.reader, node.watermark_strategy)
    if isinstance(node, SinkTransformation):
        if node.kind == "print":
            return functools.partial(PrintSinkOperator, node.params.get("identifier"),
                                     _renderer(node.input_type))
        if node.kind == "collect":
            return CollectSinkOperator
        if node.kind in ("commit", "frame"):  # graph/sinks.py: files, Kafka
            return node.params["sink"].operator_factory
        raise ValueError("unknown sink kind %r" % node.kind)
    if isinstance(node, OneInputTransformation):
        kind = node.kind
        order = batch_key_order(node.params.get("key_type")) if batch else None
        if kind in ("map", "flat_map", "filter", "process"):
            return functools.partial(ProcessOperator, kind, node.function)
        if kind in _KEYED_ADAPTERS:
            return functools.partial(_keyed, _KEYED_ADAPTERS[kind](node.function),
                                     node.key_selector, order)
        if kind == "keyed_process":
            return functools.partial(_keyed, node.function, node.key_selector, order)
        if kind == "reduce":
            return functools.partial(_keyed, adapters.ReduceAdapter(node.function, batch),
                                     node.key_selector, order)
        if kind == "aggregation":
            adapter = adapters.AggregationAdapter(node.params["aggregation"],
                                                  node.params["position"], batch)
            return functools.partial(_keyed, adapter, node.key_selector, order)
        if kind == "timestamps":
            return functools.partial(TimestampsAndWatermarksOperator, node.function)
    raise NotImplementedError("operator %r (%s) is not supported yet" % (
        node.name, getattr(node, "kind", type(node).__name__)))
