"""Tables on Spark: a table description (specs/tables.py) as a DataFrame of typed columns.

A table of a DataStream runs the stream's graph as the stages of a bounded job
(spark/executor.py build_frames, without the driver channel): the collect sink's rows stay in
the last stage's output, and one mapInArrow decodes their record chunks into typed Arrow
batches. Queries are Spark SQL over the inputs registered as temporary views. Nothing here
brings records to the driver: a result is read by whoever asked for it (execute().collect(),
to_pandas()), and a table turned back into a stream is a frame source of the stream's job
(table_source_frame)."""
from __future__ import annotations

import pickle
import re
import threading
import weakref
from typing import Any, Dict, Iterator, List, Sequence, Tuple

import pyarrow as pa

from pyflink_on_spark.codecs.nested_values import arrow_type as nested_arrow_type
from pyflink_on_spark.codecs.nested_values import arrow_values, is_nested, stream_values
from pyflink_on_spark.runtime.boundary import KIND_SPLIT, loads_records
from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA, rows_to_batch
from pyflink_on_spark.specs.tables import (RECORD_ATOMIC, GeneratedTable, QueryTable,
                                           RenamedTable, RowsTable, RowtimeTable, StreamTable,
                                           TableColumn)

# seen on PyFlink 1.20.5: a null value of a computed rowtime column fails the job reading it
NULL_ROWTIME = "RowTime field should not be null, please convert it to a non-null long value."

_DECIMAL = re.compile(r"DECIMAL\((\d+), (\d+)\)$")
_PRECISE = re.compile(r"(TIMESTAMP|TIMESTAMP_LTZ)\((\d)\)$")
_ARROW = {"BOOLEAN": pa.bool_(), "TINYINT": pa.int8(), "SMALLINT": pa.int16(),
          "INT": pa.int32(), "BIGINT": pa.int64(), "FLOAT": pa.float32(),
          "DOUBLE": pa.float64(), "STRING": pa.string(), "BYTES": pa.binary(),
          "DATE": pa.date32()}


def arrow_type(sql_type: str) -> pa.DataType:
    """The Arrow type of a Flink SQL type (specs.tables.TableColumn.sql_type)."""
    simple = _ARROW.get(sql_type)
    if simple is not None:
        return simple
    if is_nested(sql_type):
        return nested_arrow_type(sql_type)
    if sql_type.startswith(("VARCHAR(", "CHAR(")):
        return pa.string()
    if sql_type.startswith(("VARBINARY(", "BINARY(")):
        return pa.binary()
    decimal = _DECIMAL.match(sql_type)
    if decimal:
        return pa.decimal128(int(decimal.group(1)), int(decimal.group(2)))
    precise = _PRECISE.match(sql_type)
    if precise:
        return pa.timestamp("us", tz="UTC" if precise.group(1) == "TIMESTAMP_LTZ" else None)
    raise NotImplementedError("a column of type %s is not supported on Spark yet" % sql_type)


def arrow_schema(columns) -> pa.Schema:
    return pa.schema([pa.field(c.name, arrow_type(c.sql_type), c.nullable) for c in columns])


def spark_schema(columns):
    from pyspark.sql.pandas.types import from_arrow_schema
    return from_arrow_schema(arrow_schema(columns))


def flink_column(field) -> TableColumn:
    """A Spark result column as Flink's type (the inverse of arrow_type)."""
    return TableColumn(field.name, _flink_type(field.name, field.dataType), field.nullable)


