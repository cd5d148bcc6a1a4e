"""What the connector modules that do not run on Spark yet share: the error a job gets when it
uses one, and the hooks the environment calls when a source or sink joins the job graph.

The modules (cassandra, kinesis, pulsar, hybrid_source) mirror
PyFlink 1.20's classes so that programs import them and build their sources and sinks; the
builders keep the settings and check arguments as Flink's builders do. Only adding one to a job
(from_source / add_source / sink_to / add_sink) raises, naming the route Spark offers.
"""
from typing import Any, Dict, NoReturn


def not_on_spark(connector: str, route: str) -> NoReturn:
    raise NotImplementedError(
        "%s does not run on pyflink_on_spark yet: no Spark-side mapping is built for it. %s"
        % (connector, route))


def require(condition: bool, message: str) -> None:
    """Flink's Preconditions.checkArgument / checkState / checkNotNull on builder input (Flink
    raises IllegalArgumentException / IllegalStateException / NullPointerException)."""
    if not condition:
        raise ValueError(message)


class UnmappedSource(object):
    """Mixin for a source with no Spark mapping: the environment asks for the source's
    definition when the source joins the graph, and gets this error instead."""

    _connector_name = "this source"
    _spark_route = ""

    def _source_definition(self):
        not_on_spark(self._connector_name, self._spark_route)


class UnmappedSink(object):
    """Mixin for a sink with no Spark mapping (see UnmappedSource)."""

    _connector_name = "this sink"
    _spark_route = ""

    def _sink_definition(self, input_type: Any = None):
        not_on_spark(self._connector_name, self._spark_route)


def string_properties(what: str, properties: Dict) -> Dict[str, str]:
    """java.util.Properties.setProperty takes strings only (PyFlink passes each entry)."""
    if not isinstance(properties, dict):
        raise TypeError("%s must be a dict of str to str, got %s"
                        % (what, type(properties).__name__))
    for key, value in properties.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("%s: keys and values must be str (java.util.Properties), got %r: %r"
                            % (what, key, value))
    return dict(properties)
