"""Base classes of sources and sinks. A source the shim can run has a `_source_definition()`
returning its declarative spec (specs.sources), a sink a `_sink_definition(input_type)`
returning one of specs.sinks (and a `_sink_name`); others raise a clear error."""
from abc import ABC, abstractmethod
from enum import Enum
from typing import Optional

__all__ = ["Source", "Sink", "DeliveryGuarantee", "StreamTransformer", "SupportsPreprocessing"]


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


class StreamTransformer(ABC):
    """Turns the DataStream a sink receives into what it writes (applied by sink_to)."""

    @abstractmethod
    def apply(self, ds):
        pass


class SupportsPreprocessing(ABC):
    """A sink that transforms its input stream first (see StreamTransformer)."""

    @abstractmethod
    def get_transformer(self) -> Optional[StreamTransformer]:
        pass