def _flink_type(name: str, kind) -> str:
    from pyspark.sql import types as T
    simple = {T.BooleanType: "BOOLEAN", T.ByteType: "TINYINT", T.ShortType: "SMALLINT",
              T.IntegerType: "INT", T.LongType: "BIGINT", T.FloatType: "FLOAT",
              T.DoubleType: "DOUBLE", T.StringType: "STRING", T.BinaryType: "BYTES",
              T.DateType: "DATE", T.TimestampNTZType: "TIMESTAMP(6)",
              T.TimestampType: "TIMESTAMP_LTZ(6)"}.get(type(kind))
    if simple is None and isinstance(kind, T.DecimalType):
        simple = "DECIMAL(%d, %d)" % (kind.precision, kind.scale)
    if simple is None and isinstance(kind, T.ArrayType):
        simple = "ARRAY<%s%s>" % (_flink_type(name, kind.elementType),
                                  "" if kind.containsNull else " NOT NULL")
    if simple is None and isinstance(kind, T.MapType):
        simple = "MAP<%s NOT NULL, %s%s>" % (
            _flink_type(name, kind.keyType), _flink_type(name, kind.valueType),
            "" if kind.valueContainsNull else " NOT NULL")
    if simple is None and isinstance(kind, T.StructType):
        simple = "ROW<%s>" % ", ".join(
            "`%s` %s%s" % (f.name.replace("`", "``"), _flink_type(name, f.dataType),
                           "" if f.nullable else " NOT NULL") for f in kind.fields)
    if simple is None:
        raise NotImplementedError("a query result column %s of Spark type %s has no Flink "
                                  "type here yet" % (name, kind.simpleString()))
    return simple


# -- descriptions -> DataFrames -----------------------------------------------------------------

def table_frame(description, session, streams=None):
    """The DataFrame of a table description. `streams`: a StreamTable's frame made by the
    caller (an unbounded job's micro-batch: spark/streaming/table_feeds.py), else its
    stream runs as a bounded job."""
    if isinstance(description, StreamTable):
        if streams is not None:
            return streams(description)
        return _stream_frame(description, session)
    if isinstance(description, RowsTable):
        return _rows_frame(description, session)
    if isinstance(description, QueryTable):
        return _query_frame(description, session, streams)
    if isinstance(description, RenamedTable):
        # an alias of an updating table: its changelog renamed, the RowKind column kept
        from pyflink_on_spark.spark.table_changelog import KIND
        frame = table_frame(description.input, session, streams)
        names = [c.name for c in description.columns]
        return frame.toDF(*names + [c for c in frame.columns[len(names):] if c == KIND])
    if isinstance(description, GeneratedTable):
        return _generated_frame(description, session)
    if isinstance(description, RowtimeTable):
        # a filter (a projection would be pruned when the query does not select the column)
        from pyspark.sql import functions as F
        rowtime = F.col("`%s`" % description.rowtime)
        return table_frame(description.input, session, streams).where(
            F.when(rowtime.isNull(), F.raise_error(F.lit(NULL_ROWTIME))).otherwise(F.lit(True)))
    from pyflink_on_spark.specs.table_connectors import ConnectorTable
    if isinstance(description, ConnectorTable):      # filesystem, print, blackhole
        from pyflink_on_spark.spark.table_connectors import connector_frame
        return connector_frame(description, session)
    raise TypeError("unknown table description %r" % (description,))


# A from_elements / from_pandas table's DataFrame, made once per session and table: each
# query over the table (every micro-batch of a stream joined with it, too) reads the same
# rows, and making the frame again is an Arrow conversion and Py4J calls (~0.08 s of a
# warm two-row query's 0.46 s). Keyed by the description's identity, held while the
# table's description lives (a Table, a view): hashing the rows would cost as much as
# converting them, and a row may hold unhashable values.
_ROWS_FRAMES: Dict[int, Tuple[Any, Any, Any]] = {}
# The frame last registered under each temporary view name, per session: a view already
# holding the frame is not registered again (another Py4J call and analysis, ~0.04 s).
# Every registration of the tables' views goes through register_view, so this is what
# the session's catalog holds.
_VIEWS: "weakref.WeakKeyDictionary[Any, Dict[str, Any]]" = weakref.WeakKeyDictionary()
_VIEWS_LOCK = threading.Lock()


def _rows_frame(description: RowsTable, session):
    cached = _ROWS_FRAMES.get(id(description))
    if cached is not None and cached[0]() is description and cached[1] is session:
        return cached[2]
    table = pa.Table.from_pylist(
        [dict(zip([c.name for c in description.columns], row))
         for row in description.rows], schema=arrow_schema(description.columns))
    frame = session.createDataFrame(table, spark_schema(description.columns))
    key = id(description)
    _ROWS_FRAMES[key] = (weakref.ref(description, lambda _: _ROWS_FRAMES.pop(key, None)),
                         session, frame)
    return frame


