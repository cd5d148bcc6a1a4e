"""A bounded job's tasks send their metrics to the driver only when a reporter reads them
(StageArgs.send_metrics): a JSON document a bundle cost every job's tasks ~20 us without one.
The stage function is driven here as a Spark task drives it, without Spark."""
import cloudpickle

from pyflink_on_spark.datastream.functions import wrap_map
from pyflink_on_spark.direct.exchange import source_split_rows
from pyflink_on_spark.graph.sources import number_sequence_source
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, SinkTransformation, SourceTransformation)
from pyflink_on_spark.runtime.tests.engine_harness import compile_sinks
from pyflink_on_spark.spark.stage_task import METRICS_EDGE, StageArgs, _run_stage_in_task
from pyflink_on_spark.specs.operators import MapSpec
from pyflink_on_spark.specs.sinks import CollectSinkSpec


class _RecordingChannel:
    """What a task sends the driver, kept (spark/task_channel.py TaskChannel's calls)."""

    def __init__(self):
        self.edges = []

    def send_output(self, text):
        pass

    def send_row(self, edge, payload):
        self.edges.append(edge)

    def flush(self):
        pass

    def end(self):
        pass

    def close(self):
        pass

    def report_error(self, error):
        raise error


def _edges_sent(send_metrics: bool):
    src = SourceTransformation(name="Seq", source=number_sequence_source(0, 99))
    mapped = OneInputTransformation(name="Map", input=src, spec=MapSpec(wrap_map(lambda x: x)))
    sink = SinkTransformation(name="Collect", input=mapped, spec=CollectSinkSpec())
    job = compile_sinks([sink], parallelism=1)
    stage = job.stages[0]
    sink_edges = frozenset(s.edge_id for s in stage.sinks)
    splits = [row for row in source_split_rows(stage.source.splits) if row[1] == 0]
    args = StageArgs(cloudpickle.dumps(stage.spec), False, driver_edges=sink_edges,
                     split_rows={0: splits}, send_metrics=send_metrics)
    channel = _RecordingChannel()
    list(_run_stage_in_task(args, stage.spec.stage_id, 0, 0, iter(()), channel))
    return channel.edges, sink_edges


def test_no_metrics_document_leaves_a_task_unless_a_reporter_reads_it():
    edges, sink_edges = _edges_sent(send_metrics=False)
    assert edges and set(edges) <= sink_edges      # the collected records, nothing else
    edges, sink_edges = _edges_sent(send_metrics=True)
    assert METRICS_EDGE in edges and set(edges) - {METRICS_EDGE} <= sink_edges
