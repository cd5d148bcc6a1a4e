"""Base classes of sources and sinks. A source the shim can run carries a
`_source_definition()` (graph.sources.SourceDefinition); others raise a clear error."""
from enum import Enum

__all__ = ["Source", "Sink", "DeliveryGuarantee"]


class DeliveryGuarantee(Enum):
    EXACTLY_ONCE = 0
    AT_LEAST_ONCE = 1
    NONE = 2


class Source(object):
    def __init__(self, source=None):
        self._j_source = source

    def get_java_function(self):
        raise NotImplementedError("Source.get_java_function: there is no Flink JVM here")


class Sink(object):
    def __init__(self, sink=None):
        self._j_sink = sink

    def get_java_function(self):
        raise NotImplementedError("Sink.get_java_function: there is no Flink JVM here")
