"""Flink's system metrics of one subtask: an unbounded job's read after each micro-batch, a
bounded job's sent at each bundle's end (spark/stage_task.py).

Names as Flink's (Task/Operator scope, "Metrics" in Flink's operations docs), and where each
appears as PyFlink 1.20.5's Prometheus reporter showed them: numRecordsIn, numRecordsOut,
currentInputWatermark (Task and Operator; not for a source stage), currentOutputWatermark
(Operator). They are read from what the task keeps anyway, so counting costs nothing per
record: the head's input is counted per input row (StreamTask.records_in; a source's per
chunk or slice it reads: SourceOperator.records_read), an exit's output per chunk
(ExitCollector.records_out), and the watermarks are the operators' own (Operator.
current_watermark) and the input valve's combined one.

Inside a chain only what crosses the stage is counted: the head's numRecordsIn and the
numRecordsOut of the operators whose output leaves the stage. A chained operator's own
in/out counts would cost a step per record and are not reported.
"""
from __future__ import annotations

from typing import Dict, List


def task_system_metrics(task) -> dict:
    """The subtask's task-scope metrics and its operators' (JSON-able; spark/streaming/
    metrics_reporting.py reads it)."""
    out_of: Dict[int, int] = {}
    for collector in task.exits:
        if collector.spec.to_driver:        # a sink's input, not a task's output
            continue
        node = collector.spec.source
        out_of[node] = out_of.get(node, 0) + getattr(collector, "records_out", 0)
    upstream = {link.target: link.source for link in task.spec.links}
    # A source stage: as on PyFlink 1.20.5 (seen with its Prometheus reporter), the source
    # operator's and the task's numRecordsIn are 0, what it read is the source's
    # numRecordsOut, and neither the task nor the source has an input watermark.
    read = getattr(task.head, "records_read", None)
    is_source = not task.spec.inputs and read is not None
    input_mark = task.input_watermark
    operators: List[dict] = []
    for op_spec in task.spec.operators:
        node = op_spec.node_id
        operator = task.operator_of_node[node]
        source = upstream.get(node)
        entry = {"name": op_spec.name, "currentOutputWatermark": int(operator.current_watermark)}
        if source is not None:
            entry["currentInputWatermark"] = int(task.operator_of_node[source].current_watermark)
        elif not is_source:
            entry["currentInputWatermark"] = int(input_mark)
        if node == task.spec.head:
            entry["numRecordsIn"] = 0 if is_source else task.records_in
            if is_source:
                entry["numRecordsOut"] = read
        if node in out_of and "numRecordsOut" not in entry:
            entry["numRecordsOut"] = out_of[node]
        operators.append(entry)
    metrics = {"numRecordsIn": 0 if is_source else task.records_in,
               "numRecordsOut": sum(out_of.values()), "operators": operators}
    if is_source:
        metrics["recordsRead"] = read       # the shim's, for the Spark UI's summary only
    else:
        metrics["currentInputWatermark"] = int(input_mark)
    return metrics


def metrics_document(task, **extra) -> dict:
    """What a task reports to the driver's metrics reporters (JSON-able: the driver
    unpickles nothing): its user metrics and its system metrics, named by task and subtask,
    with ``extra`` (the bytes of state a micro-batch wrote)."""
    doc = {"task": task.context.task_name, "subtask": task.context.subtask_index,
           "metrics": task.context.metrics.report(), "system": task_system_metrics(task)}
    doc.update(extra)
    return doc