def register_view(session, name: str, frame) -> None:
    """Registers `frame` as the temporary view `name` (as Flink names it: quoted here), unless
    it already is."""
    with _VIEWS_LOCK:
        views = _VIEWS.setdefault(session, {})
        if views.get(name) is frame:
            return
        frame.createOrReplaceTempView(_view_name(name))
        views[name] = frame


def _query_frame(description: QueryTable, session, streams=None):
    from pyflink_on_spark.spark.table_changelog import KIND, SEQ, changelog_frame, is_changelog
    changelog = is_changelog(description)
    if changelog and description.keyed_changelog is not None:
        # the keyed aggregate at the job's parallelism, as to_changelog_stream runs it
        return table_frame(description.keyed_changelog, session, streams)
    _register_functions(description, session)
    # only the views the query reads: another view of the environment may be a table of an
    # unbounded stream (a kafka table an INSERT writes), which has no bounded frame
    from pyflink_on_spark.spark.table_feeds import read_inputs
    for name, view in read_inputs(description):
        frame = table_frame(view, session, streams)
        if KIND in frame.columns:
            raise NotImplementedError(
                "a query over %r, whose rows update (STREAMING mode): pyflink_on_spark runs "
                "queries over insert-only tables only (docs/table.md)" % name)
        if changelog:
            from pyspark.sql import functions as F
            frame = frame.withColumn(SEQ, F.monotonically_increasing_id())
        register_view(session, name, frame)
    if changelog:
        return changelog_frame(session, description.query,
                               spark_schema(description.columns or
                                            table_columns(description, session)))
    return session.sql(description.query)


def _register_functions(description: QueryTable, session) -> None:
    if description.functions:
        from pyflink_on_spark.spark.table_udfs import register_functions
        register_functions(session, description.functions)


def _view_name(name: str) -> str:
    """A view's name as Spark reads it: quoted, so Flink names such as UnnamedTable$0
    (Table.__str__) register as they are written in the translated query."""
    return "`%s`" % name.replace("`", "``")


def table_columns(description, session) -> Tuple[TableColumn, ...]:
    """The columns of a query's result, as Spark's analyzer types it (no job runs: the
    inputs are empty frames of their columns)."""
    if isinstance(description, QueryTable) and description.columns is not None:
        return tuple(description.columns)
    if isinstance(description, QueryTable):
        for name, view in description.inputs:
            register_view(session, name, session.createDataFrame(
                [], spark_schema(input_columns(view, session))))
        _register_functions(description, session)
        return tuple(flink_column(f) for f in session.sql(description.query).schema.fields)
    return tuple(description.columns)


def input_columns(description, session) -> Tuple[TableColumn, ...]:
    if isinstance(description, QueryTable):
        return table_columns(description, session)
    return tuple(description.columns)


def _stream_frame(description: StreamTable, session):
    from dataclasses import replace
    from pyflink_on_spark.spark.entry import compile_job, refuse_python_inputs, run_options
    from pyflink_on_spark.spark.executor import build_frames
    from pyflink_on_spark.spark.frame_sources import with_files_as_splits
    from pyflink_on_spark.spark.object_storage import object_storage_of
    from pyflink_on_spark.spark.python_dependencies import ship_dependencies, worker_python
    from pyflink_on_spark.spark.streaming.sources import is_unbounded
    from pyspark.sql import functions as F
    job = compile_job(list(description.sinks), description.settings)
    refuse_python_inputs(list(description.sinks))
    if is_unbounded(job):
        raise NotImplementedError(
            "the rows of a table of an unbounded stream (execute(), to_pandas(), INSERT, or a "
            "job that also reads a bounded source): pyflink_on_spark runs such a table inside "
            "the unbounded job that reads it with to_data_stream / to_append_stream / "
            "to_changelog_stream (docs/table.md)")
    job = with_files_as_splits(job, session)
    worker_setup, executable = ship_dependencies(session, description.settings.python)
    worker_setup = replace(worker_setup, object_storage=object_storage_of(session),
                           python_executable=executable)
    options = run_options()
    dirs = tuple(options.script_dirs) if options is not None else ()
    with worker_python(session, executable):
        frames = build_frames(job, session, dirs, worker_setup,
                              description.settings.config.job_name)
    stage = job.stage_of(description.collect_sink_id)
    edge = next(s.edge_id for s in stage.sinks if s.node_id == description.collect_sink_id)
    payloads = frames[stage.spec.stage_id].where(F.col("edge") == edge).select("payload")
    return records_frame(payloads, description)


