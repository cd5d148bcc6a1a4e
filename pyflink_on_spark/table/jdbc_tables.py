"""`CREATE TABLE ... WITH ('connector' = 'jdbc', ...)` of a PostgreSQL table, as Flink's JDBC
connector (flink-connector-jdbc 3.1, PostgresDialect) reads and writes it; seen on PyFlink
1.20.5 (the server's statement log, compat_tests/cases/jdbc/table_*.py):

- as a source, a bounded scan: `SELECT c1, c2 FROM t` in one split, or with the
  scan.partition.* options `SELECT ... FROM t WHERE (col BETWEEN ? AND ?)` per split, split i
  of n the i-th of Flink's JdbcNumericBetweenParametersProvider; at parallelism 1 the splits
  are read last first (Flink's DefaultInputSplitAssigner hands out its list from the end);
  here subtask i reads every p-th split of that order. The rows are read in the source's Spark
  tasks through psycopg (codecs/jdbc/drivers.py, the DataStream JdbcSink's driver: no JDBC
  driver jar), a server-side cursor fetching scan.fetch-size rows at a time.
- as a sink (INSERT INTO, execute_insert: table_sinks.py runs it as a DataStream job), the
  DataStream JdbcSink's writer: without a primary key `INSERT INTO t(c1, c2) VALUES (?, ?)` of
  an insert-only query (an updating one fails as on Flink); with `PRIMARY KEY (k) NOT
  ENFORCED` `INSERT ... ON CONFLICT (k) DO UPDATE SET c1=EXCLUDED.c1, ...` of +I / +U rows and
  `DELETE FROM t WHERE k = ?` of -U / -D rows, reduced by key per batch
  (codecs/jdbc/upsert_writer.py). sink.buffer-flush.max-rows / interval and sink.max-retries
  are the writer's batch size, interval and retries; sink.parallelism the sink's.

Options Flink rejects fail when the table is used (PyFlink accepts any at CREATE TABLE), in
Flink's words; options of Flink's connector without a meaning here (lookup.*,
scan.auto-commit, ...), URLs of other databases and column types not compared raise
NotImplementedError naming them, also when the table is used."""
from __future__ import annotations

import decimal
import re
import weakref
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Tuple

from pyflink_on_spark.specs.tables import TableColumn
# options Flink rejects when the table is used (seen on PyFlink 1.20.5)
from pyflink_on_spark.table.table_connectors import FlinkRejects

# seen on PyFlink 1.20.5 ("Supported options:" of flink-connector-jdbc 3.1.2-1.18)
FLINK_OPTIONS = (
    "connection.max-retry-timeout", "connector", "driver", "lookup.cache",
    "lookup.cache.caching-missing-key", "lookup.cache.max-rows", "lookup.cache.ttl",
    "lookup.max-retries", "lookup.partial-cache.cache-missing-key",
    "lookup.partial-cache.expire-after-access", "lookup.partial-cache.expire-after-write",
    "lookup.partial-cache.max-rows", "password", "property-version", "scan.auto-commit",
    "scan.fetch-size", "scan.partition.column", "scan.partition.lower-bound",
    "scan.partition.num", "scan.partition.upper-bound", "scan.watermark.alignment.group",
    "scan.watermark.alignment.max-drift", "scan.watermark.alignment.update-interval",
    "scan.watermark.emit.strategy", "scan.watermark.idle-timeout",
    "sink.buffer-flush.interval", "sink.buffer-flush.max-rows", "sink.max-retries",
    "sink.parallelism", "table-name", "url", "username")
# the options that run here
RUNNING_OPTIONS = ("connector", "url", "table-name", "username", "password", "driver",
                   "property-version", "scan.fetch-size", "scan.partition.column",
                   "scan.partition.num", "scan.partition.lower-bound",
                   "scan.partition.upper-bound", "sink.buffer-flush.interval",
                   "sink.buffer-flush.max-rows", "sink.max-retries", "sink.parallelism")
_PARTITION = ("scan.partition.column", "scan.partition.num", "scan.partition.lower-bound",
              "scan.partition.upper-bound")
# the dialects of flink-connector-jdbc 3.1.2 (seen: "Available factories are: ...")
_FLINK_DIALECTS = ("jdbc:derby:", "jdbc:mysql:", "jdbc:oracle:", "jdbc:postgresql:",
                   "jdbc:sqlserver:")
