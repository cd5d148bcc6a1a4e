"""HybridSource (mirror of pyflink.datastream.connectors.hybrid_source, PyFlink 1.20).

A HybridSource reads its sources one after the other (typically a bounded file backlog, then
Kafka). As in PyFlink, each source's start position is fixed when it is built (e.g. a
KafkaSource with OffsetsInitializer.earliest() / timestamp(t)): Python has no dynamic start
position.

* Every source bounded (FileSource, bounded KafkaSource, NumberSequenceSource): from_source
  reads them as one stream in which each subtask receives every record of a source before the
  next source's: the sources' streams unioned in their order (a union's consumer takes its
  inputs edge by edge, see direct/exchange.py).
* The last source unbounded (a KafkaSource without set_bounded, a monitored FileSource):
  one source node (specs.sources.HybridSourceSpec) that runs on Structured Streaming. Its
  first micro-batches read the bounded sources, one whole source per batch, then every batch
  reads the unbounded one; which source a batch read, and what it read, are recorded in the
  checkpoint (spark/streaming/hybrid_index.py), so a restart neither reads a finished source
  again nor skips the switch.
"""
from __future__ import annotations

from typing import Callable, List, Optional

from pyflink_on_spark.datastream.connectors._not_on_spark import not_on_spark, require
from pyflink_on_spark.datastream.connectors.base import Source

__all__ = [
    'HybridSource',
    'HybridSourceBuilder'
]

_ROUTE = ("A HybridSource runs FileSources and KafkaSources (every one but the last "
          "bounded), and bounded NumberSequenceSources when every source is bounded.")


def _is_bounded(source: Source) -> Optional[bool]:
    """True / False where the source says so, None when it cannot tell."""
    bounded = getattr(source, "_bounded", None)
    if isinstance(bounded, bool):
        return bounded
    settings = getattr(source, "_j_source", None)
    if isinstance(settings, dict) and isinstance(settings.get("bounded"), bool):
        return settings["bounded"]   # KafkaSource keeps its builder's settings here
    return None


def _is_unbounded_definition(definition) -> bool:
    return getattr(definition, "monitor_interval_ms", 0) > 0 \
        or getattr(definition, "bounded", True) is False


def _check_source(source: Source) -> None:
    if not isinstance(source, Source):
        raise TypeError("a HybridSource is made of Sources (FileSource, KafkaSource, ...), "
                        "got %s" % type(source).__name__)


class HybridSource(Source):
    _spark_route = _ROUTE

    # Flink's HybridSource does not declare the type it produces (it is not
    # ResultTypeQueryable): from_source needs type_info (stream_execution_environment.py)
    _declares_no_type = True

    def __init__(self, j_hybrid_source):
        super(HybridSource, self).__init__(source=j_hybrid_source)

    def _definitions(self) -> list:
        """Each source's spec, in reading order (NotImplementedError naming a source that
        does not run here)."""
        found = []
        for source in self._sources:
            try:
                found.append(source._source_definition())
            except (NotImplementedError, AttributeError) as e:
                not_on_spark("HybridSource with %s" % type(source).__name__,
                             "%s (%s)" % (self._spark_route, e))
        return found

    @property
    def _bounded_sources(self) -> Optional[Callable[[], List[Source]]]:
        """What the environment reads as a union of streams in order: the sources, when
        every one is bounded; None when the last is unbounded (then from_source takes
        _source_definition, one streaming source)."""
        if _is_unbounded_definition(self._definitions()[-1]):
            return None
        return lambda: list(self._sources)

    def _source_definition(self):
        """specs.sources.HybridSourceSpec of a HybridSource whose last source is unbounded."""
        from pyflink_on_spark.specs.sources import (FileSourceSpec, HybridSourceSpec,
                                                    KafkaSourceSpec)
        definitions = self._definitions()
        for source, definition in zip(self._sources, definitions):
            if not isinstance(definition, (FileSourceSpec, KafkaSourceSpec)):
                not_on_spark("HybridSource with %s ahead of an unbounded source"
                             % type(source).__name__, self._spark_route)
        for source, definition in zip(self._sources[:-1], definitions[:-1]):
            if _is_unbounded_definition(definition):
                raise ValueError("All sources except the final source need to be bounded.")
        return HybridSourceSpec(tuple(definitions))

    @staticmethod
    def builder(first_source: Source) -> 'HybridSourceBuilder':
        _check_source(first_source)
        return HybridSourceBuilder([first_source])


class HybridSourceBuilder(object):
    def __init__(self, j_hybrid_source_builder):
        self._j_hybrid_source_builder = j_hybrid_source_builder

    def add_source(self, source: Source) -> 'HybridSourceBuilder':
        _check_source(source)
        self._j_hybrid_source_builder.append(source)
        return self

    def build(self) -> 'HybridSource':
        sources: List[Source] = list(self._j_hybrid_source_builder)
        for source in sources[:-1]:
            require(_is_bounded(source) is not False,
                    "All sources except the final source need to be bounded.")
        hybrid = HybridSource(tuple(sources))
        hybrid._sources = sources
        return hybrid
