"""Tables of unbounded streams read back into the job (issue 44): the job's table source
stages become TableFeeds (specs/table_feeds.py) and the tables' streams stages of the same
job, so one unbounded job (spark/streaming/) runs both: each micro-batch, the table's query
runs as Spark SQL over the rows the streams' stages produced in that batch
(spark/streaming/table_feeds.py). Only queries whose rows depend on one input row each
(projections, WHERE, scalar functions, UNION ALL) run so: the rows of one batch are all
they see. Anything else over an unbounded table raises NotImplementedError naming it, when
the job starts."""
from __future__ import annotations

import re

from dataclasses import replace
from typing import Callable, Dict, Iterator, List, Tuple

from pyflink_on_spark.specs.sources import TableSourceSpec
from pyflink_on_spark.specs.stage import CompiledJob, UpstreamEdge
from pyflink_on_spark.specs.table_feeds import StreamFeed, TableFeed
from pyflink_on_spark.specs.tables import QueryTable, RenamedTable, RowtimeTable, StreamTable


def reads_tables(job: CompiledJob) -> bool:
    """Some source stage of the job reads a table (to_data_stream and friends)."""
    return any(stage.source is not None and isinstance(stage.source.frame, TableSourceSpec)
               for stage in job.stages)


def with_table_feeds(job: CompiledJob, sinks: List,
                     compile_sinks: Callable[[List], CompiledJob]) -> CompiledJob:
    """`job` (compiled from `sinks`) with every source stage whose table reads an unbounded
    stream turned into a TableFeed, the tables' streams compiled into the job; the same job
    when no table reads an unbounded stream."""
    unbounded = [stage.source.frame for stage in job.stages
                 if stage.source is not None and isinstance(stage.source.frame, TableSourceSpec)
                 and any(_is_unbounded(s) for s in streams_of(stage.source.frame.table))]
    if not unbounded:
        return job
    streams: Dict[int, StreamTable] = {}
    for spec in unbounded:
        check_stateless(spec.table)
        for stream in streams_of(spec.table):
            if not _is_unbounded(stream):
                raise NotImplementedError(
                    "a table that reads both an unbounded stream and a bounded one: "
                    "pyflink_on_spark runs queries over unbounded tables whose inputs are all "
                    "unbounded streams (docs/table.md)")
            streams[stream.collect_sink_id] = stream
    feed_sinks = [sink for stream in streams.values() for sink in stream.sinks]
    # the streams' nodes were made before the table source's (node ids grow), so their
    # stages come first: each micro-batch computes them before the table's query reads them
    job = compile_sinks(feed_sinks + list(sinks))
    feeds = {}
    for sink_id in streams:
        stage = job.stage_of(sink_id)
        edge = next(s.edge_id for s in stage.sinks if s.node_id == sink_id)
        feeds[sink_id] = StreamFeed(sink_id, stage.spec.stage_id, edge, stage.spec.parallelism)
    fed_edges = {feed.edge_id for feed in feeds.values()}
    stages = []
    for stage in job.stages:
        frame = stage.source.frame if stage.source is not None else None
        if isinstance(frame, TableSourceSpec) and frame in unbounded:
            wanted = tuple(feeds[s.collect_sink_id] for s in streams_of(frame.table))
            for feed in wanted:
                if feed.stage_id >= stage.spec.stage_id:
                    raise NotImplementedError(
                        "a table read by the job before its stream is made (stage order): "
                        "not supported by pyflink_on_spark")
            # the feeds as the stage's upstream: the streams' stages count it as a reader
            # (their output is computed once per batch, spark/stage_frames.py)
            stage = replace(stage, source=replace(stage.source, frame=TableFeed(frame, wanted)),
                            upstream=tuple(UpstreamEdge(f.stage_id, f.edge_id)
                                           for f in wanted))
        if any(s.edge_id in fed_edges for s in stage.sinks):
            # the rows of a table's stream stay in Spark: no sink of the driver's; its exit
            # sends the stream's watermarks too, which the table's source stage is fed
            # (runtime/fed_watermarks.py)
            stage = replace(stage, sinks=tuple(s for s in stage.sinks
                                               if s.edge_id not in fed_edges),
                            spec=replace(stage.spec, exits=tuple(
                                replace(e, to_driver=False) if e.edge_id in fed_edges else e
                                for e in stage.spec.exits)))
        stages.append(stage)
    return replace(job, stages=tuple(stages))


def streams_of(description) -> Iterator[StreamTable]:
    """The StreamTables a table description reads (each once, in the order met)."""
    seen = set()
    for leaf in leaves(description):
        if isinstance(leaf, StreamTable) and leaf.collect_sink_id not in seen:
            seen.add(leaf.collect_sink_id)
            yield leaf


def leaves(description) -> Iterator:
    """The tables a description reads in the end: through queries' inputs and renames."""
    if isinstance(description, QueryTable):
        for _name, view in read_inputs(description):
            yield from leaves(view)
    elif isinstance(description, (RenamedTable, RowtimeTable)):
        yield from leaves(description.input)
    else:
        yield description


