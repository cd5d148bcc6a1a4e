"""from_data_stream(ds, Schema): the table's columns as PyFlink 1.20.5 derives them from the
stream and the Schema's declarations (seen there, docs/table.md "Event time"):

- physical columns: the declared ones (one per field of a tuple / Row stream), or, when the
  Schema declares none, the stream's own (table/columns.py stream_columns);
- a metadata column of key `rowtime` (its name, or `column_by_metadata(name, type,
  'rowtime')`): each record's timestamp as the stream carries it (the timestamp assigner's),
  TIMESTAMP_LTZ(3), after the physical columns;
- computed columns (`column_by_expression`): Flink SQL over the columns before them, run as
  a query over the stream's table;
- `watermark(column, expr)`: the column is the table's rowtime attribute (*ROWTIME*), so
  window TVFs and group windows take it. A bounded job's windows all fire at the end of its
  input (as PyFlink's small bounded jobs showed: no row was late), so the watermark's
  expression changes no row here; it is checked and printed."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import List, Optional, Sequence, Tuple

from pyflink_on_spark.datastream.functions import ProcessFunction
from pyflink_on_spark.specs.tables import TableColumn
from pyflink_on_spark.table.sql.errors import SqlValidationError

__all__ = ['StreamSchema', 'stream_schema', 'resolved_expression']

ROWTIME_KEY = "rowtime"
_TIME_FIELD = re.compile(r"TIMESTAMP(_LTZ)?\([0-3]\)")

# `col`, `col - INTERVAL 'n' UNIT`, SOURCE_WATERMARK(): the watermark forms taken
_WATERMARK = re.compile(
    r"\s*(?:SOURCE_WATERMARK\s*\(\s*\)|`?([A-Za-z_$][\w$]*)`?"
    r"(?:\s*-\s*INTERVAL\s+'\d+(?:\.\d+)?'\s+(?:SECOND|MINUTE|HOUR|DAY|MILLISECOND)S?)?)\s*",
    re.IGNORECASE)


class StreamSchema(object):
    """What from_data_stream builds of a Schema: `stream_columns` the columns of the stream's
    own table (the physical ones, then the record timestamp's metadata column if declared,
    at `timestamp_column`); `computed` (name, expression) pairs selected over it (their
    types are known once that query is typed); `watermark` (column, expression). `finish`
    gives the table's columns their rowtime / watermark / expression marks."""

    def __init__(self, stream_columns: Tuple[TableColumn, ...],
                 timestamp_column: Optional[int], computed: Tuple[Tuple[str, str], ...],
                 watermark: Optional[Tuple[str, str]],
                 projection: Optional[Tuple[str, ...]] = None,
                 casts: Tuple[Tuple[str, str], ...] = ()) -> None:
        self.stream_columns = stream_columns
        self.timestamp_column = timestamp_column
        self.computed = computed
        self.watermark = watermark
        # the table's column names in declaration order when they are a projection of the
        # stream's table (declared physical columns other than all its fields, in order,
        # first), else None
        self.projection = projection
        # (name, type) of declared physical columns of a projection whose type is not the
        # stream field's (TIMESTAMP_LTZ(3) for an Instant's TIMESTAMP_LTZ(9)): cast to it
        self.casts = casts

    def query(self, stream_name: str) -> str:
        """Flink SQL of the table over the stream's table (computed columns, a projection)."""
        expressions = dict(self.computed)
        if self.projection is not None:
            casts = dict(self.casts)
            items = ["%s AS `%s`" % (expressions[n], n) if n in expressions else
                     "CAST(`%s` AS %s) AS `%s`" % (n, casts[n], n) if n in casts else
                     "`%s`" % n for n in self.projection]
        else:
            items = ["`%s`" % c.name for c in self.stream_columns] + [
                "%s AS `%s`" % (expression, name) for name, expression in self.computed]
        return "SELECT %s FROM `%s`" % (", ".join(items), stream_name)

    def finish(self, columns: Sequence[TableColumn]) -> Tuple[TableColumn, ...]:
        """`columns` (the stream's own, or the query's typed ones) with the computed columns'
        expressions and the watermark's rowtime mark."""
        expressions = dict(self.computed)
        done = []
        for column in columns:
            if column.name in expressions and self.projection is None:
                column = replace(column, expression=expressions[column.name])
            if self.watermark is not None and column.name == self.watermark[0]:
                if not _TIME_FIELD.fullmatch(column.sql_type):
                    raise SqlValidationError(
                        "Invalid data type of time field for watermark definition. The field "
                        "must be of type TIMESTAMP(p) or TIMESTAMP_LTZ(p), the supported "
                        "precision 'p' is from 0 to 3, but the time field type is %s"
                        % column.type_text())
                _check_watermark_expression(column.name, self.watermark[1])
                column = replace(column, rowtime=True, watermark=self.watermark[1],
                                 watermark_shown=self.projection is None)
            done.append(column)
        return tuple(done)


