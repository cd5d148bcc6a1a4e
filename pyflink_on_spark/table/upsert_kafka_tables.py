"""`CREATE TABLE ... WITH ('connector' = 'upsert-kafka', ...)`, as Flink's upsert-kafka connector
(flink-sql-connector-kafka 3.2.0-1.19) writes it; seen on PyFlink 1.20.5, the topic read back
with a plain consumer (compat_tests/cases/kafka/table_upsert.py):

- INSERT INTO it (table_sinks.py runs it as a DataStream job): each row a Kafka record whose
  key is the PRIMARY KEY's columns (in the constraint's order; `key.fields-prefix` stripped
  from their names) encoded by `key.format`, and whose value is the row's columns (`ALL`) or
  those besides the key (`value.fields-include` = `EXCEPT_KEY`) encoded by `value.format`
  (json, csv, raw: table/kafka_formats.py). +I / +U rows are written as key + value, -D rows as
  key + null value (a tombstone); -U rows are not written (Flink's upsert sink takes no
  UPDATE_BEFORE: a `GROUP BY k` into a table keyed by `k` wrote `a -> 1`, `b -> 1`,
  `a -> 2` and nothing for the -U). A query whose upsert key (its group keys) is not within
  the primary key goes through Flink's SinkUpsertMaterializer first (MaterializedUpserts:
  tombstones when a key has no row left). With `sink.buffer-flush.max-rows` and
  `sink.buffer-flush.interval` the rows are reduced by key in a buffer flushed when it holds
  max-rows keys, when the interval passed and at the end of the input / of each micro-batch
  (Flink's ReducingUpsertWriter; the keys of one flush in their first order here, in its hash
  map's order on Flink).
- Reading it (Flink's changelog of the topic, normalized by key: ChangelogNormalize) raises
  NotImplementedError naming it: the shim has no table of a changelog stream yet.

What Flink rejects (no PRIMARY KEY, no key.format / value.format, an unknown option, a key
prefix with `ALL`, one buffer option without the other...) fails when the table is used, in
Flink's words, as on PyFlink; options without a meaning here raise NotImplementedError naming
them."""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Tuple

from pyflink_on_spark.datastream.functions import KeyedProcessFunction
from pyflink_on_spark.specs.tables import TableColumn
from pyflink_on_spark.table.table_connectors import FlinkRejects

# the options of flink-sql-connector-kafka 3.2.0-1.19's upsert-kafka factory (seen on PyFlink
# 1.20.5: "Supported options:"), besides properties.* and the key / value formats' options
FLINK_OPTIONS = (
    "connector", "key.fields-prefix", "key.format", "properties.bootstrap.servers",
    "property-version", "scan.bounded.mode", "scan.bounded.specific-offsets",
    "scan.bounded.timestamp-millis", "scan.watermark.alignment.group",
    "scan.watermark.alignment.max-drift", "scan.watermark.alignment.update-interval",
    "scan.watermark.emit.strategy", "scan.watermark.idle-timeout",
    "sink.buffer-flush.interval", "sink.buffer-flush.max-rows", "sink.delivery-guarantee",
    "sink.parallelism", "sink.transactional-id-prefix", "topic", "value.fields-include",
    "value.format")
# each format's options (json's seen on PyFlink 1.20.5, as `key.json.*` / `value.json.*`)
FORMAT_OPTIONS = {
    "json": ("encode.decimal-as-plain-number", "encode.ignore-null-fields",
             "fail-on-missing-field", "ignore-parse-errors", "map-null-key.literal",
             "map-null-key.mode", "timestamp-format.standard"),
    "csv": ("allow-comments", "array-element-delimiter", "disable-quote-character",
            "escape-character", "field-delimiter", "ignore-parse-errors", "null-literal",
            "quote-character", "write-bigdecimal-in-scientific-notation"),
    "raw": ("charset", "endianness"),
}
# the format options that mean something (or nothing) to the sink here: the decoding ones
# only matter to a source, which is refused
_RUNNING_FORMAT_OPTIONS = {
    "json": ("fail-on-missing-field", "ignore-parse-errors"),
    "csv": ("field-delimiter", "ignore-parse-errors"),
    "raw": (),
}
# source-only options, taken (reading the table is refused anyway)
_SCAN = ("scan.bounded.mode", "scan.bounded.specific-offsets", "scan.bounded.timestamp-millis",
         "scan.watermark.alignment.group", "scan.watermark.alignment.max-drift",
         "scan.watermark.alignment.update-interval", "scan.watermark.emit.strategy",
         "scan.watermark.idle-timeout")
