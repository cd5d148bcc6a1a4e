"""Tables of the `filesystem`, `print` and `blackhole` connectors declared by DDL: their WITH
options checked and mapped to what runs here (specs/table_connectors.py ConnectorTable). An
option without a faithful meaning here raises NotImplementedError naming it and the
connector (docs/table.md, "Connector tables")."""
from __future__ import annotations

from dataclasses import replace
from typing import Dict, Tuple

from pyflink_on_spark.specs.table_connectors import ConnectorTable
from pyflink_on_spark.specs.tables import TableColumn

CONNECTORS = ("filesystem", "print", "blackhole")
FILE_FORMATS = ("csv", "json", "parquet")

# Flink's csv options read as Flink reads them (codecs/formats/table_csv.py takes them without
# 'csv.'); those the writer follows -> its option (codecs/table_rows_text.py csv_line); the
# others the writer does not follow (an INSERT INTO the table refuses them by name)
_CSV_READ = ("csv.field-delimiter", "csv.quote-character", "csv.null-literal",
             "csv.allow-comments", "csv.ignore-parse-errors", "csv.disable-quote-character",
             "csv.escape-character", "csv.array-element-delimiter")
_CSV_ONE_CHARACTER = ("csv.field-delimiter", "csv.quote-character", "csv.escape-character")
_CSV_BOOLEAN = ("csv.allow-comments", "csv.ignore-parse-errors", "csv.disable-quote-character")
_CSV_WRITE = {"csv.field-delimiter": "sep", "csv.quote-character": "quote",
              "csv.null-literal": "nullValue"}
_CSV_NOT_WRITTEN = ("csv.disable-quote-character", "csv.escape-character")
CSV_UNWRITTEN = "unwritten"
# json options accepted at their default value only (what Spark's reader and the shim's
# writer do)
_JSON_DEFAULTS = {"json.timestamp-format.standard": "SQL", "json.fail-on-missing-field": "false",
                  "json.ignore-parse-errors": "false"}


class FlinkRejects(ValueError):
    """Options Flink itself rejects when the table is used (seen on PyFlink 1.20.5: an
    unknown option of print / blackhole, a filesystem table without path or format)."""


def _reject(option: str, connector: str) -> None:
    raise FlinkRejects("%r is not an option of the %s connector" % (option, connector))


def _refuse(option: str, connector: str, why: str = "") -> None:
    raise NotImplementedError(
        "option %r of the %s connector is not supported by pyflink_on_spark%s "
        "(docs/table.md, \"Connector tables\")" % (option, connector, why))


def _positive_int(option: str, value: str, connector: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        _refuse(option, connector, ": %r is not a positive number" % value)
    return number


def connector_description(name: str, options: Dict[str, str],
                          columns: Tuple[TableColumn, ...]) -> ConnectorTable:
    """The ConnectorTable of a CREATE TABLE's name, WITH options and physical columns."""
    connector = options.get("connector")
    rest = {k: v for k, v in options.items() if k != "connector"}
    parallelism = None
    if "sink.parallelism" in rest and connector != "blackhole":
        parallelism = _positive_int("sink.parallelism", rest.pop("sink.parallelism"),
                                    connector)
    if connector == "blackhole":
        for option in rest:
            _reject(option, connector)
        return ConnectorTable(connector, name, columns)
    if connector == "print":
        identifier = rest.pop("print-identifier", None)
        standard_error = rest.pop("standard-error", "false").strip().lower() == "true"
        for option in rest:
            _reject(option, connector)
        return ConnectorTable(connector, name, columns, identifier=identifier,
                              standard_error=standard_error, parallelism=parallelism)
    if connector == "filesystem":
        return _filesystem(name, rest, columns, parallelism)
    raise NotImplementedError(  # (connector_tables refuses other connectors at CREATE)
        "a table of the %r connector is not supported by pyflink_on_spark's Table API yet "
        "(connectors that run: datagen, %s; docs/table.md)" % (connector, ", ".join(CONNECTORS)))


def _filesystem(name: str, options: Dict[str, str], columns, parallelism) -> ConnectorTable:
    connector = "filesystem"
    path = options.pop("path", None)
    file_format = options.pop("format", None)
    if path is None or file_format is None:
        raise FlinkRejects("a filesystem table needs the %r option"
                           % ("path" if path is None else "format"))
    if file_format not in FILE_FORMATS:
        _refuse("format", connector, ": format %r (formats that run: %s)"
                % (file_format, ", ".join(FILE_FORMATS)))
    if path.startswith("file://"):
        path = path[len("file://"):]
    elif "://" in path:
        _refuse("path", connector, ": %r (local paths only so far)" % path)
    read, write = [], []
    for option, value in sorted(options.items()):
        if file_format == "csv" and option in _CSV_READ:
            if option in _CSV_ONE_CHARACTER and len(value) != 1:
                _refuse(option, connector, ": %r is not one character" % value)
            if option in _CSV_BOOLEAN and value.strip().lower() not in ("true", "false"):
                _refuse(option, connector, ": %r is not true or false" % value)
            read.append((option[len("csv."):], value))
            if option in _CSV_WRITE:
                write.append((_CSV_WRITE[option], value))
            elif option in _CSV_NOT_WRITTEN and value.strip().lower() != "false":
                write.append((CSV_UNWRITTEN, option))
        elif file_format == "json" and option in _JSON_DEFAULTS:
            if value.strip().upper() != _JSON_DEFAULTS[option].upper():
                _refuse(option, connector, " with value %r (only %r)"
                        % (value, _JSON_DEFAULTS[option]))
        else:
            _refuse(option, connector)
    return ConnectorTable(connector, name, columns, path=path, file_format=file_format,
                          read_options=tuple(read), write_options=tuple(write),
                          parallelism=parallelism)


def connector_table(create_table, t_env):
    """The Table of a CREATE TABLE of the filesystem / print / blackhole connector."""
    from pyflink_on_spark.table.connector_tables import flink_column
    from pyflink_on_spark.table.table import Table
    computed = [c.name for c in create_table.columns if not c.is_physical]
    if computed:
        raise NotImplementedError(
            "computed or metadata columns (%s) of a %s table are not supported by "
            "pyflink_on_spark yet" % (", ".join(computed), create_table.options.get("connector")))
    if create_table.partition_keys:
        raise NotImplementedError(
            "a partitioned %s table (PARTITIONED BY %s) is not supported by pyflink_on_spark "
            "yet" % (create_table.options.get("connector"), ", ".join(create_table.partition_keys)))
    physical = tuple(flink_column(c.name, c.data_type) for c in create_table.physical_columns)
    options = tuple(sorted(create_table.options.items()))
    try:
        description = connector_description(create_table.name, dict(options), physical)
    except (NotImplementedError, FlinkRejects) as e:
        # PyFlink creates the table and refuses it when it is read or written
        description = ConnectorTable(create_table.options.get("connector"), create_table.name,
                                     physical, refusal=str(e),
                                     refused_by_flink=isinstance(e, FlinkRejects))
    return Table(replace(description, options=options), t_env, physical)

