"""The plan picture as a Mermaid flowchart (GitHub, GitLab and many wikis draw it)."""
from __future__ import annotations

from typing import List

from pyflink_on_spark.cli.plan.model import SINK, SOURCE, PlanPicture


def _text(value: str) -> str:
    return value.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def render_mermaid(picture: PlanPicture) -> str:
    lines: List[str] = ["---", "title: %s" % _text(picture.job_name), "---",
                        "flowchart LR"]
    lines.append('  subgraph flink["PyFlink DataStream graph (%s)"]'
                 % _text(picture.runtime_mode))
    for stage in picture.stages:
        lines.append('    subgraph chain%d["chain: Spark stage %d, parallelism %d"]'
                     % (stage.stage_id, stage.stage_id, stage.parallelism))
        for node_id in stage.operators:
            op = picture.operator(node_id)
            label = "%s<br/>p=%d" % (_text(op.name), op.parallelism)
            if op.state is not None:
                label += "<br/>%s state" % op.state
            shape = '(["%s"])' if op.kind in (SOURCE, SINK) else '["%s"]'
            lines.append("      n%d%s" % (node_id, shape % label))
            if op.state is not None:
                lines.append("      class n%d stateful" % node_id)
        lines.append("    end")
    lines.append("  end")
    lines.append('  subgraph spark["%s"]' % _text(picture.spark_summary))
    for stage in picture.stages:
        body = ["<b>stage %d</b>, tasks: %d" % (stage.stage_id, stage.parallelism)]
        body += [_text(step) for step in stage.steps]
        if stage.state is not None:
            body.append(_text(stage.state))
        body += ["to " + _text(out) for out in stage.outputs if not out.startswith("stage ")]
        lines.append('    s%d["%s"]' % (stage.stage_id, "<br/>".join(body)))
    lines.append("  end")
    for edge in picture.edges:
        label = _text(edge.label)
        arrow = "-.->" if edge.side_tag is not None else ("-->" if edge.chained else "==>")
        if label:
            lines.append('  n%d %s|"%s"| n%d' % (edge.source, arrow, label, edge.target))
        else:
            lines.append("  n%d %s n%d" % (edge.source, arrow, edge.target))
    for stage in picture.stages:
        for upstream, strategy in stage.upstream:
            lines.append('  s%d ==>|"shuffle (%s)"| s%d' % (upstream, strategy, stage.stage_id))
    lines.append("  classDef stateful fill:#fde8c8,stroke:#c27c0e")
    return "\n".join(lines) + "\n"
