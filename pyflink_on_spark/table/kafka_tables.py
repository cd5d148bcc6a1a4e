"""`CREATE TABLE ... WITH ('connector' = 'kafka', ...)`: as a source, the table of a
KafkaSource stream (the shim's DataStream Kafka connector) whose values are decoded into the
table's columns, as Flink's kafka connector and its json / csv / raw formats read them (seen
on PyFlink 1.20.5, compat_tests/cases/kafka/table_*.py; table/kafka_formats.py). Bounded
(`scan.bounded.mode`) it is a table of a bounded stream; unbounded, the table of an
unbounded stream, which a job reads through to_data_stream and friends
(spark/table_feeds.py). As a sink (INSERT INTO, table_sinks.py), a KafkaSink of the rows
encoded by the format (kafka_sink). Options other than those below raise
NotImplementedError naming them. A WATERMARK makes its column the rowtime attribute, the
table a RowtimeTable whose window aggregates and OVER windows generate the SQL watermark
over the decoded rows (_rowtime_table)."""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

_STARTUP = {"earliest-offset": "earliest", "latest-offset": "latest",
            "group-offsets": "committed"}
_BOUNDED = {"latest-offset": "latest", "group-offsets": "committed"}
_OPTIONS = {"connector", "topic", "properties.bootstrap.servers", "format", "value.format",
            "scan.startup.mode", "scan.bounded.mode", "scan.startup.timestamp-millis",
            "scan.bounded.timestamp-millis", "sink.delivery-guarantee",
            "sink.transactional-id-prefix"}
_GUARANTEES = {"at-least-once": "AT_LEAST_ONCE", "none": "NONE", "exactly-once": "EXACTLY_ONCE"}
# what INSERT INTO a kafka table writes, by table (kafka_sink)
_SINKS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class KafkaTableSink:
    """What an INSERT INTO a kafka table writes: the rows encoded by the table's format, to
    its topic (table_sinks.py runs it as a KafkaSink job)."""
    name: str
    options: Tuple[Tuple[str, str], ...]
    columns: Tuple
    fmt: str

    def sink(self):
        """The KafkaSink of the table (the shim's DataStream connector)."""
        from pyflink_on_spark.datastream.connectors.base import DeliveryGuarantee
        from pyflink_on_spark.datastream.connectors.kafka import (
            KafkaRecordSerializationSchema, KafkaSink)
        from pyflink_on_spark.codecs.table_rows_text import check_types
        from pyflink_on_spark.table.kafka_formats import RowEncoder
        options = dict(self.options)
        check_types([c.sql_type for c in self.columns], "kafka")
        encoder = RowEncoder(self.fmt, [c.name for c in self.columns],
                             [c.sql_type for c in self.columns], options)
        builder = KafkaSink.builder() \
            .set_bootstrap_servers(_required(options, "properties.bootstrap.servers")) \
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic(_required(options, "topic"))
                                   .set_value_serialization_schema(encoder).build())
        guarantee = options.get("sink.delivery-guarantee", "at-least-once")
        if guarantee not in _GUARANTEES:
            raise ValueError("'sink.delivery-guarantee' = '%s' of kafka table %s: one of %s"
                             % (guarantee, self.name, ", ".join(_GUARANTEES)))
        builder.set_delivery_guarantee(DeliveryGuarantee[_GUARANTEES[guarantee]])
        if "sink.transactional-id-prefix" in options:
            builder.set_transactional_id_prefix(options["sink.transactional-id-prefix"])
        for key, value in options.items():
            if key.startswith("properties.") and key != "properties.bootstrap.servers":
                builder.set_property(key[len("properties."):], value)
        return builder.build()


def kafka_sink(t_env, path: str) -> Optional[KafkaTableSink]:
    """What INSERT INTO the table at `path` writes, when it is a kafka table (the Table its
    CREATE TABLE registered: from_path gives copies)."""
    view = t_env._views.get(path)
    return None if view is None else _SINKS.get(view)


