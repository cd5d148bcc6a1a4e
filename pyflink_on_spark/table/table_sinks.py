"""INSERT INTO a connector table (print, blackhole, filesystem, kafka): execute_sql('INSERT
INTO t SELECT ...'), Table.execute_insert('t') and statement sets. A bounded insert into a
print, blackhole or filesystem table runs as one Spark job when it is executed
(spark/table_connectors.py: the rows written by Spark tasks); its TableResult's wait()
returns at once. An insert into a kafka table, and an insert into a print or blackhole table
of a table of unbounded streams (an unbounded datagen or kafka table, a monitored file
stream...), run as a DataStream job of the shim (StreamInsert: the table read as a stream,
a KafkaSink of the format's values / a print sink of Flink's print lines / a discarding
sink), bounded or unbounded: the TableResult's wait() waits for that job (an unbounded one
until it is cancelled), as PyFlink's does."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, List

from pyflink_on_spark.specs.table_connectors import ConnectorTable, TableInsert


@dataclass(frozen=True)
class StreamInsert:
    """INSERT INTO `target` (a ConnectorTable of print / blackhole, or a kafka table's
    KafkaTableSink) the rows of `table` (a Table), as a sink of a DataStream job."""
    table: Any
    target: Any
    parallelism: int

    @property
    def name(self) -> str:
        return self.target.name


def _target(t_env, path: str):
    from pyflink_on_spark.table.kafka_tables import kafka_sink
    kafka = kafka_sink(t_env, path)
    if kafka is not None:
        return kafka
    from pyflink_on_spark.table.jdbc_tables import jdbc_sink
    jdbc = jdbc_sink(t_env, path)
    if jdbc is not None:
        return jdbc
    from pyflink_on_spark.table.upsert_kafka_tables import upsert_kafka_sink
    upsert = upsert_kafka_sink(t_env, path)
    if upsert is not None:
        return upsert
    table = t_env.from_path(path)
    description = table._description
    if not isinstance(description, ConnectorTable):
        raise NotImplementedError(
            "INSERT INTO %r: pyflink_on_spark inserts into tables of the filesystem, print, "
            "blackhole, kafka and jdbc connectors only (docs/table.md)" % path)
    if description.refusal is not None:
        from pyflink_on_spark.specs.table_connectors import refusal_error
        raise refusal_error(description, sink=True)
    return description


def table_insert(t_env, path: str, table, overwrite: bool = False):
    """What inserting `table`'s rows into the table at `path` writes: a TableInsert (a Spark
    job), or a StreamInsert (a DataStream job)."""
    from pyflink_on_spark.table.kafka_tables import KafkaTableSink
    target = _target(t_env, path)
    if overwrite:
        raise NotImplementedError("INSERT OVERWRITE is not supported by pyflink_on_spark yet")
    columns = table._resolved_columns()
    if len(columns) != len(target.columns):
        raise ValueError(
            "INSERT INTO %r: the query has %d columns, the table %d (%s)"
            % (path, len(columns), len(target.columns),
               ", ".join(c.name for c in target.columns)))
    if isinstance(target, KafkaTableSink):
        if table._updates():
            raise NotImplementedError(
                "INSERT INTO kafka table %r of a table whose rows update (a grouping query in "
                "STREAMING mode): the %s format takes insert-only rows (an upsert-kafka table "
                "takes them; docs/table.md)"
                % (path, target.fmt))
        return StreamInsert(table, target, max(t_env._parallelism(), 1))
    parallelism = max(target.parallelism or input_parallelism(
        table._description, t_env._parallelism(), t_env._env.get_parallelism()), 1)
    if target.connector in ("jdbc", "upsert-kafka"):    # table/jdbc_tables.py,
        target.check_insert(table, path)                # upsert_kafka_tables.py
        return StreamInsert(table, target, parallelism)
    if target.connector in ("print", "blackhole") and \
            t_env._executor().table_reads_unbounded(table._description):
        return StreamInsert(table, target, parallelism)
    return TableInsert(table._description, target, parallelism)


def input_parallelism(description, default: int, stream_default: int) -> int:
    """The parallelism of the last operator of a table's plan on Flink, which a sink without
    `sink.parallelism` takes. Seen on PyFlink 1.20.5 (inserts into a print table at an
    environment parallelism of 2, its subtask prefixes): VALUES runs at 1 (no prefix), and
    so does a projection or filter of it and a global ORDER BY / LIMIT; a row-by-row query
    takes its input's parallelism, UNION ALL its first input's (VALUES first: 1, a datagen
    table first: 2); a table of a stream that of the stream's last operator (from_collection:
    1, a map after it: 2); GROUP BY, DISTINCT, joins and windows (an exchange), connector
    tables (datagen, also with another scan.parallelism: Flink rebalances to the default)
    and from_elements run at `default` (the table program's parallelism)."""
    from pyflink_on_spark.specs.tables import QueryTable, RenamedTable, RowtimeTable, StreamTable
    if isinstance(description, (RenamedTable, RowtimeTable)):
        return input_parallelism(description.input, default, stream_default)
    if isinstance(description, StreamTable):
        sink = next((n for n in description.sinks if n.id == description.collect_sink_id),
                    None)
        last = sink.inputs[0] if sink is not None and sink.inputs else None
        return getattr(last, "parallelism", None) or stream_default
    if isinstance(description, QueryTable) and description.flink_query:
        import sqlglot
        from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
        try:
            tree = sqlglot.parse_one(description.flink_query, read=FLINK_DIALECT)
        except sqlglot.errors.ParseError:
            return default
        views = dict(description.inputs)
        return _query_parallelism(tree, views, default, stream_default)
    return default


def _query_parallelism(tree, views, default: int, stream_default: int) -> int:
    from sqlglot import exp
    if isinstance(tree, exp.Subquery):
        return _query_parallelism(tree.this, views, default, stream_default)
    if isinstance(tree, exp.Values):
        return 1
    if isinstance(tree, exp.Union) and not tree.args.get("distinct"):
        return _query_parallelism(tree.this, views, default, stream_default)
    if not isinstance(tree, exp.Select):
        return default          # UNION, INTERSECT, EXCEPT: an aggregation
    if tree.args.get("order") is not None or tree.args.get("limit") is not None:
        return 1                # a global sort / limit
    if any(tree.args.get(k) is not None for k in ("group", "distinct", "joins")) or any(
            isinstance(n, (exp.AggFunc, exp.Window)) for n in tree.find_all(
                exp.AggFunc, exp.Window)) or "TABLE(" in tree.sql().upper():
        return default          # an exchange (aggregate, join, window)
    source = tree.args.get("from_") or tree.args.get("from")
    if source is None:
        return 1                # SELECT 1: a VALUES
    inner = source.this
    if isinstance(inner, exp.Table):
        view = views.get(inner.name)
        return default if view is None else input_parallelism(view, default, stream_default)
    return _query_parallelism(inner, views, default, stream_default)


class _InsertCounts(object):
    """What an INSERT's TableResult describes: seen on PyFlink 1.20.5, one BIGINT column per
    insert named by its target (`default_catalog.default_database.p`; `..._1`, `..._2` for
    two inserts into one table)."""

    def __init__(self, targets: List[str]) -> None:
        from pyflink_on_spark.specs.tables import TableColumn
        names = ["default_catalog.default_database.%s" % t for t in targets]
        seen: dict = {}
        columns = []
        for name in names:
            seen[name] = seen.get(name, 0) + 1
            label = "%s_%d" % (name, seen[name]) if names.count(name) > 1 else name
            columns.append(TableColumn(label, "BIGINT", True))
        self._columns = tuple(columns)

    def get_schema(self):
        from pyflink_on_spark.table.schema import TableSchema
        return TableSchema(columns=self._columns)

    def _rows(self):
        raise NotImplementedError("collect() of an INSERT's TableResult is not supported by "
                                  "pyflink_on_spark")


def run_inserts(t_env, inserts: List):
    """Runs the inserts: Spark jobs one after another, then one DataStream job of the stream
    inserts. A TableResult as PyFlink's (kind SUCCESS_WITH_CONTENT, a JobClient of the job;
    a bounded job has ended when it is returned, wait() waits for an unbounded one)."""
    from pyflink_on_spark.table.table_result import ResultKind, TableResult
    batch = [i for i in inserts if isinstance(i, TableInsert)]
    streams = [i for i in inserts if isinstance(i, StreamInsert)]
    job_client = t_env._executor().table_inserts(batch) if batch or not streams else None
    if streams:
        job_client = _run_stream_inserts(t_env, streams)

    class InsertResult(TableResult):
        def get_job_client(self):
            return job_client

        def wait(self, timeout_ms: int = None) -> None:
            import time
            future = job_client.get_job_execution_result()
            if timeout_ms is not None:     # PyFlink's wait(timeout): up to the timeout
                deadline = time.monotonic() + timeout_ms / 1000.0
                while not future.done() and time.monotonic() < deadline:
                    time.sleep(0.05)
                if not future.done():
                    return
            future.result()

    return InsertResult(_InsertCounts([i.target.name if isinstance(i, TableInsert)
                                       else i.name for i in inserts]),
                        ResultKind.SUCCESS_WITH_CONTENT)


def _run_stream_inserts(t_env, inserts: List[StreamInsert]):
    """One DataStream job of the inserts' sinks (only theirs: the program's pending
    DataStream operators and sinks stay for its own execute()); a JobClient of it."""
    env = t_env._env
    pending_sinks, pending_operators = list(env._sinks), dict(env._operators)
    try:
        for insert in inserts:
            _add_sink(t_env, insert)
        sinks = env._sinks[len(pending_sinks):]
    finally:
        env._sinks, env._operators = pending_sinks, pending_operators
    name = "insert-into_%s" % ",".join("default_catalog.default_database.%s" % i.name
                                       for i in inserts)
    return t_env._executor().execute_async(sinks, env._job_settings(name))


def _add_sink(t_env, insert: StreamInsert) -> None:
    """The insert's table read as a stream (to_changelog_stream: insert-only rows are +I),
    into the target's sink."""
    from pyflink_on_spark.common import Types
    from pyflink_on_spark.table.kafka_tables import KafkaTableSink
    from pyflink_on_spark.table.table_environment import StreamTableEnvironment
    bridge = t_env if isinstance(t_env, StreamTableEnvironment) else \
        StreamTableEnvironment(t_env._env, t_env._settings)
    target = insert.target
    if getattr(target, "connector", None) in ("jdbc", "upsert-kafka"):
        target.add_sink(bridge, insert.table, insert.parallelism)
        return
    table = _cast_to(bridge, insert.table, target.columns)
    if isinstance(target, KafkaTableSink):
        bridge.to_data_stream(table).sink_to(target.sink())
        return
    stream = bridge.to_changelog_stream(table)
    if target.connector == "blackhole":
        from pyflink_on_spark.specs.sinks import DiscardSinkSpec
        stream._sink(DiscardSinkSpec(), "Sink: BlackHole")
        return
    if target.standard_error:
        raise NotImplementedError("INSERT INTO print table %r with 'standard-error' = 'true' "
                                  "of a table of unbounded streams: not supported by "
                                  "pyflink_on_spark yet" % target.name)
    types = tuple(c.sql_type for c in target.columns)
    stream.map(_PrintLine(types), output_type=Types.STRING()) \
        .set_parallelism(insert.parallelism) \
        .print(target.identifier).set_parallelism(insert.parallelism)


def _cast_to(t_env, table, columns):
    """The table's columns cast to the target's, by position (as the Spark insert's are):
    renamed to the target's names first (a positional rename in Spark: a query's own names,
    VALUES' EXPR$0..., need not be the Spark frame's)."""
    current = table._resolved_columns()
    if [(c.name, c.sql_type) for c in current] == [(c.name, c.sql_type) for c in columns]:
        return table
    renamed = table.alias(*[c.name for c in columns])
    if [c.sql_type for c in current] == [c.sql_type for c in columns]:
        return renamed
    items = ", ".join("CAST(`%s` AS %s) AS `%s`" % (c.name.replace("`", "``"), c.sql_type,
                                                    c.name.replace("`", "``"))
                      for c in columns)
    return t_env._translated("SELECT %s FROM `%s`" % (items, renamed._name), (renamed,))


class _PrintLine:
    """A row (with its kind) -> the print connector's line (`+I[1, a]`)."""

    def __init__(self, types) -> None:
        self.types = types

    def __call__(self, row) -> str:
        from pyflink_on_spark.codecs.table_rows_text import print_line
        return print_line(tuple(row), self.types, row.get_row_kind().value)


_anonymous_tables = itertools.count(1)


def descriptor_insert(t_env, descriptor, table, overwrite: bool = False):
    """table_insert into a TableDescriptor (add_insert / execute_insert of one): as PyFlink
    1.20.5 does (seen), into an anonymous table of it, `*anonymous_<connector>$<n>*`, whose
    columns are the inserted table's when the descriptor declares no schema (a print
    descriptor's rows `+I[1]`); the table is no view of the environment
    (list_temporary_tables does not show it)."""
    import copy
    from pyflink_on_spark.table.connector_tables import descriptor_ddl
    from pyflink_on_spark.table.schema import Schema
    if descriptor._schema is None:
        builder = Schema.new_builder()
        for column in table._resolved_columns():
            builder.column(column.name,
                           column.sql_type + ("" if column.nullable else " NOT NULL"))
        descriptor = copy.copy(descriptor)
        descriptor._schema = builder.build()
    name = "*anonymous_%s$%d*" % (descriptor._connector, next(_anonymous_tables))
    t_env.execute_sql(descriptor_ddl(name, descriptor))
    try:
        return table_insert(t_env, name, table, overwrite)
    finally:
        t_env._drop(name)


def any_insert(t_env, target, table, overwrite: bool = False):
    """table_insert into a table's path, or into a TableDescriptor."""
    if isinstance(target, str):
        return table_insert(t_env, target, table, overwrite)
    from pyflink_on_spark.table.table_descriptor import TableDescriptor
    if not isinstance(target, TableDescriptor):
        raise TypeError("an insert's target is a table's path (str) or a TableDescriptor, "
                        "got %r" % (target,))
    return descriptor_insert(t_env, target, table, overwrite)


def insert_statement(t_env, statement):
    """execute_sql of a table/sql Insert statement."""
    if statement.column_names:
        raise NotImplementedError("INSERT INTO %s (columns): a column list is not supported "
                                  "by pyflink_on_spark yet" % statement.target)
    table = t_env.sql_query(statement.query)
    return run_inserts(t_env, [table_insert(t_env, statement.target, table,
                                            statement.overwrite)])


class StatementSet(object):
    """t_env.create_statement_set(): inserts run one after another by execute()."""

    def __init__(self, t_env) -> None:
        self._t_env = t_env
        self._inserts: List[TableInsert] = []
        self._tables: List[Any] = []        # each insert's Table (attach_as_datastream)

    def add_insert_sql(self, stmt: str) -> 'StatementSet':
        from pyflink_on_spark.table import sql
        statement = sql.parse_statement(stmt)
        if not isinstance(statement, sql.Insert):
            raise NotImplementedError("add_insert_sql takes an INSERT statement only")
        if statement.column_names:
            raise NotImplementedError("INSERT INTO %s (columns): a column list is not "
                                      "supported by pyflink_on_spark yet" % statement.target)
        table = self._t_env.sql_query(statement.query)
        self._inserts.append(table_insert(self._t_env, statement.target, table,
                                          statement.overwrite))
        self._tables.append(table)
        return self

    def add_insert(self, target_path_or_descriptor, table,
                   overwrite: bool = False) -> 'StatementSet':
        self._inserts.append(any_insert(self._t_env, target_path_or_descriptor, table,
                                        overwrite))
        self._tables.append(table)
        return self

    def execute(self):
        inserts, self._inserts, self._tables = self._inserts, [], []
        return run_inserts(self._t_env, inserts)

    def attach_as_datastream(self) -> None:
        """The inserts become sinks of the environment's DataStream job: its execute() runs
        them with the program's own operators (seen on PyFlink 1.20.5: a print insert's
        lines among the job's). An insert into a print, blackhole, kafka, upsert-kafka or
        jdbc table is a sink of that job here too; one into a filesystem table, which the
        shim writes by a Spark job of its own, raises NotImplementedError (use execute())."""
        inserts, tables = self._inserts, self._tables
        for insert, table in zip(inserts, tables):
            if isinstance(insert, TableInsert) and insert.target.connector not in (
                    "print", "blackhole"):
                raise NotImplementedError(
                    "StatementSet.attach_as_datastream() of an INSERT INTO the %s table %r is "
                    "not supported by pyflink_on_spark yet: execute() the statement set"
                    % (insert.target.connector, insert.target.name))
        for insert, table in zip(inserts, tables):
            if isinstance(insert, TableInsert):     # a bounded print / blackhole insert
                insert = StreamInsert(table, insert.target, insert.parallelism)
            _add_sink(self._t_env, insert)
        self._inserts, self._tables = [], []

    def explain(self, *extra_details) -> str:
        """The shim's plan of the inserts added so far (table/explain.py)."""
        from pyflink_on_spark.table.explain import explain_tables
        return explain_tables(self._t_env, [
            ("INSERT INTO %s" % i.target.name,
             i.source if isinstance(i, TableInsert) else i.table._description)
            for i in self._inserts], extra_details)