def records_frame(payloads, description: StreamTable):
    """A frame of the stream's record chunks (one `payload` column: the collect sink's rows)
    as the table's typed columns, decoded in the tasks."""
    if description.changelog:      # Rows with their RowKinds: a KIND column too
        from pyflink_on_spark.spark.table_changelog import changelog_records_frame
        return changelog_records_frame(payloads, description.columns)
    return payloads.mapInArrow(
        _record_decoder(arrow_schema(description.columns),
                        description.record_shape == RECORD_ATOMIC,
                        description.timestamp_column,
                        [c.sql_type for c in description.columns]),
        spark_schema(description.columns))


def _record_decoder(schema: pa.Schema, atomic: bool, timestamp_column=None,
                    sql_types: Sequence[str] = ()):
    """Record chunks (the collect sink's rows) -> Arrow batches of the table's columns. With
    `timestamp_column` (a `rowtime` metadata column), each record is a (record, timestamp)
    pair (table/stream_schema.py RecordTimestamp) and the column holds the timestamp."""
    fields = len(schema) - (timestamp_column is not None)
    sql_types = list(sql_types) or [""] * len(schema)

    def decode(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            columns: List[list] = [[] for _ in range(fields)]
            stamps: List[int] = []
            for payload in batch.column(0).to_pylist():
                values = loads_records(payload)[0]
                if timestamp_column is not None:
                    stamps.extend(pair[1] for pair in values)
                    values = [pair[0] for pair in values]
                if atomic:
                    columns[0].extend(values)
                    continue
                for record in values:
                    for i in range(fields):
                        columns[i].append(record[i])
            if not columns[0]:
                continue
            arrays = [pa.array(_arrow_values(c, f.type, sql), type=f.type)
                      for c, f, sql in zip(columns, schema, sql_types)]
            if timestamp_column is not None:     # epoch ms -> the column's microseconds
                arrays.insert(timestamp_column, pa.array(
                    [t * 1000 for t in stamps], pa.int64()).cast(
                        schema.field(timestamp_column).type))
            yield pa.RecordBatch.from_arrays(arrays, schema=schema)
    return decode


def _arrow_values(values: list, arrow: pa.DataType, sql_type: str = "") -> list:
    """A TIMESTAMP_LTZ column's Instants (an INSTANT field of the stream) as microseconds
    since the epoch, Spark's precision (nanoseconds past the microsecond are dropped); an
    ARRAY / MAP / ROW column's values as Arrow takes them (codecs/nested_values.py)."""
    if is_nested(sql_type):
        return arrow_values(values, sql_type)
    if not (pa.types.is_timestamp(arrow) and arrow.tz is not None):
        return values
    from pyflink_on_spark.common.time import Instant
    return [v.seconds * 1_000_000 + v.nanos // 1000 if isinstance(v, Instant) else v
            for v in values]


def _generated_frame(description: GeneratedTable, session):
    """A generated table's rows: source subtask i generates its share in Spark partition i."""
    if not description.bounded:
        raise NotImplementedError(
            "an unbounded %s table (no number-of-rows and no sequence field): "
            "pyflink_on_spark runs tables of bounded sources only so far (docs/table.md)"
            % description.connector)
    parallelism = description.parallelism
    return session.range(0, parallelism, 1, parallelism).mapInArrow(
        _generator(description.rows, parallelism, arrow_schema(description.columns)),
        spark_schema(description.columns))


def _generator(rows, parallelism: int, schema: pa.Schema):
    reads_postgresql = getattr(rows, "reads_postgresql", False)   # a jdbc table's scan

    def generate(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from itertools import islice
        if reads_postgresql:
            # psycopg, when package_shipping shipped it (a plain Spark SQL task: no
            # stage_task.prepare_worker here)
            from pyflink_on_spark.spark.package_shipping import use_native_packages
            use_native_packages()
        for batch in batches:
            for subtask in batch.column(0).to_pylist():
                generated = iter(rows(subtask, parallelism))
                while True:
                    chunk = list(islice(generated, CHUNK_ROWS))
                    if not chunk:
                        break
                    columns = list(zip(*chunk))
                    yield pa.RecordBatch.from_arrays(
                        [pa.array(list(c), type=f.type) for c, f in zip(columns, schema)],
                        schema=schema)
    return generate


def materialized(changes, columns):
    """The final rows of a changelog (rows whose last value is the RowKind value), as pandas:
    seen on PyFlink 1.20.5, to_pandas of an updating table gives its rows in the order of
    their last change (an update retracts the old row, then appends the new one)."""
    rows: List[tuple] = []
    for change in changes:
        values, kind = tuple(change[:-1]), change[-1]
        if kind in (0, 2):            # +I, +U
            rows.append(values)
        else:                         # -U, -D: the first equal row goes
            rows.remove(values)
    names = [c.name for c in columns]
    return pa.Table.from_pylist([dict(zip(names, r)) for r in rows],
                                schema=arrow_schema(columns)).to_pandas()


# -- a table read by a DataStream job (to_data_stream) --------------------------------------

CHUNK_ROWS = 2048


def table_source_frame(description, parallelism: int, session, streams=None):
    """Split rows of a table read as a stream's source: each Spark partition's rows, as Row
    chunks, go to one source subtask (partition i to subtask i % parallelism), in order.
    `streams`: as table_frame's."""
    from pyflink_on_spark.spark.table_changelog import KIND
    frame = table_frame(description.table, session, streams)
    kinds = KIND in frame.columns
    if kinds and not description.changelog:
        raise NotImplementedError(
            "to_data_stream / to_append_stream of a table whose rows update (a grouping "
            "query in STREAMING mode): use to_changelog_stream, or BATCH mode for the final "
            "rows (docs/table.md)")
    return frame.mapInArrow(_row_chunker(tuple(description.names), parallelism,
                                         description.as_tuples, kinds,
                                         description.rowtime), SPARK_SCHEMA)


def _instants(column: pa.Array) -> list:
    """A TIMESTAMP_LTZ column's values as PyFlink 1.20.5 gives them in a stream: Instants
    (java.time.Instant there; seen: Instant<4, 200000000>)."""
    from pyflink_on_spark.common.time import Instant
    micros = column.cast(pa.int64()).to_pylist()
    return [None if m is None else Instant(m // 1_000_000, m % 1_000_000 * 1000)
            for m in micros]


def _values(column: pa.Array) -> list:
    if pa.types.is_timestamp(column.type) and column.type.tz is not None:
        return _instants(column)
    if pa.types.is_nested(column.type):
        return stream_values(column)
    return column.to_pylist()


def _row_chunker(names: Tuple[str, ...], parallelism: int, as_tuples: bool, kinds: bool,
                 rowtime=None):
    """Chunks of records of a table's rows; with `kinds`, the last column is each row's
    RowKind value (a changelog), set on its Row; with `rowtime` (a column index), each
    record's timestamp is that column's (SplitRecords: the source stamps them)."""
    def chunk(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext
        from pyflink_on_spark.common.types import Row, RowKind
        from pyflink_on_spark.specs.sources import SplitRecords
        partition = TaskContext.get().partitionId()
        seq = 0
        for batch in batches:
            rows = []
            columns = [_values(c) for c in batch.columns]
            kind_of = columns.pop() if kinds else None
            stamps = None if rowtime is None else \
                batch.column(rowtime).cast(pa.int64()).to_pylist()
            for start in range(0, batch.num_rows, CHUNK_ROWS):
                records = []
                for i, values in enumerate(zip(*(c[start:start + CHUNK_ROWS]
                                                 for c in columns)), start):
                    if as_tuples:
                        records.append(values)
                        continue
                    row = Row(*values)
                    row.set_field_names(list(names))
                    if kind_of is not None:
                        row.set_row_kind(RowKind(kind_of[i]))
                    records.append(row)
                if stamps is not None:
                    records = SplitRecords(("table", partition), records, [
                        None if t is None else t // 1000
                        for t in stamps[start:start + CHUNK_ROWS]])
                rows.append((-1, partition % parallelism, partition, seq, KIND_SPLIT,
                             pickle.dumps(records, protocol=5)))
                seq += 1
            if rows:
                yield rows_to_batch(rows)
    return chunk