def read_inputs(description: QueryTable) -> Tuple[Tuple[str, object], ...]:
    """The inputs a query reads (a query is handed every view of its environment); when
    sqlglot cannot parse the query (a type or function its Spark reader does not know), the
    views whose names stand in its text as whole words (specs/tables.py mentions): not
    every view, so that a view the query does not name (a table of an unbounded stream, a
    refused table) cannot break it; a view it reads is among them (Spark then names what it
    cannot run)."""
    from sqlglot.errors import ParseError
    from pyflink_on_spark.specs.tables import mentions
    try:
        # sqlglot reads `GROUP BY window(...)` (a group window) as a WINDOW clause; only
        # the table names matter here
        names = _table_names(re.sub(r"\bwindow\s*\(", "window_(", description.query,
                                    flags=re.IGNORECASE))
    except ParseError:
        return tuple((name, view) for name, view in description.inputs
                     if mentions(description.query, name) or
                     mentions(description.query, name.replace("`", "``")))
    return tuple((name, view) for name, view in description.inputs if name in names)


def reads_unbounded(description) -> bool:
    """Whether a table description reads an unbounded stream."""
    return any(_is_unbounded(s) for s in streams_of(description))


def _is_unbounded(stream: StreamTable) -> bool:
    from pyflink_on_spark.spark.streaming.sources import is_unbounded_source
    return any(is_unbounded_source(node.source) for node in stream_sources(stream))


def stream_sources(stream: StreamTable) -> Iterator:
    """The source nodes (SourceTransformation) of a DataStream table's graph, each once."""
    from pyflink_on_spark.graph.transformations import SourceTransformation
    seen, stack = set(), list(stream.sinks)
    while stack:
        node = stack.pop()
        if node.id in seen:
            continue
        seen.add(node.id)
        if isinstance(node, SourceTransformation):
            yield node
        stack.extend(node.inputs)


def pruned(description):
    """The description with each query's inputs cut to those it reads (the others would
    be computed for nothing in every micro-batch)."""
    if isinstance(description, QueryTable):
        return replace(description, inputs=tuple(
            (name, pruned(view)) for name, view in read_inputs(description)))
    if isinstance(description, (RenamedTable, RowtimeTable)):
        return replace(description, input=pruned(description.input))
    return description


def check_stateless(description) -> None:
    """Raises NotImplementedError, naming the construct, for a table over unbounded streams
    that is more than a row-by-row query of them."""
    for leaf in leaves(description):
        if not isinstance(leaf, StreamTable):
            raise NotImplementedError(
                "a query over an unbounded stream and a %s table: pyflink_on_spark runs "
                "queries over unbounded tables whose inputs are all unbounded streams "
                "(docs/table.md)" % type(leaf).__name__)
    _check_queries(description)


def _check_queries(description) -> None:
    if isinstance(description, (RenamedTable, RowtimeTable)):
        _check_queries(description.input)
    if not isinstance(description, QueryTable):
        return
    construct = stateful_construct(description.query)
    if construct is not None:
        raise NotImplementedError(
            "%s in a query over an unbounded table: pyflink_on_spark runs projections, WHERE, "
            "scalar functions and UNION ALL over unbounded streams so far (docs/table.md)"
            % construct)
    for _name, view in read_inputs(description):
        _check_queries(view)


_STATEFUL = (("Group", "GROUP BY"), ("AggFunc", "an aggregate function"),
             ("Distinct", "DISTINCT"), ("Join", "a JOIN"), ("Window", "an OVER window"),
             ("Order", "ORDER BY"), ("Limit", "LIMIT"), ("Having", "HAVING"),
             ("Exists", "EXISTS"), ("Intersect", "INTERSECT"), ("Except", "EXCEPT"))


def stateful_construct(sql: str):
    """The first construct of a Spark SQL query whose rows do not depend on one input row
    each (its name), or None."""
    import re
    from sqlglot import exp
    if re.search(r"\b(session_)?window\s*\(", sql, re.IGNORECASE):
        return "a window aggregate (TUMBLE / HOP / SESSION / CUMULATE)"
    tree = _parse(sql)
    for kind, what in _STATEFUL:
        if tree.find(getattr(exp, kind)) is not None:
            return what
    for union in tree.find_all(exp.Union):
        if union.args.get("distinct"):
            return "UNION (without ALL)"
    for query in tree.find_all(exp.Select):
        parent = query.parent
        if query is tree or isinstance(parent, (exp.Union, exp.CTE)):
            continue     # a branch of UNION ALL, a WITH query
        if isinstance(parent, exp.Subquery) and isinstance(parent.parent, (exp.From, exp.Union)):
            continue     # a derived table, a parenthesized branch
        return "a subquery"
    return None


def _parse(sql: str):
    import sqlglot
    return sqlglot.parse_one(sql, read="spark")


def _table_names(sql: str) -> set:
    from sqlglot import exp
    return {table.name for table in _parse(sql).find_all(exp.Table)}
