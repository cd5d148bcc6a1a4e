"""What a Table is (declarative: the Table API builds these, the Spark layer runs them as Spark
SQL, spark/table_frames.py). A table is a frozen description of its inputs and its query; it
computes nothing until a result is asked for (execute(), to_pandas(), a job reading it)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Tuple


def mentions(query: str, name: str) -> bool:
    """Whether `name` (a table or view name) stands in the query's text as a whole word: a
    query's inputs are found so, as the views it may read."""
    import re
    return re.search(r"(?<![\w$])%s(?![\w$])" % re.escape(name), query) is not None


@dataclass(frozen=True)
class TableColumn:
    """A column as Flink's planner types it: `sql_type` is Flink's SQL type text without
    nullability ("INT", "STRING", "DECIMAL(10, 2)", "TIMESTAMP(3)")."""
    name: str
    sql_type: str
    nullable: bool = True
    expression: Optional[str] = None     # a computed column's (a connector table's)
    # event time (from_data_stream with a Schema): `rowtime`, the column a watermark is
    # declared for (a time attribute: print_schema's *ROWTIME*), `watermark` that
    # declaration's expression as written; `metadata` what print_schema prints after METADATA
    # ("" for the column named rowtime, "FROM 'rowtime' [VIRTUAL]")
    rowtime: bool = False
    watermark: Optional[str] = None
    metadata: Optional[str] = None
    # False when print_schema does not show the watermark (seen on PyFlink 1.20.5: a
    # from_data_stream table whose Schema projects the stream's fields)
    watermark_shown: bool = True
    # an aggregate of a rowtime (MAX(ts)): shown *ROWTIME* as Flink types it, but no time
    # attribute (`rowtime` False: records are not stamped with it; seen on PyFlink 1.20.5)
    materialized: bool = False

    def text(self) -> str:
        """Flink's `name` TYPE [NOT NULL] [*ROWTIME*] [METADATA ...] [AS expression]
        (print_schema's line)."""
        return "`%s` %s%s" % (self.name, self.type_text(),
                              " AS %s" % self.expression if self.expression else "")

    def type_text(self) -> str:
        """TYPE [NOT NULL] [*ROWTIME*] [METADATA ...], as Flink prints a column's kind."""
        return "%s%s%s%s" % (
            self.sql_type, "" if self.nullable else " NOT NULL",
            " *ROWTIME*" if self.rowtime or self.materialized else "",
            "" if self.metadata is None else " METADATA" + (" " + self.metadata
                                                            if self.metadata else ""))


# how a stream's record holds its columns
RECORD_ATOMIC = "atomic"    # the record is the only column (f0)
RECORD_FIELDS = "fields"    # a tuple or Row: its fields in column order


@dataclass(frozen=True)
class StreamTable:
    """from_data_stream: the records of a DataStream graph. `sinks` are the graph's nodes
    ending in the collect sink `collect_sink_id` (graph.transformations), `settings` the
    environment's JobSettings when the table was made."""
    sinks: Tuple[Any, ...]
    collect_sink_id: int
    settings: Any
    columns: Tuple[TableColumn, ...]
    record_shape: str = RECORD_FIELDS
    # the column holding each record's timestamp (a `rowtime` metadata column), else None
    timestamp_column: Optional[int] = None
    # records are Rows with their RowKinds (a changelog: the frame's last column is KIND)
    changelog: bool = False


@dataclass(frozen=True)
class RowsTable:
    """from_pandas / from_elements: rows the program holds on the driver, in order."""
    columns: Tuple[TableColumn, ...]
    rows: Tuple[tuple, ...]


@dataclass(frozen=True)
class QueryTable:
    """A Spark SQL query over named inputs (temporary views, or the table a select / where
    was called on): `inputs` are (name, description) pairs the query reads by name;
    `columns` its result's as Flink types them (None: as Spark's analyzer types them);
    `streaming`: made in STREAMING mode, where a grouping query's result is Flink's
    changelog of updates (spark/table_changelog.py); `flink_query` the Flink SQL it was
    translated from (a grouping query over an unbounded table is split from it:
    table/group_aggregates.py); `functions` the Python user-defined functions it calls
    (specs/table_functions.py UserFunctionSpec), registered in the session before it runs."""
    query: str
    inputs: Tuple[Tuple[str, Any], ...]
    columns: Optional[Tuple[TableColumn, ...]] = None
    streaming: bool = False
    flink_query: Optional[str] = None
    functions: Tuple[Any, ...] = ()
    # a grouping query's changelog as the keyed aggregate computes it at the job's
    # parallelism (a StreamTable with changelog=True: table/table_environment.py
    # _group_changelog), the rows of execute(), to_pandas() and INSERT; None: computed by
    # spark/table_changelog.py in one task
    keyed_changelog: Any = field(default=None, compare=False)


@dataclass(frozen=True)
class RenamedTable:
    """alias(): the input's columns under new names (types kept)."""
    input: Any
    columns: Tuple[TableColumn, ...]


@dataclass(frozen=True)
class GeneratedTable:
    """A connector table whose source subtasks generate its rows (datagen): `rows(subtask,
    parallelism)` yields tuples of the columns (a picklable function: it runs in the tasks);
    `bounded`: every subtask's rows end (a sequence field, or number-of-rows)."""
    rows: Any
    parallelism: int
    columns: Tuple[TableColumn, ...]
    bounded: bool
    connector: str = "datagen"


@dataclass(frozen=True)
class RowtimeTable:
    """A table whose `rowtime` column is an event-time attribute computed from its rows (a
    watermark on a computed column): a row where it is null fails the job, as on PyFlink
    1.20.5 (its watermark assigner refuses null rowtimes). `source_watermarks`: a kafka
    table's WATERMARK, which Flink generates in its source and emits periodically, not as
    soon as it grew (table/window_aggregates.py table_watermarks)."""
    input: Any
    rowtime: str
    columns: Tuple[TableColumn, ...]
    source_watermarks: bool = False


def watermark_leaves(description, names=None, names_read=None) -> list:
    """The tables under `description` whose rowtime carries watermarks: each RowtimeTable,
    and each StreamTable with a timestamp column (a from_data_stream rowtime). `names`: of a
    QueryTable's inputs, the ones to walk (None: all); `names_read(view)`: the names a view
    under it reads, its inputs' names to walk in turn (None: all)."""
    if isinstance(description, QueryTable):
        found = []
        for name, view in description.inputs:
            if names is None or name in names:
                found.extend(watermark_leaves(
                    view, names_read(view) if names_read is not None else None, names_read))
        return found
    if isinstance(description, RenamedTable):
        return watermark_leaves(description.input, names, names_read)
    if isinstance(description, RowtimeTable):
        return [description]
    if isinstance(description, StreamTable) and description.timestamp_column is not None:
        return [description]
    return []