def kafka_table(create_table, t_env):
    """The Table of a kafka CREATE TABLE (table/sql CreateTable)."""
    from dataclasses import replace
    from pyflink_on_spark.common import Types, WatermarkStrategy
    from pyflink_on_spark.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                              KafkaSource)
    from pyflink_on_spark.table.connector_tables import flink_column
    from pyflink_on_spark.table.kafka_formats import (FORMATS, OPTIONS, RowDecoder,
                                                      table_value_schema)
    options = dict(create_table.options)
    fmt = options.get("value.format", options.get("format"))
    if fmt is None:
        raise ValueError("a kafka table needs its value format: 'format' = 'json' (or "
                         "'value.format'; formats that run: %s)" % ", ".join(FORMATS))
    if fmt not in FORMATS:
        raise NotImplementedError("a kafka table of format %r: pyflink_on_spark reads and "
                                  "writes the %s formats of kafka tables so far "
                                  "(docs/table.md)" % (fmt, ", ".join(FORMATS)))
    unknown = sorted(k for k in options if k not in _OPTIONS and
                     not k.startswith("properties.") and k not in OPTIONS[fmt])
    if unknown:
        raise NotImplementedError("the kafka table option(s) %s: not supported by "
                                  "pyflink_on_spark yet (docs/table.md)" % ", ".join(unknown))
    if not all(c.is_physical and c.metadata is None for c in create_table.columns):
        raise NotImplementedError("computed or metadata columns of a kafka table: not "
                                  "supported by pyflink_on_spark yet")
    columns = tuple(flink_column(c.name, c.data_type) for c in create_table.physical_columns)
    if fmt == "raw" and (len(columns) != 1 or not _is_text(columns[0].sql_type)):
        raise NotImplementedError("a raw kafka table of columns %s: pyflink_on_spark reads "
                                  "and writes raw tables of one STRING column so far"
                                  % ", ".join(c.text() for c in columns))
    builder = KafkaSource.builder() \
        .set_bootstrap_servers(_required(options, "properties.bootstrap.servers")) \
        .set_topics(_required(options, "topic")) \
        .set_value_only_deserializer(table_value_schema())
    for key, value in options.items():
        if key.startswith("properties.") and key != "properties.bootstrap.servers":
            builder.set_property(key[len("properties."):], value)
    if "properties.group.id" in options:
        builder.set_group_id(options["properties.group.id"])
    builder.set_starting_offsets(_initializer(
        options, "scan.startup.mode", "group-offsets", _STARTUP, "scan.startup.timestamp-millis",
        KafkaOffsetsInitializer))
    bounded = options.get("scan.bounded.mode", "unbounded")
    if bounded != "unbounded":
        builder.set_bounded(_initializer(options, "scan.bounded.mode", bounded, _BOUNDED,
                                         "scan.bounded.timestamp-millis",
                                         KafkaOffsetsInitializer))
    watermark = _checked_watermark(create_table, columns)
    names = [c.name for c in columns]
    sink = KafkaTableSink(create_table.name, tuple(sorted(options.items())), columns, fmt)
    try:
        source = builder.build()
    except ValueError as e:
        # a table written to only needs no source (a group.id...): reading it fails, in
        # Flink's first words (spark/table_connectors.py)
        from pyflink_on_spark.specs.table_connectors import ConnectorTable
        from pyflink_on_spark.table.table import Table
        table = Table(ConnectorTable("kafka", create_table.name, columns, refusal=str(e),
                                     refused_by_flink=True,
                                     options=tuple(sorted(options.items()))), t_env, columns)
        _SINKS[table] = sink
        return table
    env = t_env._env
    decoder = RowDecoder(fmt, names, [c.sql_type for c in columns], options)
    values = env.from_source(source, WatermarkStrategy.no_watermarks() if watermark is None
                             else _partition_watermarks(decoder, names.index(watermark[0]),
                                                        watermark[1]),
                             "KafkaSource-default_catalog.default_database.%s"
                             % create_table.name)
    types = {"TINYINT": Types.BYTE, "SMALLINT": Types.SHORT, "INT": Types.INT,
             "BIGINT": Types.LONG, "FLOAT": Types.FLOAT, "DOUBLE": Types.DOUBLE,
             "BOOLEAN": Types.BOOLEAN}
    rows = values.flat_map(_Decoded(decoder),
                           output_type=Types.ROW_NAMED(
                               names, [types.get(c.sql_type, Types.SQL_TIMESTAMP
                                                 if c.sql_type.startswith("TIMESTAMP(")
                                                 else Types.STRING)() for c in columns]))
    # the decoding operator belongs to the table, not to the program's pending DataStream
    # operators (an execute() would run it with a discarding sink: an endless job for an
    # unbounded table)
    env._operators.pop(rows._transformation.id, None)
    table = t_env.from_data_stream(rows)
    table = type(table)(replace(table._description, columns=columns), t_env, columns)
    if watermark is not None:
        table = _rowtime_table(table, watermark)
    _SINKS[table] = sink
    return table


