"""Node kind -> runtime operator factory. The one place that maps the declarative graph onto
the engine's few primitives (source, process, keyed process, timestamps, driver sinks)."""
from __future__ import annotations

import functools

from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, SinkTransformation, SourceTransformation, Transformation,
    TwoInputTransformation)
from pyflink_on_spark.runtime import adapters, co_adapters
from pyflink_on_spark.runtime.batch_order import batch_key_order
from pyflink_on_spark.runtime.operators.broadcast import (
    BroadcastProcessOperator, KeyedBroadcastProcessOperator)
from pyflink_on_spark.runtime.operators.co_process import (
    CoProcessOperator, KeyedCoProcessOperator)
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


_CO_ADAPTERS = {"map": co_adapters.CoMapAdapter, "flat_map": co_adapters.CoFlatMapAdapter,
                "process": None}


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
        if kind == "window":
            from pyflink_on_spark.runtime.window.operator import WindowOperator
            return functools.partial(WindowOperator, node.function, node.key_selector, order)
        if kind == "timestamps":
            return functools.partial(TimestampsAndWatermarksOperator, node.function)
    if isinstance(node, TwoInputTransformation):
        return _two_input_factory(node, config)
    raise NotImplementedError("operator %r (%s) is not supported yet" % (
        node.name, getattr(node, "kind", type(node).__name__)))


def _two_input_factory(node: TwoInputTransformation, config: JobConfig):
    """co_map / co_flat_map / co_process (keyed_ prefixed when both inputs are keyed),
    broadcast_process, keyed_broadcast_process."""
    kind = node.kind
    order = (batch_key_order(node.params.get("key_type"))
             if config.runtime_mode == "BATCH" else None)
    if kind == "broadcast_process":
        return functools.partial(BroadcastProcessOperator, node.function)
    if kind == "keyed_broadcast_process":
        return functools.partial(KeyedBroadcastProcessOperator, node.function,
                                 node.key_selector1, order)
    keyed = kind.startswith("keyed_")
    base = kind[len("keyed_"):] if keyed else kind
    if base.startswith("co_") and base[3:] in _CO_ADAPTERS:
        adapter = _CO_ADAPTERS[base[3:]]
        function = adapter(node.function) if adapter is not None else node.function
        if keyed:
            return functools.partial(KeyedCoProcessOperator, function, node.key_selector1,
                                     node.key_selector2, order)
        return functools.partial(CoProcessOperator, function,
                                 node.params.get("keyed_rows", (None, None)))
    raise NotImplementedError("two-input operator %r (%s) is not supported yet"
                              % (node.name, kind))