_DRIVERS = ("org.postgresql.Driver",)
# the column types read and written here (others were not compared with PyFlink)
_TYPES = re.compile(r"BOOLEAN|SMALLINT|INT|BIGINT|FLOAT|DOUBLE|STRING|BYTES|DATE"
                    r"|DECIMAL\(\d+, \d+\)|(VAR)?CHAR\(\d+\)|TIMESTAMP\([1-6]\)")
_HIDDEN = "******"         # Flink's listing of a password option
# what INSERT INTO a jdbc table writes, by its table (jdbc_sink)
_SINKS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class JdbcOptions:
    """A jdbc table's options, checked."""
    url: str
    table_name: str
    username: Optional[str]
    password: Optional[str]
    fetch_size: int
    partitions: Tuple[Tuple[int, int], ...]     # (lower, upper) of each split; () one split
    partition_column: Optional[str]
    max_rows: int
    interval_ms: int
    max_retries: int
    parallelism: Optional[int]


def _integer(options: Dict[str, str], key: str, default: int) -> int:
    if key not in options:
        return default
    try:
        return int(options[key].strip())
    except ValueError:
        raise FlinkRejects("Invalid value for option '%s'.\nCould not parse value '%s' for "
                           "key '%s'." % (key, options[key], key)) from None


def checked_options(options: Dict[str, str], columns: Tuple[TableColumn, ...]) -> JdbcOptions:
    """The options of a jdbc table, or FlinkRejects / NotImplementedError naming what does
    not run (Flink's checks first, in its words)."""
    from pyflink_on_spark.datastream._configuration_keys import parse_millis
    unknown = sorted(k for k in options if k not in FLINK_OPTIONS)
    if unknown:
        raise FlinkRejects("Unsupported options found for 'jdbc'.\n\nUnsupported options:\n\n"
                           "%s\n\nSupported options:\n\n%s"
                           % ("\n".join(unknown), "\n".join(FLINK_OPTIONS)))
    missing = [k for k in ("table-name", "url") if k not in options]
    if missing:
        raise FlinkRejects("One or more required options are missing.\n\nMissing required "
                           "options are:\n\n%s" % "\n".join(missing))
    for group in (("username", "password"), _PARTITION):
        given = [k for k in group if k in options]
        if given and len(given) != len(group):
            raise FlinkRejects("Either all or none of the following options should be "
                               "provided:\n%s" % "\n".join(group))
    url = options["url"]
    if not url.startswith(_FLINK_DIALECTS):
        raise FlinkRejects(
            "Could not find any jdbc dialect factory that can handle url '%s' that implements "
            "'org.apache.flink.connector.jdbc.dialect.JdbcDialectFactory' in the classpath."
            % url)
    max_rows = _integer(options, "sink.buffer-flush.max-rows", 100)
    max_retries = _integer(options, "sink.max-retries", 3)
    fetch_size = _integer(options, "scan.fetch-size", 0)
    interval = options.get("sink.buffer-flush.interval", "1s")
    try:
        interval_ms = parse_millis("sink.buffer-flush.interval", interval)
    except ValueError:
        raise FlinkRejects("Invalid value for option 'sink.buffer-flush.interval'.\nCould not "
                           "parse value '%s' for key 'sink.buffer-flush.interval'."
                           % interval) from None
    if max_retries < 0:
        raise FlinkRejects("The value of 'sink.max-retries' option shouldn't be negative, but "
                           "is %d." % max_retries)
    partitions: Tuple[Tuple[int, int], ...] = ()
    if "scan.partition.column" in options:
        lower = _integer(options, "scan.partition.lower-bound", 0)
        upper = _integer(options, "scan.partition.upper-bound", 0)
        number = _integer(options, "scan.partition.num", 0)
        if lower > upper:
            raise FlinkRejects("'scan.partition.lower-bound'='%d' must not be larger than "
                               "'scan.partition.upper-bound'='%d'." % (lower, upper))
        if number < 1:
            raise FlinkRejects("Batch number must be positive")
        partitions = between_splits(lower, upper, number)
    # what Flink takes and the shim does not run
    refused = sorted(k for k in options if k not in RUNNING_OPTIONS)
    if refused:
        raise NotImplementedError(
            "option(s) %s of the jdbc connector: not supported by pyflink_on_spark (options "
            "that run: %s; docs/table.md, \"Connector tables\")"
            % (", ".join(refused), ", ".join(RUNNING_OPTIONS[1:])))
    if not url.startswith("jdbc:postgresql:"):
        raise NotImplementedError(
            "a jdbc table of the URL %s: pyflink_on_spark reads and writes jdbc tables of "
            "PostgreSQL (jdbc:postgresql://host:port/database) so far (docs/table.md)"
            % url.split("//")[0])
    driver = options.get("driver")
    if driver is not None and driver not in _DRIVERS:
        raise NotImplementedError(
            "'driver' = '%s' of a jdbc table: pyflink_on_spark reaches PostgreSQL through "
            "psycopg, standing for %s" % (driver, ", ".join(_DRIVERS)))
    binary = next((c for c in columns if c.sql_type.startswith("VARBINARY(")), None)
    if binary is not None:      # seen on PyFlink 1.20.5 (only BYTES, VARBINARY's maximum)
        raise FlinkRejects("The PostgreSQL dialect doesn't support type: %s."
                           % binary.type_text())
    for column in columns:
        precision = re.fullmatch(r"TIMESTAMP\((\d)\)", column.sql_type)
        if precision is not None and not 1 <= int(precision.group(1)) <= 6:     # seen
            raise FlinkRejects("The precision of field '%s' is out of the TIMESTAMP precision "
                               "range [1, 6] supported by PostgreSQL dialect." % column.name)
    untyped = [c.text() for c in columns if not _TYPES.fullmatch(c.sql_type)]
    if untyped:
        raise NotImplementedError(
            "jdbc table column(s) %s: pyflink_on_spark reads and writes jdbc columns of the "
            "types BOOLEAN, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), STRING, "
            "VARCHAR(n), CHAR(n), BYTES, DATE, TIMESTAMP(p) so far"
            % ", ".join(untyped))
    parallelism = None
    if "sink.parallelism" in options:
        parallelism = _integer(options, "sink.parallelism", 0)
    return JdbcOptions(url, options["table-name"], options.get("username"),
                       options.get("password"), fetch_size, partitions,
                       options.get("scan.partition.column"), max_rows, interval_ms,
                       max_retries, parallelism)