def stream_schema(derived: Sequence[TableColumn], atomic: bool, schema) -> StreamSchema:
    """The StreamSchema of a stream whose own columns are `derived` (`atomic`: a value
    alone) under `schema` (table/schema.py Schema)."""
    from pyflink_on_spark.table.columns import data_type_column, sql_type
    from pyflink_on_spark.table.sql.flink_types import parse_type
    # column('f0', 'BIGINT') is column('f0', DataTypes.BIGINT()): Flink parses the text into
    # the same data type (seen on PyFlink 1.20.5: print_schema and the rows alike)
    declarations = [("physical", name, parse_type(detail)) if kind == "sql"
                    else (kind, name, detail) for kind, name, detail in schema._columns]
    physical = [data_type_column(name, detail) for kind, name, detail in declarations
                if kind == "physical"]
    if schema._primary_key is not None:
        raise NotImplementedError(
            "Schema.primary_key(...) is not supported by pyflink_on_spark's Table API yet "
            "(docs/table.md)")
    names = [c.name for c in derived]
    for column in physical:
        # seen on PyFlink 1.20.5: a declared physical column is the stream's field of its name
        if column.name not in names:
            raise SqlValidationError(
                "Unable to find a field named '%s' in the physical data type derived from the "
                "given type information for schema declaration. Make sure that the type "
                "information is not a generic raw type. Currently available fields are: [%s]"
                % (column.name, ", ".join(names)))
    # seen on PyFlink 1.20.5: declared physical columns may be some of the stream's fields,
    # in any order, with computed ones between them; the table's columns are then the
    # declared ones in declaration order (a projection of the stream's table, printed
    # without expressions)
    kinds = [kind for kind, _, _ in declarations]
    first_other = next((i for i, k in enumerate(kinds) if k != "physical"), len(kinds))
    projected = bool(physical) and ([c.name for c in physical] != names
                                    or "physical" in kinds[first_other:])
    columns = list(derived if projected else (physical or derived))
    timestamp_column = None
    computed: List[Tuple[str, str]] = []
    for kind, name, detail in declarations:
        if kind == "metadata":
            data_type, key, virtual = detail
            if isinstance(data_type, str):      # column_by_metadata('rowtime', 'TIMESTAMP_LTZ(3)')
                from pyflink_on_spark.table.sql.flink_types import parse_type
                data_type = parse_type(data_type)
            if (key or name) != ROWTIME_KEY:
                # Flink's words (when a query reads the table), then the one key it lists
                raise SqlValidationError(
                    "Invalid metadata key '%s' in column '%s' of a table of a DataStream. "
                    "The supported metadata key for reading is: rowtime" % (key or name, name))
            if timestamp_column is not None:
                raise NotImplementedError(
                    "Schema.column_by_metadata(%r, ...): pyflink_on_spark's Table API takes "
                    "one 'rowtime' metadata column of a stream" % name)
            if sql_type(data_type) != "TIMESTAMP_LTZ(3)":
                raise NotImplementedError(
                    "Schema.column_by_metadata(%r, %s): the stream's 'rowtime' metadata is a "
                    "TIMESTAMP_LTZ(3) on pyflink_on_spark" % (name, sql_type(data_type)))
            if computed:
                raise NotImplementedError(
                    "Schema: the metadata column %r after a computed column is not "
                    "supported by pyflink_on_spark yet (declare it first)" % name)
            timestamp_column = len(columns)
            columns.append(TableColumn(
                name, "TIMESTAMP_LTZ(3)", data_type._nullable,
                metadata=("FROM '%s'" % key if key else "") + (" VIRTUAL" if virtual else "")))
        elif kind == "computed":
            computed.append((name, detail))
    watermark = _watermark(schema, [c.name for c in columns] + [n for n, _ in computed])
    projection = tuple(name for _, name, _ in declarations) if projected else None
    # seen on PyFlink 1.20.5 (cc3213252/pyflink-learn's from_data_stream.py): a projection's
    # declared TIMESTAMP_LTZ(3) of an Instant field (TIMESTAMP_LTZ(9)) is the table's type
    by_name = {c.name: c for c in derived}
    casts = tuple((c.name, c.sql_type) for c in physical
                  if projected and c.sql_type != by_name[c.name].sql_type)
    return StreamSchema(tuple(columns), timestamp_column, tuple(computed), watermark,
                        projection, casts)


