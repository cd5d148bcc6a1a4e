"""The plan picture in Graphviz's dot language (svg and png are made from it by graphviz.py)."""
from __future__ import annotations

from typing import List

from pyflink_on_spark.cli.plan.model import SINK, SOURCE, PlanPicture

_FILL = {SOURCE: "#d8f0d8", SINK: "#d8e4f8"}
_STATEFUL_FILL = "#fde8c8"


def _quote(value: str) -> str:
    return '"%s"' % value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def render_dot(picture: PlanPicture) -> str:
    lines: List[str] = [
        "digraph plan {",
        "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=12, labelloc=t, "
        "newrank=true, nodesep=0.3, ranksep=0.45, label=%s];"
        % _quote("Job '%s' (%s%s)" % (picture.job_name, picture.runtime_mode,
                                      ", unbounded" if picture.unbounded else "")),
        "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", "
        "fontname=\"Helvetica\", fontsize=11];",
        "  edge [fontname=\"Helvetica\", fontsize=10];",
        "  subgraph cluster_flink {",
        "    label=%s; style=\"rounded\"; color=\"#888888\";"
        % _quote("PyFlink DataStream graph"),
    ]
    for stage in picture.stages:
        lines.append("    subgraph cluster_chain_%d {" % stage.stage_id)
        lines.append("      label=%s; style=\"rounded,dashed\"; color=\"#5577aa\";"
                     % _quote("chain: Spark stage %d, parallelism %d"
                              % (stage.stage_id, stage.parallelism)))
        for node_id in stage.operators:
            op = picture.operator(node_id)
            label = "%s\np=%d" % (op.name, op.parallelism)
            fill = _FILL.get(op.kind, "#ffffff")
            if op.state is not None:
                label += "\n%s state" % op.state
                fill = _STATEFUL_FILL
            lines.append("      n%d [label=%s, fillcolor=%s];"
                         % (node_id, _quote(label), _quote(fill)))
        lines.append("    }")
    lines.append("  }")
    lines.append("  subgraph cluster_spark {")
    lines.append("    label=%s; style=\"rounded\"; color=\"#cc6600\";"
                 % _quote(picture.spark_summary))
    for stage in picture.stages:
        body = ["stage %d, tasks: %d" % (stage.stage_id, stage.parallelism)]
        body += list(stage.steps)
        if stage.state is not None:
            body.append(stage.state)
        body += ["to " + out for out in stage.outputs if not out.startswith("stage ")]
        # \l: left-justified lines
        label = "\\l".join(_quote(line)[1:-1] for line in body) + "\\l"
        lines.append("    s%d [label=\"%s\", shape=box, style=\"filled\", "
                     "fillcolor=\"#fff3e0\"];" % (stage.stage_id, label))
    lines.append("  }")
    for edge in picture.edges:
        attrs = []
        if edge.label:
            attrs.append("label=%s" % _quote(edge.label))
        if edge.side_tag is not None:
            attrs.append("style=dashed")
        if not edge.chained:
            attrs.append("penwidth=2")
        lines.append("  n%d -> n%d%s;" % (edge.source, edge.target,
                                          " [%s]" % ", ".join(attrs) if attrs else ""))
    for stage in picture.stages:
        for upstream, strategy in stage.upstream:
            lines.append("  s%d -> s%d [label=%s, penwidth=2, color=\"#cc6600\"];"
                         % (upstream, stage.stage_id, _quote("shuffle (%s)" % strategy)))
    lines.append("}")
    return "\n".join(lines) + "\n"
