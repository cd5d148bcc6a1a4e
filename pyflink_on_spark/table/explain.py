"""Table.explain, TableEnvironment.explain_sql and StatementSet.explain: the shim's plan of a
table, as text.

PyFlink returns its planner's text (seen on PyFlink 1.20.5: a str of sections `== Abstract
Syntax Tree ==`, `== Optimized Physical Plan ==`, `== Optimized Execution Plan ==`, and with
ExplainDetail.JSON_EXECUTION_PLAN `== Physical Execution Plan ==`). pyflink_on_spark has no
Flink planner: what a user can act on here is what runs, so the text says so first and then
gives the Flink SQL the table stands for, the Spark SQL it is translated to, the tables it
reads, and Spark's own plan of that query (its physical plan over the inputs' columns; no
job runs). The Spark part needs a Spark session; when Spark cannot plan it, the text says
why instead of failing (an explain must not fail where the table itself would run)."""
from __future__ import annotations

from typing import Iterable, List, Sequence, Tuple

__all__ = ['ExplainDetail', 'explain_tables', 'HEADER']

HEADER = ("== pyflink_on_spark plan ==\n"
          "This table runs as Spark SQL on pyflink_on_spark: the sections below are the "
          "shim's plan, not Flink's\n(Flink's Abstract Syntax Tree and optimized plans are "
          "not reproduced; docs/table.md).")


class ExplainDetail(object):
    """pyflink.table.explain_detail.ExplainDetail: the extra details an explain may show
    (PyFlink's values)."""

    ESTIMATED_COST = 0
    CHANGELOG_MODE = 1
    JSON_EXECUTION_PLAN = 2
    PLAN_ADVICE = 3


_DETAIL_NAMES = {0: 'ESTIMATED_COST', 1: 'CHANGELOG_MODE', 2: 'JSON_EXECUTION_PLAN',
                 3: 'PLAN_ADVICE'}


def _check_details(extra_details: Iterable) -> Tuple[int, ...]:
    details = tuple(extra_details)
    for d in details:
        if d not in _DETAIL_NAMES:
            raise ValueError("Unsupported ExplainDetail: %r (ExplainDetail.ESTIMATED_COST, "
                             "CHANGELOG_MODE, JSON_EXECUTION_PLAN, PLAN_ADVICE)" % (d,))
    return details


def explain_tables(t_env, items: Sequence[Tuple[str, object]], extra_details: Iterable) -> str:
    """The plan text of `items`: (title, table description) pairs (specs/tables.py), a title
    naming an INSERT's target ('INSERT INTO sink') or '' for a query."""
    details = _check_details(extra_details)
    if not items:
        return ""       # seen on PyFlink 1.20.5: an empty statement set explains as ''
    parts: List[str] = [HEADER]
    for title, description in items:
        parts.append(_table_plan(t_env, title, description, details))
    notes = []
    if ExplainDetail.JSON_EXECUTION_PLAN in details:
        notes.append("ExplainDetail.JSON_EXECUTION_PLAN: Flink's JSON execution plan has no "
                     "counterpart here (Spark's plan is above).")
    if ExplainDetail.PLAN_ADVICE in details:
        notes.append("ExplainDetail.PLAN_ADVICE: pyflink_on_spark gives no plan advice.")
    if notes:
        parts.append("\n".join(notes))
    return "\n\n".join(parts) + "\n"


def _table_plan(t_env, title: str, description, details: Tuple[int, ...]) -> str:
    lines = []
    if title:
        lines.append("== %s ==" % title)
    flink_query = getattr(description, "flink_query", None)
    if flink_query:
        lines += ["== Flink SQL ==", flink_query.strip(), ""]
    lines += ["== Spark SQL ==", _spark_sql(description), ""]
    inputs = list(_inputs(description))
    if inputs:
        lines.append("== Inputs ==")
        lines += ["%s: %s" % (name, what) for name, what in inputs]
        lines.append("")
    if ExplainDetail.CHANGELOG_MODE in details:
        # the rows the shim gives (Flink's planner may print a sink-dependent mode, [I,UA])
        updates = t_env._executor().table_updates(description)
        lines += ["== Changelog Mode ==",
                  "changelogMode=[I,UB,UA] (+I, -U, +U rows)" if updates else
                  "changelogMode=[I] (insert-only)", ""]
    mode = "cost" if ExplainDetail.ESTIMATED_COST in details else "formatted"
    lines += ["== Spark Plan ==", _spark_plan(t_env, description, mode)]
    return "\n".join(lines)


def _spark_sql(description) -> str:
    query = getattr(description, "query", None)
    return query if query is not None else "(none: %s)" % describe(description)


def describe(description) -> str:
    """What a table description is, in a few words."""
    kind = type(description).__name__
    if kind == "RowsTable":
        return "rows held by the program (from_elements / from_pandas), %d rows" \
            % len(description.rows)
    if kind == "StreamTable":
        return "a DataStream (from_data_stream), run as Spark stages"
    if kind == "GeneratedTable":
        return "a datagen table, generated in Spark tasks"
    if kind == "QueryTable":
        return "a query (Spark SQL: %s)" % " ".join(description.query.split())[:200]
    if kind == "RenamedTable":
        return "%s, columns renamed" % describe(description.input)
    if kind == "RowtimeTable":
        return "%s, with a rowtime column" % describe(description.input)
    if kind == "ConnectorTable":
        return "a %s table" % getattr(description, "connector", "connector")
    return kind


def _inputs(description):
    for name, view in getattr(description, "inputs", ()) or ():
        yield name, describe(view)


def _spark_plan(t_env, description, mode: str) -> str:
    if type(description).__name__ != "QueryTable":
        return "(no query to plan)"
    try:
        return t_env._executor().table_plan(description, mode)
    except Exception as e:       # the explain itself must not fail: say why there is none
        first = (str(e).strip().split("\n") or [""])[0][:300]
        return "(Spark's plan is not available: %s: %s)" % (type(e).__name__, first)