def _watermark(schema, names: List[str]) -> Optional[Tuple[str, str]]:
    watermarks = schema._watermarks
    if not watermarks:
        return None
    if len(watermarks) > 1:
        raise NotImplementedError("Schema: more than one watermark is not supported by "
                                  "pyflink_on_spark")
    column, expression = watermarks[0]
    if column not in names:
        raise SqlValidationError(
            "Invalid column name '%s' for rowtime attribute in watermark declaration. "
            "Available columns are: [%s]" % (column, ", ".join(names)))
    return column, expression


def _check_watermark_expression(column: str, expression: str) -> None:
    m = _WATERMARK.fullmatch(expression)
    if m is None or (m.group(1) is not None and m.group(1) != column):
        raise NotImplementedError(
            "Schema.watermark(%r, %r): pyflink_on_spark takes SOURCE_WATERMARK(), `%s` or "
            "`%s - INTERVAL 'n' SECOND`" % (column, expression, column, column))


def resolved_expression(expression: str, names: Sequence[str]) -> str:
    """An expression as Flink prints it resolved (get_schema): identifiers in backquotes
    (seen on PyFlink 1.20.5: TO_TIMESTAMP_LTZ(`t`, 3), `ts` - INTERVAL '1' SECOND,
    `SOURCE_WATERMARK`())."""
    from pyflink_on_spark.table.sql.tokens import tokenize
    out, last = [], 0
    for token in tokenize(expression):
        if token.kind == "word" and (token.text in names
                                     or token.text.upper() == "SOURCE_WATERMARK"):
            out.append(expression[last:token.start])
            out.append("`%s`" % token.text)
            last = token.end
    out.append(expression[last:])
    return "".join(out)


def record_timestamps(data_stream):
    """The stream of (record, timestamp) pairs a `rowtime` metadata column is read from."""
    from pyflink_on_spark.common.typeinfo import Types
    return data_stream.process(RecordTimestamp(), Types.TUPLE(
        [data_stream._transformation.output_type, Types.LONG()]))


# what ctx.timestamp() reports for a record without a timestamp (Long.MIN_VALUE, as PyFlink)
MISSING_TIMESTAMP = -(1 << 63)


class RecordTimestamp(ProcessFunction):
    """Each record with its timestamp. Seen on PyFlink 1.20.5: a record without one fails
    the job reading the table with this text."""

    def process_element(self, value, ctx):
        timestamp = ctx.timestamp()
        if timestamp is None or timestamp == MISSING_TIMESTAMP:
            raise RuntimeError(
                "Could not find timestamp in DataStream API record. Make sure that "
                "timestamps have been assigned before and the event-time characteristic is "
                "enabled.")
        yield value, timestamp