_GUARANTEES = {"at-least-once": "AT_LEAST_ONCE", "none": "NONE", "exactly-once": "EXACTLY_ONCE"}
# what INSERT INTO an upsert-kafka table writes, by table (upsert_kafka_sink)
_SINKS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_READING = ("reading an upsert-kafka table (Flink's changelog of the topic, normalized by its "
            "key: +I for a new key, -U / +U for a changed one, -D for a tombstone) is not "
            "supported by pyflink_on_spark yet; INSERT INTO it runs (docs/table.md)")


@dataclass(frozen=True)
class UpsertKafkaOptions:
    """What the table's options mean: the topic, the producer's properties, the key's and the
    value's format (name, its options without the `key.` / `value.` prefix: `csv.*`), the key's column
    indexes (the primary key's order) and field names (the prefix stripped), the value's
    column indexes, buffering (max rows 0: none), the delivery guarantee."""
    topic: str
    properties: Tuple[Tuple[str, str], ...]
    key_format: str
    key_options: Tuple[Tuple[str, str], ...]
    value_format: str
    value_options: Tuple[Tuple[str, str], ...]
    key_indexes: Tuple[int, ...]
    key_names: Tuple[str, ...]
    value_indexes: Tuple[int, ...]
    max_rows: int = 0
    interval_ms: int = 0
    guarantee: str = "at-least-once"
    transactional_id_prefix: Optional[str] = None
    parallelism: Optional[int] = None


def _unsupported(unknown: List[str], options: Dict[str, str]) -> FlinkRejects:
    """Flink's text (seen on PyFlink 1.20.5) for options no factory takes."""
    formats = [options.get(k) for k in ("key.format", "value.format")]
    supported = set(FLINK_OPTIONS)
    for side, fmt in zip(("key", "value"), formats):
        supported.update("%s.%s.%s" % (side, fmt, o) for o in FORMAT_OPTIONS.get(fmt, ()))
    return FlinkRejects("Unsupported options found for 'upsert-kafka'.\n\nUnsupported options:"
                        "\n\n%s\n\nSupported options:\n\n%s"
                        % ("\n".join(sorted(unknown)), "\n".join(sorted(supported))))


def _duration_ms(text: str, option: str) -> int:
    """A Flink duration ('1s', '500 ms', '2 min', '1000': milliseconds)."""
    match = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", text.lower())
    units = {"": 1, "ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
             "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
             "min": 60000, "m": 60000, "minute": 60000, "minutes": 60000,
             "h": 3600000, "hour": 3600000, "hours": 3600000,
             "d": 86400000, "day": 86400000, "days": 86400000}
    if match is None or match.group(2) not in units:
        raise FlinkRejects("Invalid value for option '%s'." % option)
    return int(match.group(1)) * units[match.group(2)]


