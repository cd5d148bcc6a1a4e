"""Tables of the connectors besides datagen (table/table_connectors.py builds them, the Spark
layer reads and writes them: spark/table_connectors.py): `filesystem` (a source and a sink),
`print` and `blackhole` (sinks)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

from pyflink_on_spark.specs.tables import TableColumn


@dataclass(frozen=True)
class ConnectorTable:
    """A table of `connector` declared by DDL: its physical columns and what its WITH options
    mean here. `path` / `file_format` / `read_options` / `write_options` for filesystem
    (read_options: csv: Flink's csv.* options without 'csv.'; json: Spark reader
    options with Flink's meaning); `identifier` and
    `standard_error` for print; `parallelism` the sink's (sink.parallelism), None for the
    environment's."""
    connector: str
    name: str
    columns: Tuple[TableColumn, ...]
    path: Optional[str] = None
    file_format: Optional[str] = None
    read_options: Tuple[Tuple[str, str], ...] = ()
    write_options: Tuple[Tuple[str, str], ...] = ()
    identifier: Optional[str] = None
    standard_error: bool = False
    parallelism: Optional[int] = None
    # why the table cannot be read or written (PyFlink accepts any options at CREATE TABLE
    # and refuses them when the table is used: so does the shim); `refused_by_flink`: the
    # options are ones Flink rejects (a ValueError in Flink's words), else ones the shim
    # does not run (NotImplementedError)
    refusal: Optional[str] = None
    refused_by_flink: bool = False
    options: Tuple[Tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TableInsert:
    """INSERT INTO `target` the rows of `source` (a table description), written with the
    target's columns (the source's cast to them, by position); `parallelism` the sink's."""
    source: object
    target: ConnectorTable
    parallelism: int


def refusal_error(description: ConnectorTable, sink: bool) -> Exception:
    """The error of using a refused table: Flink's first lines (seen on PyFlink 1.20.5:
    `Unable to create a sink for writing table '...'.` and the table's options), then the
    reason in the shim's words."""
    head = ("Unable to create a sink for writing table" if sink else
            "Unable to create a source for reading table")
    text = "%s 'default_catalog.default_database.%s'.\n\nTable options are:\n\n%s\n\n%s" % (
        head, description.name, "\n".join("'%s'='%s'" % o for o in description.options),
        description.refusal)
    return ValueError(text) if description.refused_by_flink else NotImplementedError(text)
