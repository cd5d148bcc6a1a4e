"""The driver's end of a job's sinks, one for every runner (the bounded Spark executor over its
driver channel or read back through Spark Connect, each micro-batch of an unbounded job, the
direct runner): what sinks send to the driver goes where each wants it, in arrival order.

* print sinks: lines to the driver's stdout;
* file sinks: the parts their tasks staged, kept for the commit (renamed into place only once
  everything succeeded; runner-specific: codecs/files/commit.py, or per micro-batch);
* collecting sinks: the job's own collector (``execute_and_collect``) gets its values back
  from ``deliver``; a test sink's values go to its list (runtime/collected_results.py).
"""
from __future__ import annotations

import sys
from typing import Dict, List, Optional, Sequence, TextIO

from pyflink_on_spark.codecs.files.commit import FileCommitter
from pyflink_on_spark.runtime.collected_results import deliver as deliver_results
from pyflink_on_spark.specs.sinks import CollectSinkSpec, FileSinkSpec, PrintSinkSpec


class DriverSinks:
    """A job's sinks as the driver sees them, for one run (or one micro-batch)."""

    def __init__(self, job, collect_sink_id: Optional[int] = None,
                 out: Optional[TextIO] = None) -> None:
        self.sink_of_edge = {s.edge_id: s for stage in job.stages for s in stage.sinks}
        self.collect_sink_id = collect_sink_id
        self.out = out if out is not None else sys.stdout
        self.file_sinks = {edge: s.sink for edge, s in self.sink_of_edge.items()
                           if isinstance(s.sink, FileSinkSpec)}
        self.committables: Dict[int, List] = {edge: [] for edge in self.file_sinks}
        self._committers: Optional[Dict[int, FileCommitter]] = None

    def deliver(self, edge: int, values: Sequence) -> Sequence:
        """Routes one message of driver rows; returns the values that are the job's own
        collector's (empty for every other sink)."""
        sink_exit = self.sink_of_edge[edge]
        sink = sink_exit.sink
        if isinstance(sink, PrintSinkSpec):
            self.out.write("\n".join(values))
            self.out.write("\n")
        elif isinstance(sink, FileSinkSpec):
            self.committables[edge].extend(values)
        elif isinstance(sink, CollectSinkSpec):
            if sink_exit.node_id == self.collect_sink_id:
                return values
            if sink.results_id is not None:
                deliver_results(sink.results_id, values)
        return ()

    def is_print(self, edge: int) -> bool:
        return isinstance(self.sink_of_edge[edge].sink, PrintSinkSpec)

    # -- a whole run's file sinks: staged, then committed or aborted ---------------------------

    @property
    def committers(self) -> Dict[int, FileCommitter]:
        if self._committers is None:
            self._committers = {edge: FileCommitter(sink)
                                for edge, sink in self.file_sinks.items()}
        return self._committers

    def prepare(self) -> None:
        """Before the run: clears what crashed runs left in the sinks' directories."""
        for committer in self.committers.values():
            committer.prepare()

    def commit(self) -> None:
        """After every task succeeded: publishes every staged part."""
        self.out.flush()
        for edge, committer in self.committers.items():
            committer.commit(self.committables[edge])

    def abort(self) -> None:
        for committer in self.committers.values():
            committer.abort()