def checked_options(options: Dict[str, str], columns: Tuple[TableColumn, ...],
                    primary_key: Tuple[str, ...]) -> UpsertKafkaOptions:
    """The table's options, checked in the order Flink's factory checks them (FlinkRejects in
    Flink's words, seen on PyFlink 1.20.5); NotImplementedError for what does not run here."""
    from pyflink_on_spark.table.kafka_formats import FORMATS
    for side in ("key", "value"):
        if "%s.format" % side not in options:
            raise FlinkRejects("Could not find required sink format '%s.format'." % side)
    key_format, value_format = options["key.format"], options["value.format"]
    for fmt in (key_format, value_format):
        if fmt not in FORMATS:
            raise NotImplementedError(
                "an upsert-kafka table of format %r: pyflink_on_spark writes the %s formats "
                "of upsert-kafka tables so far (docs/table.md)" % (fmt, ", ".join(FORMATS)))
    unknown = []
    format_options: Dict[str, Dict[str, str]] = {"key": {}, "value": {}}
    for key, value in options.items():
        if key in FLINK_OPTIONS or key.startswith("properties."):
            continue
        side, _, rest = key.partition(".")
        fmt = options.get("%s.format" % side)
        if side in format_options and rest.startswith("%s." % fmt) and \
                rest[len(fmt) + 1:] in FORMAT_OPTIONS[fmt]:
            format_options[side][rest] = value
        else:
            unknown.append(key)
    if unknown:
        raise _unsupported(unknown, options)
    include = options.get("value.fields-include", "ALL")
    if include not in ("ALL", "EXCEPT_KEY"):
        raise FlinkRejects("Invalid value for option 'value.fields-include'.")
    if "properties.bootstrap.servers" not in options:
        raise FlinkRejects("One or more required options are missing.\n\nMissing required "
                           "options are:\n\nproperties.bootstrap.servers")
    if "topic" not in options:
        raise FlinkRejects("Flink Kafka sink currently only supports single topic, but got "
                           "'topic': null.")
    if not primary_key:
        raise FlinkRejects(
            "'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY "
            "KEY specifies which columns should be read from or write to the Kafka message "
            "key. The PRIMARY KEY also defines records in the 'upsert-kafka' table should "
            "update or delete on which keys.")
    max_rows = int(options.get("sink.buffer-flush.max-rows", "0"))
    interval_ms = _duration_ms(options.get("sink.buffer-flush.interval", "0"),
                               "sink.buffer-flush.interval")
    if (max_rows > 0) != (interval_ms > 0):
        raise FlinkRejects("'sink.buffer-flush.max-rows' and 'sink.buffer-flush.interval' "
                           "must be set to be greater than zero together to enable sink "
                           "buffer flushing.")
    prefix = options.get("key.fields-prefix", "")
    if prefix and include == "ALL":
        raise FlinkRejects("A key prefix is not allowed when option 'value.fields-include' "
                           "is set to 'ALL'. Set it to 'EXCEPT_KEY' instead to avoid field "
                           "overlaps.")
    for name in primary_key:
        if not name.startswith(prefix):
            raise FlinkRejects("All fields in 'key.fields' must be prefixed with '%s' when "
                               "option 'key.fields-prefix' is set but field '%s' is not "
                               "prefixed." % (prefix, name))
    guarantee = options.get("sink.delivery-guarantee", "at-least-once")
    if guarantee not in _GUARANTEES:
        raise FlinkRejects("Invalid value for option 'sink.delivery-guarantee'.")
    if guarantee == "exactly-once" and "sink.transactional-id-prefix" not in options:
        raise FlinkRejects("sink.transactional-id-prefix must be specified when using "
                           "DeliveryGuarantee.EXACTLY_ONCE.")
    if guarantee == "exactly-once" and max_rows > 0:
        raise NotImplementedError("an upsert-kafka table with 'sink.delivery-guarantee' = "
                                  "'exactly-once' and sink.buffer-flush.*: not supported by "
                                  "pyflink_on_spark yet")
    names = [c.name for c in columns]
    key_indexes = tuple(names.index(k) for k in primary_key)
    value_indexes = tuple(i for i in range(len(columns))
                          if include == "ALL" or i not in key_indexes)
    for side, fmt, indexes in (("key", key_format, key_indexes),
                               ("value", value_format, value_indexes)):
        for option in format_options[side]:
            if option[len(fmt) + 1:] not in _RUNNING_FORMAT_OPTIONS[fmt]:
                raise NotImplementedError("the upsert-kafka table option '%s.%s': not "
                                          "supported by pyflink_on_spark yet (docs/table.md)"
                                          % (side, option))
        if fmt == "raw" and len(indexes) != 1:
            raise FlinkRejects(
                "The 'raw' format only supports single physical column. However the defined "
                "schema contains multiple physical columns: [%s]"
                % ", ".join("`%s` %s" % (columns[i].name, columns[i].type_text())
                            for i in indexes))
        if fmt == "raw" and not _is_text(columns[indexes[0]].sql_type):
            raise NotImplementedError("a raw %s of type %s in an upsert-kafka table: "
                                      "pyflink_on_spark writes raw STRING columns so far"
                                      % (side, columns[indexes[0]].sql_type))
    parallelism = options.get("sink.parallelism")
    return UpsertKafkaOptions(
        topic=options["topic"],
        properties=tuple(sorted((k[len("properties."):], v) for k, v in options.items()
                                if k.startswith("properties."))),
        key_format=key_format,
        key_options=tuple(sorted(format_options["key"].items())),
        value_format=value_format,
        value_options=tuple(sorted(format_options["value"].items())),
        key_indexes=key_indexes, key_names=tuple(k[len(prefix):] for k in primary_key),
        value_indexes=value_indexes, max_rows=max_rows, interval_ms=interval_ms,
        guarantee=guarantee,
        transactional_id_prefix=options.get("sink.transactional-id-prefix"),
        parallelism=None if parallelism is None else int(parallelism))


