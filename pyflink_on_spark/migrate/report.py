"""The migration report: statuses per use, decisions, a verdict per job file; rendered as a
terminal summary, JSON (schema below, documented in docs/migrate.md) or Markdown."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Dict, List, Sequence

from pyflink_on_spark.migrate.analyzer import Project, Use, python_files
from pyflink_on_spark.migrate.decisions import Decision, decisions_for
from pyflink_on_spark.migrate.inventory import load_inventory
from pyflink_on_spark.migrate.status import (CONDITIONAL, STATUS_ORDER, ApiStatus, Status,
                                             conditional_status, status_of)

SCHEMA = "pyflink-on-spark-migrate/1"

RUNS_AS_IS = "runs-as-is"
RUNS_WITH_DIFFERENCES = "runs-with-differences"
BLOCKED = "blocked"
NO_PYFLINK = "no-pyflink"


@dataclass
class RatedUse:
    use: Use
    status: ApiStatus

    @property
    def short(self) -> str:
        return short_name(self.use.api)


@dataclass
class FileVerdict:
    path: str
    verdict: str
    blocking: List[str] = field(default_factory=list)      # short API names
    differences: List[str] = field(default_factory=list)   # difference titles
    imports: List[str] = field(default_factory=list)       # local modules followed

    @property
    def text(self) -> str:
        if self.verdict == RUNS_AS_IS:
            return "runs as is"
        if self.verdict == RUNS_WITH_DIFFERENCES:
            n = len(self.differences)
            return "runs with %d difference%s" % (n, "" if n == 1 else "s")
        if self.verdict == BLOCKED:
            shown = ", ".join(self.blocking[:3])
            more = len(self.blocking) - 3
            return "blocked by " + shown + (" and %d more" % more if more > 0 else "")
        return "no PyFlink use"


@dataclass
class Report:
    uses: List[RatedUse]
    files: List[FileVerdict]
    decisions: List[Decision]
    errors: Dict[str, str]

    def counts(self) -> Dict[Status, int]:
        out = {s: 0 for s in STATUS_ORDER}
        for rated in self.uses:
            out[rated.status.status] += 1
        return out

    @property
    def has_blocking(self) -> bool:
        return any(r.status.status.blocking for r in self.uses)


def short_name(api: str) -> str:
    """`pyflink.datastream.data_stream.DataStream.map` -> `DataStream.map`;
    `pyflink.table.expressions.col` -> `expressions.col`."""
    parts = api.split(".")
    for i, part in enumerate(parts):
        if part[:1].isupper():
            return ".".join(parts[i:])
    return ".".join(parts[-2:])


def blocking_root(api: str) -> str:
    """The outermost enclosing name that is itself blocking (a missing connector class's
    methods are reported once, under the class)."""
    parts = api.split(".")
    for i in range(2, len(parts)):
        prefix = ".".join(parts[:i])
        if prefix[len(prefix.rsplit(".", 1)[0]) + 1:][:1].isupper() and \
                status_of(prefix).status.blocking:
            return prefix
    return api


def build_report(paths: Sequence[str]) -> Report:
    files = python_files(paths)
    project = Project(paths)
    for path in files:
        project.analyse(path)
    rated: List[RatedUse] = []
    uses_by_file: Dict[str, List[RatedUse]] = {}
    for path, analysis in project.analyses.items():
        uses_by_file[path] = _rate(analysis.uses)
        rated += uses_by_file[path]
    rated.sort(key=lambda r: (r.use.path, r.use.line, r.use.col, r.use.api))
    verdicts = []
    for path in files:
        path = os.path.abspath(path)
        analysis = project.analyses.get(path)
        if analysis is None:
            continue
        reached = _reachable(project, path)
        verdicts.append(_verdict(project.display_path(path),
                                 [u for p in reached for u in uses_by_file.get(p, [])],
                                 [project.display_path(p) for p in reached if p != path]))
    decisions = decisions_for([r.use for r in rated])
    errors = {project.display_path(p): e for p, e in project.errors.items()}
    return Report(rated, verdicts, decisions, errors)


def _rate(uses: List[Use]) -> List[RatedUse]:
    apis = {u.api for u in uses}
    rated = []
    inventory = load_inventory()
    for use in uses:
        status = status_of(use.api)
        if use.kind == "call" and inventory.is_class(use.api) and not status.status.blocking:
            # constructing a class directly: its constructor decides (KeyedStream(j_stream))
            init = inventory.member(use.api, "__init__")
            if init is not None and status_of(init).status.blocking:
                status = status_of(init)
        if use.kind == "call" and not status.status.blocking:
            # a builder's build() that returns a class the shim refuses blocks the job even
            # when the program never names that class
            owner = use.api.rsplit(".", 1)[0]
            own_classes = inventory.mro(owner) if inventory.is_class(owner) else [use.api]
            for returned in inventory.returns(use.api):
                # a fluent setter returning its own (refused) class adds nothing
                if returned not in own_classes and status_of(returned).status.blocking:
                    refused = status_of(returned)
                    status = ApiStatus(refused.status, "returns %s: %s" % (
                        short_name(returned), refused.detail), refused.link)
                    break
        for trigger, companion, helper, argument in CONDITIONAL:
            if use.api == trigger and companion not in apis:
                status = conditional_status(helper, argument)
        rated.append(RatedUse(use, status))
    return rated


def _reachable(project: Project, path: str) -> List[str]:
    order, todo = [], [path]
    while todo:
        current = todo.pop(0)
        if current in order or current not in project.analyses:
            continue
        order.append(current)
        todo += project.analyses[current].local_imports
    return order


def _verdict(path: str, uses: List[RatedUse], imports: List[str]) -> FileVerdict:
    if not uses:
        return FileVerdict(path, NO_PYFLINK, imports=imports)
    blocking: List[str] = []
    differences: List[str] = []
    for rated in uses:
        root = short_name(blocking_root(rated.use.api)) if rated.status.status.blocking else ""
        if root and root not in blocking:
            blocking.append(root)
        if rated.status.status == Status.DIFFERENCE and rated.status.detail not in differences:
            differences.append(rated.status.detail)
    if blocking:
        return FileVerdict(path, BLOCKED, blocking, differences, imports)
    if differences:
        return FileVerdict(path, RUNS_WITH_DIFFERENCES, [], differences, imports)
    return FileVerdict(path, RUNS_AS_IS, imports=imports)


# -- rendering ------------------------------------------------------------------------------
def to_json(report: Report) -> str:
    counts = report.counts()
    data = {
        "schema": SCHEMA,
        "pyflink_version": "1.20",
        "summary": {
            "files": len(report.files),
            "uses": len(report.uses),
            "counts": {s.value: counts[s] for s in STATUS_ORDER},
            "blocked_files": sum(1 for f in report.files if f.verdict == BLOCKED),
        },
        "files": [{"path": f.path, "verdict": f.verdict, "text": f.text,
                   "blocking": f.blocking, "differences": f.differences,
                   "imports": f.imports} for f in report.files],
        "uses": [{"path": r.use.path, "line": r.use.line, "col": r.use.col,
                  "api": r.use.api, "name": r.short, "kind": r.use.kind,
                  "status": r.status.status.value, "detail": r.status.detail,
                  "link": r.status.link} for r in report.uses],
        "decisions": [{"topic": d.topic, "path": d.path, "line": d.line, "api": d.api,
                       "argument": d.argument, "spark": d.spark,
                       "has_spark_counterpart": d.has_spark_counterpart}
                      for d in report.decisions],
        "errors": [{"path": p, "error": e} for p, e in sorted(report.errors.items())],
    }
    return json.dumps(data, indent=2, sort_keys=False) + "\n"


def _grouped(report: Report, status: Status) -> List[tuple]:
    """(short name, detail, link, [locations]) per API of a status, in first-use order."""
    groups: Dict[str, tuple] = {}
    for rated in report.uses:
        if rated.status.status != status:
            continue
        key = short_name(blocking_root(rated.use.api)) if status.blocking else rated.short
        if key not in groups:
            root = blocking_root(rated.use.api) if status.blocking else rated.use.api
            detail = status_of(root).detail if root != rated.use.api else rated.status.detail
            groups[key] = (key, detail, rated.status.link, [])
        groups[key][3].append("%s:%d" % (rated.use.path, rated.use.line))
    return list(groups.values())


def _locations(locations: List[str], limit: int = 4) -> str:
    unique = list(dict.fromkeys(locations))
    text = ", ".join(unique[:limit])
    return text + (" (+%d more)" % (len(unique) - limit) if len(unique) > limit else "")


def to_text(report: Report) -> str:
    counts = report.counts()
    lines = ["pyflink-on-spark migrate: %d file(s), %d use(s) of the PyFlink API"
             % (len(report.files), len(report.uses)),
             "  " + " | ".join("%s %d" % (s.label, counts[s]) for s in STATUS_ORDER), ""]
    blocking = [s for s in STATUS_ORDER if s.blocking and counts[s]]
    if blocking:
        lines.append("Blocking (change these first):")
        for status in blocking:
            for name, detail, _link, locations in _grouped(report, status):
                lines.append("  %-12s %s  [%s]" % (status.value, name, _locations(locations)))
                if detail:
                    lines.append("               %s" % detail)
        lines.append("")
    for status, title in ((Status.DIFFERENCE, "Runs, with a documented difference:"),
                          (Status.NO_EFFECT, "Accepted, without effect on Spark:")):
        groups = _grouped(report, status)
        if groups:
            lines.append(title)
            for name, detail, link, locations in groups:
                suffix = " (%s)" % link if link else ""
                lines.append("  %s  [%s]: %s%s" % (name, _locations(locations), detail, suffix))
            lines.append("")
    if report.decisions:
        lines.append("Decisions for a person:")
        for d in report.decisions:
            lines.append("  %s:%d %s(%s) [%s]" % (d.path, d.line, d.api, d.argument, d.topic))
            lines.append("      -> %s%s" % ("" if d.has_spark_counterpart else
                                            "no Spark counterpart: ", d.spark))
        lines.append("")
    if report.errors:
        lines.append("Not analysed:")
        lines += ["  %s: %s" % (p, e) for p, e in sorted(report.errors.items())]
        lines.append("")
    lines.append("Verdict per file:")
    width = max([len(f.path) for f in report.files] + [4])
    for f in report.files:
        lines.append("  %-*s  %s" % (width, f.path, f.text))
    return "\n".join(lines) + "\n"


def to_markdown(report: Report) -> str:
    counts = report.counts()
    out = ["# PyFlink -> Spark migration report", "",
           "%d file(s), %d use(s) of the PyFlink 1.20 API (`pyflink-on-spark migrate`)."
           % (len(report.files), len(report.uses)), "",
           "| status | uses |", "|---|---|"]
    out += ["| %s | %d |" % (s.label, counts[s]) for s in STATUS_ORDER]
    out += ["", "## Verdict per file", "", "| file | verdict |", "|---|---|"]
    out += ["| `%s` | %s |" % (f.path, f.text) for f in report.files]
    sections = [(s, s.label[:1].upper() + s.label[1:]) for s in STATUS_ORDER
                if s != Status.SUPPORTED and counts[s]]
    for status, title in sections:
        out += ["", "## %s" % title, "", "| API | where | detail |", "|---|---|---|"]
        for name, detail, link, locations in _grouped(report, status):
            detail_text = detail.replace("|", "\\|")
            if link:
                detail_text = "[%s](%s)" % (detail_text, link)
            out.append("| `%s` | %s | %s |" % (name, _locations(locations), detail_text))
    if report.decisions:
        out += ["", "## Decisions", "", "| where | call | argument | on Spark |",
                "|---|---|---|---|"]
        for d in report.decisions:
            spark = d.spark if d.has_spark_counterpart else "no Spark counterpart: " + d.spark
            out.append("| %s:%d | `%s` | `%s` | %s |" % (d.path, d.line, d.api, d.argument,
                                                         spark.replace("|", "\\|")))
    if report.errors:
        out += ["", "## Not analysed", ""]
        out += ["- `%s`: %s" % (p, e) for p, e in sorted(report.errors.items())]
    return "\n".join(out) + "\n"
