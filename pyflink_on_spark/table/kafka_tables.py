"""`CREATE TABLE ... WITH ('connector' = 'kafka', ...)` as a source: the table of a KafkaSource
stream (the shim's DataStream Kafka connector) whose JSON values are decoded into the table's
columns, as Flink's kafka connector and json format read them (seen on PyFlink 1.20.5,
compat_tests/cases/kafka/table_source.py: a missing field is NULL, an unknown one ignored).
Bounded (`scan.bounded.mode`) it is a table of a bounded stream; unbounded, the table of an
unbounded stream, which a job reads through to_data_stream and friends
(spark/table_feeds.py). Options other than those below raise NotImplementedError naming
them; an INSERT into such a table is refused (table_sinks.py)."""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, Sequence, Tuple

_STARTUP = {"earliest-offset": "earliest", "latest-offset": "latest",
            "group-offsets": "committed"}
_BOUNDED = {"latest-offset": "latest", "group-offsets": "committed"}
_OPTIONS = {"connector", "topic", "properties.bootstrap.servers", "format", "value.format",
            "scan.startup.mode", "scan.bounded.mode", "scan.startup.timestamp-millis",
            "scan.bounded.timestamp-millis"}
# Flink types whose JSON values the decoder converts, and how (Flink's
# JsonToRowDataConverters: numbers and booleans from their node, or from its text)
_CONVERTERS: Dict[str, Callable[[Any], Any]] = {
    "TINYINT": int, "SMALLINT": int, "INT": int, "BIGINT": int,
    "FLOAT": float, "DOUBLE": float,
    "BOOLEAN": lambda v: v if isinstance(v, bool) else str(v).strip().lower() == "true",
    "STRING": lambda v: v if isinstance(v, str) else json.dumps(v, separators=(",", ":")),
}


def kafka_table(create_table, t_env):
    """The Table of a kafka CREATE TABLE (table/sql CreateTable)."""
    from dataclasses import replace
    from pyflink_on_spark.common import Types, WatermarkStrategy
    from pyflink_on_spark.common.serialization import SimpleStringSchema
    from pyflink_on_spark.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                              KafkaSource)
    from pyflink_on_spark.table.connector_tables import flink_column
    options = dict(create_table.options)
    unknown = sorted(k for k in options if k not in _OPTIONS and
                     not k.startswith("properties."))
    if unknown:
        raise NotImplementedError("the kafka table option(s) %s: not supported by "
                                  "pyflink_on_spark yet (docs/table.md)" % ", ".join(unknown))
    fmt = options.get("value.format", options.get("format"))
    if fmt is None:
        raise ValueError("a kafka table needs its value format: 'format' = 'json' (or "
                         "'value.format'), the one pyflink_on_spark reads so far")
    if fmt != "json":
        raise NotImplementedError("a kafka table of format %r: pyflink_on_spark reads json "
                                  "kafka tables only so far (docs/table.md)" % (fmt,))
    if not all(c.is_physical and c.metadata is None for c in create_table.columns):
        raise NotImplementedError("computed or metadata columns of a kafka table: not "
                                  "supported by pyflink_on_spark yet")
    columns = tuple(flink_column(c.name, c.data_type) for c in create_table.physical_columns)
    for column in columns:
        if column.sql_type not in _CONVERTERS and not column.sql_type.startswith("VARCHAR("):
            raise NotImplementedError("a kafka json column of type %s (%s): not supported by "
                                      "pyflink_on_spark yet" % (column.sql_type, column.name))
    builder = KafkaSource.builder() \
        .set_bootstrap_servers(_required(options, "properties.bootstrap.servers")) \
        .set_topics(_required(options, "topic")) \
        .set_value_only_deserializer(SimpleStringSchema())
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
    names = [c.name for c in columns]
    converters = [_CONVERTERS.get(c.sql_type, _CONVERTERS["STRING"]) for c in columns]
    env = t_env._env
    values = env.from_source(builder.build(), WatermarkStrategy.no_watermarks(),
                             "KafkaSource-default_catalog.default_database.%s"
                             % create_table.name)
    types = {"TINYINT": Types.BYTE, "SMALLINT": Types.SHORT, "INT": Types.INT,
             "BIGINT": Types.LONG, "FLOAT": Types.FLOAT, "DOUBLE": Types.DOUBLE,
             "BOOLEAN": Types.BOOLEAN}
    rows = values.map(_JsonRows(names, converters), output_type=Types.ROW_NAMED(
        names, [types.get(c.sql_type, Types.STRING)() for c in columns]))
    table = t_env.from_data_stream(rows)
    return type(table)(replace(table._description, columns=columns), t_env, columns)


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


class _JsonRows:
    """A Kafka value (JSON text) -> a Row of the table's columns (Flink's json format at its
    defaults: a missing field NULL, unknown fields ignored, text that is no JSON object fails
    the job)."""

    def __init__(self, names: Sequence[str], converters: Sequence[Callable]) -> None:
        self.names = list(names)
        self.converters = list(converters)

    def __call__(self, value: str):
        from pyflink_on_spark.common.types import Row
        try:
            record = json.loads(value)
        except ValueError:
            raise ValueError("Failed to deserialize JSON '%s'." % value) from None
        if not isinstance(record, dict):
            raise ValueError("Failed to deserialize JSON '%s'." % value)
        fields: Tuple = tuple(None if record.get(n) is None else convert(record[n])
                              for n, convert in zip(self.names, self.converters))
        row = Row(*fields)
        row.set_field_names(self.names)
        return row