def _is_text(sql_type: str) -> bool:
    return sql_type == "STRING" or sql_type.startswith(("VARCHAR(", "CHAR("))


class UpsertRecord:
    """A table row (a Row with its kind) -> (key bytes, value bytes; None for -D: a
    tombstone), as the key and value formats encode the key's and the value's fields."""

    def __init__(self, options: UpsertKafkaOptions, columns: Tuple[TableColumn, ...]) -> None:
        from pyflink_on_spark.table.kafka_formats import RowEncoder
        self.key_indexes = options.key_indexes
        self.key_columns = tuple(columns[i].name for i in options.key_indexes)
        self.value_indexes = options.value_indexes
        self.key = RowEncoder(options.key_format, options.key_names,
                              [columns[i].sql_type for i in options.key_indexes],
                              dict(options.key_options))
        self.value = RowEncoder(options.value_format,
                                [columns[i].name for i in options.value_indexes],
                                [columns[i].sql_type for i in options.value_indexes],
                                dict(options.value_options))

    def __call__(self, row):
        from pyflink_on_spark.common.types import RowKind
        values = tuple(row)
        key_values = tuple(values[i] for i in self.key_indexes)
        if None in key_values:
            # seen on PyFlink 1.20.5: the sink's not-null enforcer fails the job
            raise ValueError(
                "Column '%s' is NOT NULL, however, a null value is being written into it. You "
                "can set job configuration 'table.exec.sink.not-null-enforcer'='DROP' to "
                "suppress this exception and drop such records silently."
                % self.key_columns[key_values.index(None)])
        key = self.key(key_values)
        kind = row.get_row_kind() if hasattr(row, "get_row_kind") else RowKind.INSERT
        if kind in (RowKind.DELETE, RowKind.UPDATE_BEFORE):
            return key, None
        return key, self.value(tuple(values[i] for i in self.value_indexes))


