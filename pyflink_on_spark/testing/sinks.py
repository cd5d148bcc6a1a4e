"""A sink that collects what reaches it into a list of this process, exactly (values in the
order the driver receives them: subtask 0's first, each subtask's in emission order)."""
from __future__ import annotations

from typing import Any, List

from pyflink_on_spark.runtime.collected_results import register_results, release
from pyflink_on_spark.specs.sinks import CollectSinkSpec


class CollectingSink:
    """`stream.add_sink(sink)` (or `sink_to`); after `env.execute()`, `sink.results`."""

    _sink_name = "Collecting Sink"

    def __init__(self) -> None:
        self._results_id, self.results = register_results()

    def _sink_definition(self, input_type: Any) -> CollectSinkSpec:
        return CollectSinkSpec(results_id=self._results_id)

    def clear(self) -> List:
        """The results so far, emptying the list (between jobs of one test)."""
        taken = list(self.results)
        del self.results[:]
        return taken

    def close(self) -> None:
        release(self._results_id)

    def __repr__(self) -> str:
        return "CollectingSink(%r)" % (self.results,)


def collect(stream) -> CollectingSink:
    """A CollectingSink attached to `stream`."""
    sink = CollectingSink()
    stream.add_sink(sink)
    return sink


def collect_side_output(stream, tag) -> CollectingSink:
    """A CollectingSink on the side output `tag` (an OutputTag) of `stream`."""
    return collect(stream.get_side_output(tag))