def between_splits(lower: int, upper: int, number: int) -> Tuple[Tuple[int, int], ...]:
    """Flink's JdbcNumericBetweenParametersProvider(lower, upper).ofBatchNum(number): seen on
    PyFlink 1.20.5, 1..10 in 4 splits is [1, 3], [4, 6], [7, 8], [9, 10]."""
    count = upper - lower + 1
    number = min(number, count)
    size = -(-count // number)
    big = count - (size - 1) * number        # the first `big` splits have `size` values
    splits, start = [], lower
    for i in range(number):
        end = start + size - 1 - (1 if i >= big else 0)
        splits.append((start, end))
        start = end + 1
    return tuple(splits)


def statements(table_name: str, names: List[str], key: Tuple[str, ...]):
    """Flink's PostgresDialect statements (seen in the server's log: identifiers as given,
    no quotes): (insert or upsert, delete by key or None)."""
    insert = "INSERT INTO %s(%s) VALUES (%s)" % (table_name, ", ".join(names),
                                               ", ".join("?" for _ in names))
    if not key:
        return insert, None
    upsert = "%s ON CONFLICT (%s) DO UPDATE SET %s" % (
        insert, ", ".join(key), ", ".join("%s=EXCLUDED.%s" % (n, n) for n in names))
    delete = "DELETE FROM %s WHERE %s" % (table_name,
                                          " AND ".join("%s = ?" % k for k in key))
    return upsert, delete


@dataclass(frozen=True)
class JdbcTableSink:
    """What an INSERT INTO a jdbc table writes (table_sinks.py runs it as a DataStream job
    of the JdbcSink's writer)."""
    name: str
    columns: Tuple[TableColumn, ...]
    options: JdbcOptions
    primary_key: Tuple[str, ...]
    connector: str = "jdbc"

    @property
    def parallelism(self) -> Optional[int]:
        return self.options.parallelism

    def check_insert(self, table, path: str) -> None:
        """Seen on PyFlink 1.20.5: an updating query into a jdbc table without a primary key
        fails when the INSERT is planned, and so does a sink.parallelism below 1."""
        parallelism = self.options.parallelism
        if parallelism is not None and parallelism < 1:
            raise FlinkRejects("Invalid configured parallelism %d for table "
                               "'default_catalog.default_database.%s'." % (parallelism, path))
        if not self.primary_key and table._updates():
            raise FlinkRejects("please declare primary key for sink table when query contains "
                               "update/delete record.")

    def add_sink(self, stream_t_env, table, parallelism: int) -> None:
        """The rows of `table` (cast to this table's columns) into a sink of the stream job:
        the DataStream JdbcSink's spec (insert-only) or its upsert variant (changelog rows,
        keyed by the primary key so that a key's changes stay in order in one subtask)."""
        from pyflink_on_spark.datastream.connectors.jdbc import JdbcSink
        from pyflink_on_spark.specs.sinks import JdbcSinkSpec, JdbcUpsertSinkSpec
        from pyflink_on_spark.table.table_sinks import _cast_to
        options = self.options
        names = [c.name for c in self.columns]
        sql, delete = statements(options.table_name, names, self.primary_key)
        common = dict(sql=sql, url=options.url, user_name=options.username,
                      password=options.password, batch_size=options.max_rows,
                      batch_interval_ms=options.interval_ms, max_retries=options.max_retries)
        if not table._updates():
            table = _cast_to(stream_t_env, table, self.columns)
        if not self.primary_key:
            stream_t_env.to_data_stream(table) \
                .add_sink(JdbcSink(JdbcSinkSpec(**common))).set_parallelism(parallelism)
            return
        keys = tuple(names.index(k) for k in self.primary_key)
        if table._updates():
            # an updating query is not queried again (no cast, no rename): its changelog's
            # values go by position, as they are where the column's type only widens
            table = self._unrenamed(table)
        stream = stream_t_env.to_changelog_stream(table)
        if table._updates() and _group_key(table) == frozenset(keys):
            # the key is the query's own: Flink sends the upsert sink no -U (seen on PyFlink
            # 1.20.5: a GROUP BY into a table keyed by its group key, no DELETE in the
            # server's log); else each -U deletes its key (the row leaves it; not compared)
            stream = stream.filter(_NotUpdateBefore())
        if parallelism > 1:
            stream = stream.key_by(_Key(keys))
        stream._sink(JdbcUpsertSinkSpec(delete_sql=delete, key_indexes=keys, **common),
                     "Sink: jdbc %s" % self.name).set_parallelism(parallelism)

    def _unrenamed(self, table):
        from pyflink_on_spark.table.updating_sink_columns import uncast_updating_table
        return uncast_updating_table(table, self.columns, "jdbc table %s" % self.name, _widens)


_WIDER = {"SMALLINT": ("INT", "BIGINT"), "INT": ("BIGINT",), "FLOAT": ("DOUBLE",)}


def _widens(source: str, target: str) -> bool:
    """A value of `source` is the same value of `target` (an updating query's values reach
    the jdbc sink uncast)."""
    return source == target or target in _WIDER.get(source, ()) or (
        target == "STRING" and source.startswith("VARCHAR("))


def _group_key(table):
    """The positions of a grouping query's group keys among its columns (the query's upsert
    key); None for another query, or one whose select list lacks a group key."""
    from pyflink_on_spark.table.sql.grouping import KEY, split_grouping
    query = getattr(table._description, "flink_query", None)
    if not query:
        return None
    try:
        grouping = split_grouping(query, table._t_env._user_aggregates())
    except Exception:           # not a grouping query of the split shape
        return None
    if grouping.inner is not None:
        return None
    positions = {i: index for i, (kind, index) in enumerate(grouping.items) if kind == KEY}
    if sorted(positions.values()) != list(range(grouping.keys)):
        return None
    return frozenset(positions)


class _NotUpdateBefore:
    def __call__(self, row) -> bool:
        from pyflink_on_spark.common.types import RowKind
        return row.get_row_kind() != RowKind.UPDATE_BEFORE


class _Key:
    def __init__(self, indexes: Tuple[int, ...]) -> None:
        self.indexes = indexes

    def __call__(self, row):
        return tuple(row[i] for i in self.indexes)


class ScanRows:
    """A jdbc source subtask's rows (GeneratedTable.rows): its splits' SELECTs, read through
    psycopg in the Spark task, each value as the column's type holds it."""

    def __init__(self, options: JdbcOptions, columns: Tuple[TableColumn, ...]) -> None:
        self.options = options
        self.columns = columns

    def queries(self, subtask: int, parallelism: int) -> List[Tuple[str, tuple]]:
        options = self.options
        select = "SELECT %s FROM %s" % (", ".join(c.name for c in self.columns),
                                        options.table_name)
        if not options.partitions:
            return [(select, ())] if subtask == 0 else []
        where = " WHERE (%s BETWEEN %%s AND %%s)" % options.partition_column
        ordered = list(reversed(options.partitions))     # DefaultInputSplitAssigner's order
        return [(select.replace("%", "%%") + where, split)
                for split in ordered[subtask::parallelism]]

    @property
    def reads_postgresql(self) -> bool:
        """The scan's tasks need psycopg: spark/package_shipping.py ships it to executors
        that lack it and puts it on their sys.path (spark/table_frames.py)."""
        return self.options.url.startswith("jdbc:postgresql:")

    def __call__(self, subtask: int, parallelism: int):
        from pyflink_on_spark.codecs.jdbc.drivers import driver_for
        queries = self.queries(subtask, parallelism)
        if not queries:
            return
        options = self.options
        convert = [_converter(c.sql_type) for c in self.columns]
        connection = driver_for(options.url, options.username, options.password).connect()
        try:
            for number, (query, parameters) in enumerate(queries):
                cursor = connection.cursor(name="pyflink_on_spark_scan_%d" % number)
                cursor.itersize = options.fetch_size or 2000
                try:
                    cursor.execute(query, parameters or None)
                    for row in cursor:
                        yield tuple(None if v is None else f(v) for f, v in zip(convert, row))
                finally:
                    cursor.close()
        finally:
            connection.close()


def _converter(sql_type: str):
    """A value psycopg gave -> the column type's value (a DECIMAL(p, s) rounded half up to
    its scale, NULL when it has more digits than p, as Flink's DecimalData.fromBigDecimal)."""
    match = re.fullmatch(r"DECIMAL\((\d+), (\d+)\)", sql_type)
    if match is None:
        return lambda value: value
    precision, scale = int(match.group(1)), int(match.group(2))
    quantum = decimal.Decimal(1).scaleb(-scale)

    def to_decimal(value):
        rounded = decimal.Decimal(value).quantize(quantum, rounding=decimal.ROUND_HALF_UP)
        return None if len(rounded.as_tuple().digits) > precision else rounded
    return to_decimal


def jdbc_sink(t_env, path: str) -> Optional[JdbcTableSink]:
    """What INSERT INTO the table at `path` writes, when it is a jdbc table (the Table its
    CREATE TABLE registered)."""
    view = t_env._views.get(path)
    return None if view is None else _SINKS.get(view)


def jdbc_table(create_table, t_env):
    """The Table of a jdbc CREATE TABLE (table/sql CreateTable)."""
    from pyflink_on_spark.specs.table_connectors import ConnectorTable
    from pyflink_on_spark.specs.tables import GeneratedTable
    from pyflink_on_spark.table.connector_tables import flink_column
    from pyflink_on_spark.table.table import Table
    if not all(c.is_physical and c.metadata is None for c in create_table.columns) or \
            create_table.watermark is not None or create_table.partition_keys:
        raise NotImplementedError("computed or metadata columns, a WATERMARK or PARTITIONED BY "
                                  "of a jdbc table: not supported by pyflink_on_spark yet")
    # a primary key's columns are NOT NULL (seen on PyFlink 1.20.5, print_schema)
    columns = tuple(replace(column, nullable=False) if column.name in create_table.primary_key
                    else column for column in (flink_column(c.name, c.data_type)
                                               for c in create_table.physical_columns))
    listed = tuple(sorted((k, _HIDDEN if "password" in k else v)
                          for k, v in create_table.options.items()))
    try:
        options = checked_options(dict(create_table.options), columns)
    except (FlinkRejects, NotImplementedError) as e:
        # PyFlink creates the table and refuses it when it is read or written
        return Table(ConnectorTable("jdbc", create_table.name, columns, refusal=str(e),
                                    refused_by_flink=isinstance(e, FlinkRejects),
                                    options=listed), t_env, columns)
    parallelism = max(t_env._parallelism(), 1)
    table = Table(GeneratedTable(ScanRows(options, columns), parallelism, columns, True,
                                 connector="jdbc"), t_env, columns)
    _SINKS[table] = JdbcTableSink(create_table.name, columns, options,
                                  tuple(create_table.primary_key))
    return table