class RecordPart:
    """The key (0) or the value (1) of an encoded (key, value) record: the KafkaSink's
    serialization schemas (datastream/connectors/kafka.py takes `_serialize`)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def _serialize(self, record):
        return record[self.index]


class MaterializedUpserts(KeyedProcessFunction):
    """Flink's SinkUpsertMaterializer (a KeyedProcessFunction keyed by the table's primary
    key), which Flink puts before an upsert sink when the query's upsert key is not within
    the primary key: the key's rows kept in a list; +I / +U replaces the row of its upsert
    key (or is added) and is written (+I when the list was empty, +U else); -U / -D removes
    the row of its upsert key: the list empty, a -D (a tombstone); the last row removed, the
    one before it as +U; another row, nothing. Seen on PyFlink 1.20.5: a GROUP BY k count
    into a table keyed by the count (a, b, a) wrote 1:{1,a}, 1:{1,b}, 2:{2,a}. Gives the
    encoded (key, value) records."""

    def __init__(self, upsert_key: Tuple[int, ...], encode: "UpsertRecord") -> None:
        self.upsert_key = upsert_key
        self.encode = encode
        self.state = None

    def open(self, runtime_context) -> None:
        from pyflink_on_spark.common.typeinfo import Types
        from pyflink_on_spark.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(
            ValueStateDescriptor("sink_upsert_materializer", Types.PICKLED_BYTE_ARRAY()))

    def process_element(self, row, ctx):
        from pyflink_on_spark.common.types import RowKind
        values = list(self.state.value() or ())
        fields = tuple(row)
        key = tuple(fields[i] for i in self.upsert_key)
        index = next((i for i, v in enumerate(values)
                      if tuple(v[j] for j in self.upsert_key) == key), None)
        if row.get_row_kind() in (RowKind.INSERT, RowKind.UPDATE_AFTER):
            kind = RowKind.INSERT if not values else RowKind.UPDATE_AFTER
            if index is None:
                values.append(fields)
            else:
                values[index] = fields
            self.state.update(tuple(values))
            yield self.encode(_kind_row(fields, kind))
            return
        if index is None:       # Flink logs that the state was cleared
            return
        last = len(values) - 1
        del values[index]
        if not values:
            self.state.clear()
            yield self.encode(_kind_row(fields, RowKind.DELETE))
            return
        self.state.update(tuple(values))
        if index == last:
            yield self.encode(_kind_row(values[-1], RowKind.UPDATE_AFTER))


def _kind_row(fields, kind):
    from pyflink_on_spark.common.types import Row
    row = Row(*fields)
    row.set_row_kind(kind)
    return row


def _BufferedSink(sink, max_rows: int, interval_ms: int):
    """The KafkaSink whose writer reduces its records by key (sink.buffer-flush.*:
    specs.sinks.KafkaUpsertBufferSinkSpec)."""
    from pyflink_on_spark.datastream.connectors.kafka import KafkaSink

    class BufferedKafkaSink(KafkaSink):
        def _sink_definition(self, input_type):
            from pyflink_on_spark.specs.sinks import KafkaSinkSpec, KafkaUpsertBufferSinkSpec
            records = super()._sink_definition(input_type)
            fields = {f: getattr(records, f) for f in KafkaSinkSpec.__dataclass_fields__}
            return KafkaUpsertBufferSinkSpec(max_rows=max_rows, interval_ms=interval_ms,
                                             **fields)
    return BufferedKafkaSink(sink._j_sink)


@dataclass(frozen=True)
class UpsertKafkaTableSink:
    """What an INSERT INTO an upsert-kafka table writes (table_sinks.py runs it as a
    DataStream job)."""
    name: str
    columns: Tuple[TableColumn, ...]
    options: UpsertKafkaOptions
    connector: str = "upsert-kafka"

    @property
    def parallelism(self) -> Optional[int]:
        return self.options.parallelism

    def check_insert(self, table, path: str) -> None:
        """An updating query is written when its upsert key (a grouping query's group keys,
        selected as columns) is known here: lying within the table's primary key as it is,
        else through Flink's SinkUpsertMaterializer (materialized_upserts); a query whose
        upsert key the shim cannot tell raises NotImplementedError."""
        if table._updates() and upsert_key(table) is None:
            raise NotImplementedError(
                "INSERT INTO upsert-kafka table %s of an updating query whose upsert key "
                "pyflink_on_spark does not derive (a GROUP BY query selecting its group keys "
                "runs): Flink's SinkUpsertMaterializer without an upsert key is not "
                "supported by pyflink_on_spark yet" % path)

    def add_sink(self, stream_t_env, table, parallelism: int) -> None:
        """The rows of `table` into a KafkaSink of (key, value) records: an insert-only
        query's rows cast to the table's columns, an updating query's changelog (its values
        by position, uncast) without its -U rows, or materialized by the primary key when
        its upsert key is not within it."""
        from pyflink_on_spark.table.jdbc_tables import _Key, _NotUpdateBefore
        from pyflink_on_spark.table.table_sinks import _cast_to
        encode = UpsertRecord(self.options, self.columns)
        materialized = None
        if table._updates():
            group = upsert_key(table)
            table = self._unrenamed(table)
            stream = stream_t_env.to_changelog_stream(table)
            if group <= frozenset(self.options.key_indexes):
                stream = stream.filter(_NotUpdateBefore())
            else:
                materialized = MaterializedUpserts(tuple(sorted(group)), encode)
        else:
            stream = stream_t_env.to_data_stream(_cast_to(stream_t_env, table, self.columns))
        if parallelism > 1 or materialized is not None:
            stream = stream.key_by(_Key(self.options.key_indexes))
        records = stream.map(encode) if materialized is None else \
            stream.process(materialized)
        if parallelism > 1 or self.options.max_rows:
            records = records.set_parallelism(parallelism)
        records.sink_to(self.sink()).set_parallelism(parallelism) \
            .name("Sink: upsert-kafka %s" % self.name)

    def sink(self):
        """The KafkaSink of the table's (key, value) records; with sink.buffer-flush.* its
        writer reduces them by key (the sink's `buffer`)."""
        from pyflink_on_spark.datastream.connectors.base import DeliveryGuarantee
        from pyflink_on_spark.datastream.connectors.kafka import (
            KafkaRecordSerializationSchema, KafkaSink)
        from pyflink_on_spark.codecs.table_rows_text import check_types
        options = self.options
        check_types([c.sql_type for c in self.columns], "upsert-kafka")
        properties = dict(options.properties)
        builder = KafkaSink.builder() \
            .set_bootstrap_servers(properties.pop("bootstrap.servers")) \
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic(options.topic)
                                   .set_key_serialization_schema(RecordPart(0))
                                   .set_value_serialization_schema(RecordPart(1)).build()) \
            .set_delivery_guarantee(DeliveryGuarantee[_GUARANTEES[options.guarantee]])
        if options.transactional_id_prefix is not None:
            builder.set_transactional_id_prefix(options.transactional_id_prefix)
        for key, value in properties.items():
            builder.set_property(key, value)
        sink = builder.build()
        if options.max_rows:
            return _BufferedSink(sink, options.max_rows, options.interval_ms)
        return sink

    def _unrenamed(self, table):
        from pyflink_on_spark.table.updating_sink_columns import uncast_updating_table
        return uncast_updating_table(table, self.columns, "upsert-kafka table %s" % self.name, _widens)


