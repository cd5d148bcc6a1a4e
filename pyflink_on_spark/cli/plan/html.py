"""The plan as one HTML page: per job the picture (Graphviz's SVG inline; the text picture
when Graphviz is missing) and tables of its operators and Spark stages."""
from __future__ import annotations

import html
import re
from typing import List, Optional, Sequence

from pyflink_on_spark.cli.plan.dot import render_dot
from pyflink_on_spark.cli.plan.graphviz import (INSTALL_HINT, graphviz_available,
                                                render_with_graphviz)
from pyflink_on_spark.cli.plan.model import PlanPicture
from pyflink_on_spark.cli.plan.text import render_text

_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 1.5em; }
.picture svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #eef2f8; }
pre { background: #f6f6f6; padding: 0.8em; }
.hint { color: #8a4b00; }
"""


def _svg(picture: PlanPicture) -> Optional[str]:
    if not graphviz_available():
        return None
    svg = render_with_graphviz(render_dot(picture), "svg").decode()
    return svg[svg.index("<svg"):]            # inline: without the XML prolog and doctype


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = ["<table><tr>%s</tr>" % "".join("<th>%s</th>" % html.escape(h) for h in headers)]
    for row in rows:
        out.append("<tr>%s</tr>" % "".join(
            "<td>%s</td>" % html.escape("" if cell is None else str(cell)) for cell in row))
    out.append("</table>")
    return "\n".join(out)


def _job_section(index: int, picture: PlanPicture) -> str:
    parts: List[str] = ['<section id="job-%d">' % index,
                        "<h2>Job %d: %s</h2>" % (index, html.escape(picture.job_name)),
                        "<p>%s mode%s. %s.</p>" % (
                            html.escape(picture.runtime_mode),
                            ", unbounded" if picture.unbounded else ", bounded",
                            html.escape(picture.spark_summary))]
    svg = _svg(picture)
    if svg is not None:
        parts.append('<div class="picture">%s</div>' % svg)
    else:
        parts.append('<p class="hint">%s</p>' % html.escape(INSTALL_HINT))
        parts.append("<pre>%s</pre>" % html.escape(render_text(picture)))
    parts.append("<h3>Operators</h3>")
    parts.append(_table(
        ("id", "operator", "kind", "parallelism", "Spark stage", "state", "spec"),
        [(op.node_id, op.name, op.kind, op.parallelism, op.stage_id, op.state, op.spec)
         for op in picture.operators]))
    parts.append("<h3>Spark stages</h3>")
    parts.append(_table(
        ("stage", "tasks", "input", "Spark operations", "state", "output"),
        [(s.stage_id, s.parallelism, s.input, " -> ".join(s.steps), s.state,
          "; ".join(s.outputs)) for s in picture.stages]))
    parts.append("</section>")
    return "\n".join(parts)


def render_html(pictures: Sequence[PlanPicture], script: str) -> str:
    title = "Plan of %s" % script
    sections = "\n".join(_job_section(i, p) for i, p in enumerate(pictures, start=1))
    page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title>"
            "<style>%s</style></head>\n<body>\n<h1>%s</h1>\n%s\n</body></html>\n"
            % (html.escape(title), _STYLE, html.escape(title), sections))
    return re.sub(r"\n{3,}", "\n\n", page)