def _checked_watermark(create_table, columns):
    """The table's WATERMARK (column, expression as print_schema shows it), checked at CREATE
    TABLE: its column a TIMESTAMP(p) / TIMESTAMP_LTZ(p) (Flink's words, seen on PyFlink
    1.20.5), its expression one the shim generates watermarks of (`ts`,
    `ts - INTERVAL 'n' UNIT`); None without one."""
    from pyflink_on_spark.table.connector_tables import _quoted
    from pyflink_on_spark.table.sql.errors import SqlValidationError
    from pyflink_on_spark.table.stream_schema import _TIME_FIELD
    from pyflink_on_spark.table.window_aggregates import sql_watermark_delay
    watermark = create_table.watermark
    if watermark is None:
        return None
    column = next((c for c in columns if c.name == watermark.column), None)
    if column is None:
        raise SqlValidationError(
            "Invalid column name '%s' for rowtime attribute in watermark declaration. "
            "Available columns are: [%s]" % (watermark.column,
                                             ", ".join(c.name for c in columns)))
    if not _TIME_FIELD.fullmatch(column.sql_type):
        raise SqlValidationError(
            "Invalid data type of time field for watermark definition. The field must be of "
            "type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported precision 'p' is from 0 to "
            "3, but the time field type is %s" % column.type_text())
    expression = _quoted(watermark.expression)
    try:
        sql_watermark_delay(expression)
        if expression.split()[0] != "`%s`" % column.name:
            raise NotImplementedError
    except NotImplementedError:
        raise NotImplementedError(
            "WATERMARK FOR %s AS %s of the kafka table %s: pyflink_on_spark generates the "
            "watermarks `%s` and `%s - INTERVAL 'n' SECOND` (or MILLISECOND, MINUTE, HOUR, "
            "DAY) of a kafka table (docs/table.md)"
            % (watermark.column, watermark.expression, create_table.name, column.name,
               column.name)) from None
    return column.name, expression


def _rowtime_table(table, watermark):
    """The table with its watermarked column as the rowtime attribute (*ROWTIME*, the
    WATERMARK line of print_schema): a RowtimeTable, whose watermarks window aggregates
    and OVER windows generate from the expression over the rows' rowtimes
    (window_aggregates.table_watermarks), as for from_data_stream's Schema watermark on a
    computed column, but emitted periodically as Flink's kafka source does
    (`source_watermarks`); a row whose rowtime is null fails the job."""
    from dataclasses import replace
    from pyflink_on_spark.specs.tables import RowtimeTable
    name, expression = watermark
    columns = tuple(replace(c, rowtime=True, watermark=expression)
                    if c.name == name else c for c in table._resolved_columns())
    return type(table)(RowtimeTable(table._description, name, columns, source_watermarks=True),
                       table._t_env, columns)


def _partition_watermarks(decoder, index: int, expression: str):
    """The source's watermark strategy of a table's `WATERMARK FOR ts AS ts - INTERVAL ...`:
    Flink pushes it into the kafka source, which generates it per partition over the
    rowtimes of the partition's rows and emits the minimum over its partitions (seen on
    PyFlink 1.20.5, compat_tests/cases/kafka/table_partition_watermarks.py): the shim's
    per-split watermarks (runtime/watermarks.py SplitWatermarks) over the rows' rowtimes,
    `rowtime - delay` (no extra millisecond, as the DataStream generator's: its delay one
    less). The table's window operators get them through the table hand-off
    (runtime/fed_watermarks.py, window_aggregates.table_watermarks)."""
    from pyflink_on_spark.common.watermark_strategy import WatermarkStrategy, _StrategySpec
    from pyflink_on_spark.table.window_aggregates import sql_watermark_delay
    return WatermarkStrategy(_StrategySpec("bounded_out_of_orderness",
                                           sql_watermark_delay(expression) - 1)) \
        .with_timestamp_assigner(_Rowtime(decoder, index))


class _Rowtime:
    """A kafka value's rowtime (epoch ms of the decoded TIMESTAMP), for the source's
    per-partition watermarks. The value is decoded here and again by the table's decoding
    flat_map (_Decoded), where what fails to decode fails the job as it did: here it is no
    timestamp, as a skipped value (ignore-parse-errors) or a null rowtime is."""

    def __init__(self, decode, index: int) -> None:
        self.decode = decode
        self.index = index

    def extract_timestamp(self, value, record_timestamp):
        from datetime import datetime, timedelta
        try:
            row = self.decode(value)
        except Exception:
            return None
        rowtime = None if row is None else row[self.index]
        if rowtime is None:
            return None
        return (rowtime - datetime(1970, 1, 1)) // timedelta(milliseconds=1)


class _Decoded:
    """flat_map: a value's row, none when the format skips it (ignore-parse-errors)."""

    def __init__(self, decode) -> None:
        self.decode = decode

    def __call__(self, value: str):
        row = self.decode(value)
        if row is not None:
            yield row


def _is_text(sql_type: str) -> bool:
    return sql_type == "STRING" or sql_type.startswith(("VARCHAR(", "CHAR("))


def _required(options: Dict[str, str], key: str) -> str:
    if key not in options:
        raise ValueError("a kafka table needs the option '%s'" % key)
    return options[key]


def _initializer(options, key: str, mode: str, modes: Dict[str, str], timestamp_key: str,
                 initializers):
    mode = options.get(key, mode)
    if mode == "timestamp":
        return initializers.timestamp(int(_required(options, timestamp_key)))
    kind = modes.get(mode)
    if kind is None:
        raise NotImplementedError("'%s' = '%s' of a kafka table: not supported by "
                                  "pyflink_on_spark yet" % (key, mode))
    return getattr(initializers, {"committed": "committed_offsets"}.get(kind, kind))()