def _widens(source: str, target: str) -> bool:
    """A value of `source` is written as the same value of `target` (an updating query's
    values reach the sink uncast): jdbc_tables' widenings, and text into STRING."""
    from pyflink_on_spark.table.jdbc_tables import _widens as widens
    return widens(source, target) or (target == "STRING" and _is_text(source))


def upsert_key(table):
    """The positions of an updating query's upsert key among its columns: a grouping query's
    group keys when it selects each of them as a column (the shim's split of it,
    jdbc_tables._group_key, else the query's own top-level GROUP BY: a VALUES or a grouping
    subquery as its input); None when not known here."""
    from pyflink_on_spark.table.jdbc_tables import _group_key
    group = _group_key(table)
    if group is not None:
        return group
    query = getattr(table._description, "flink_query", None)
    if not query:
        return None
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    try:
        tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError:
        return None
    group_by = tree.args.get("group") if isinstance(tree, exp.Select) else None
    if group_by is None or tree.args.get("distinct") is not None or \
            any(group_by.args.get(k) for k in ("grouping_sets", "cube", "rollup")):
        return None
    keys = set()
    for expression in group_by.expressions:
        if not isinstance(expression, exp.Column):
            return None
        keys.add(expression.name)
    positions = {}
    for index, item in enumerate(tree.expressions):
        inner = item.this if isinstance(item, exp.Alias) else item
        if isinstance(inner, exp.Column) and inner.name in keys:
            positions.setdefault(inner.name, index)
    return frozenset(positions.values()) if set(positions) == keys else None


def upsert_kafka_sink(t_env, path: str) -> Optional[UpsertKafkaTableSink]:
    """What INSERT INTO the table at `path` writes, when it is an upsert-kafka table whose
    options run (the Table its CREATE TABLE registered)."""
    view = t_env._views.get(path)
    return None if view is None else _SINKS.get(view)


def upsert_kafka_table(create_table, t_env):
    """The Table of an upsert-kafka CREATE TABLE (table/sql CreateTable): reading it is
    refused, INSERT INTO it runs; options Flink rejects fail both when the table is used."""
    from pyflink_on_spark.specs.table_connectors import ConnectorTable
    from pyflink_on_spark.table.connector_tables import flink_column
    from pyflink_on_spark.table.table import Table
    if not all(c.is_physical and c.metadata is None for c in create_table.columns) or \
            create_table.watermark is not None or create_table.partition_keys:
        raise NotImplementedError("computed or metadata columns, a WATERMARK or PARTITIONED BY "
                                  "of an upsert-kafka table: not supported by "
                                  "pyflink_on_spark yet")
    primary_key = tuple(create_table.primary_key or ())
    # a primary key's columns are NOT NULL (seen on PyFlink 1.20.5, print_schema)
    columns = tuple(replace(column, nullable=False) if column.name in primary_key
                    else column for column in (flink_column(c.name, c.data_type)
                                               for c in create_table.physical_columns))
    listed = tuple(sorted(create_table.options.items()))
    try:
        options = checked_options(dict(create_table.options), columns, primary_key)
    except (FlinkRejects, NotImplementedError) as e:
        # PyFlink creates the table and refuses it when it is read or written
        return Table(ConnectorTable("upsert-kafka", create_table.name, columns, refusal=str(e),
                                    refused_by_flink=isinstance(e, FlinkRejects),
                                    options=listed), t_env, columns)
    table = Table(ConnectorTable("upsert-kafka", create_table.name, columns, refusal=_READING,
                                 options=listed), t_env, columns)
    _SINKS[table] = UpsertKafkaTableSink(create_table.name, columns, options)
    return table
