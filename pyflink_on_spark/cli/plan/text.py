"""The plan picture as plain text (a terminal, a log, a code review)."""
from __future__ import annotations

from typing import List

from pyflink_on_spark.cli.plan.model import PlanPicture


def _operator_line(picture: PlanPicture, node_id: int) -> str:
    op = picture.operator(node_id)
    extra = "" if op.state is None else ", %s state" % op.state
    return "%s [%s, parallelism %d%s]" % (op.name, op.kind, op.parallelism, extra)


def render_text(picture: PlanPicture) -> str:
    lines: List[str] = [
        "Job '%s' (%s mode%s)" % (picture.job_name, picture.runtime_mode,
                                  ", unbounded" if picture.unbounded else ", bounded"),
        "",
        "DataStream graph, operators grouped into the chains they run in:"]
    for stage in picture.stages:
        lines.append("  chain -> Spark stage %d (parallelism %d)" % (stage.stage_id,
                                                                     stage.parallelism))
        for index, node_id in enumerate(stage.operators):
            lines.append("    %s%s" % ("" if index == 0 else "-> ",
                                       _operator_line(picture, node_id)))
    lines.append("")
    lines.append("Edges:")
    for edge in picture.edges:
        how = "chained" if edge.chained else "exchange"
        label = edge.label or "FORWARD"
        lines.append("  %s -> %s: %s (%s)" % (picture.operator(edge.source).name,
                                             picture.operator(edge.target).name, label, how))
    lines.append("")
    lines.append(picture.spark_summary)
    for stage in picture.stages:
        lines.append("  stage %d, tasks: %d, input: %s" % (stage.stage_id, stage.parallelism,
                                                     stage.input))
        for step in stage.steps:
            lines.append("    %s" % step)
        if stage.state is not None:
            lines.append("    %s" % stage.state)
        if stage.outputs:
            lines.append("    out: %s" % "; ".join(stage.outputs))
    return "\n".join(lines) + "\n"
