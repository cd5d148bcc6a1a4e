"""HybridSource (mirror of pyflink.datastream.connectors.hybrid_source, PyFlink 1.20).

A HybridSource reads its sources one after the other (typically a bounded file backlog, then
Kafka from where the files end). When every source is bounded (FileSource, bounded
KafkaSource, NumberSequenceSource), from_source reads them as one stream in which each
subtask receives every record of a source before the next source's: the sources' streams
unioned in their order (a union's consumer takes its inputs edge by edge, see
direct/exchange.py). A tail that is unbounded (KafkaSource without set_bounded, a monitored
FileSource) raises NotImplementedError: switching to it at run time is not built.
"""
from __future__ import annotations

from typing import List, Optional

from pyflink_on_spark.datastream.connectors._not_on_spark import (UnmappedSource, not_on_spark,
                                                                 require)
from pyflink_on_spark.datastream.connectors.base import Source

__all__ = [
    'HybridSource',
    'HybridSourceBuilder'
]

_ROUTE = ("A HybridSource whose last source is unbounded switches to it at run time, which "
          "needs streaming execution (not built yet); a HybridSource of bounded sources runs. "
          "On Spark, read the backlog as a batch DataFrame and the stream with Structured "
          "Streaming.")


def _is_bounded(source: Source) -> Optional[bool]:
    """True / False where the source says so, None when it cannot tell."""
    bounded = getattr(source, "_bounded", None)
    if isinstance(bounded, bool):
        return bounded
    settings = getattr(source, "_j_source", None)
    if isinstance(settings, dict) and isinstance(settings.get("bounded"), bool):
        return settings["bounded"]   # KafkaSource keeps its builder's settings here
    return None


def _check_source(source: Source) -> None:
    if not isinstance(source, Source):
        raise TypeError("a HybridSource is made of Sources (FileSource, KafkaSource, ...), "
                        "got %s" % type(source).__name__)


class HybridSource(UnmappedSource, Source):
    _connector_name = "HybridSource"
    _spark_route = _ROUTE

    def __init__(self, j_hybrid_source):
        super(HybridSource, self).__init__(source=j_hybrid_source)

    def _bounded_sources(self) -> List[Source]:
        """The sources in reading order, when every one is bounded (the environment reads
        them as one stream); NotImplementedError naming the unbounded one otherwise."""
        for source in self._sources:
            try:
                definition = source._source_definition()
            except NotImplementedError as e:
                not_on_spark("HybridSource with %s" % type(source).__name__,
                             "%s (%s)" % (self._spark_route, e))
            if getattr(definition, "monitor_interval_ms", 0) > 0 \
                    or getattr(definition, "bounded", True) is False:
                not_on_spark("HybridSource with an unbounded %s" % type(source).__name__,
                             self._spark_route)
        return list(self._sources)

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
