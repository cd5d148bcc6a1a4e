"""Connector tables on Spark (specs/table_connectors.py): a filesystem table read into the
table's typed columns (csv: each file by a task, as Flink's csv format reads it; json /
parquet: by Spark's readers), and INSERT INTO a print,
blackhole or filesystem table as one Spark job whose tasks format and write the rows
(codecs/table_rows_text.py formats them as Flink writes them). Print lines are the one thing
that comes to the driver: it prints them, as the DataStream print sink does."""
from __future__ import annotations

import os
import uuid
from dataclasses import replace
from typing import Iterator

import pyarrow as pa

from pyflink_on_spark.specs.table_connectors import ConnectorTable, TableInsert, refusal_error

_LINES = "line string"


def connector_frame(description: ConnectorTable, session):
    """The DataFrame of a connector table read as a source."""
    from pyflink_on_spark.spark.table_frames import spark_schema
    if description.connector != "filesystem" or description.refusal is not None:
        # fails when a query reads it, in Flink's words (seen on PyFlink 1.20.5, reading a
        # print table): here, on the driver before any Spark job starts (a query's frame
        # is built from the views it reads only: spark/table_feeds.py read_inputs), so the
        # message is not behind Spark's task-failure log and JVM stack
        refused = description if description.refusal is not None else replace(
            description, refusal="the %s connector is a sink only" % description.connector,
            refused_by_flink=True)
        raise refusal_error(refused, sink=False)
    if not os.path.exists(description.path):
        # fails when a query reads it: every view is registered for a query over some
        # (an INSERT INTO this table registers it before its files exist)
        missing = "table %r: its path %s does not exist" % (description.name,
                                                             description.path)

        def absent(batches):
            raise FileNotFoundError(missing)
        return session.range(0, 1, 1, 1).mapInArrow(absent, spark_schema(description.columns))
    reader = session.read.schema(spark_schema(description.columns))
    if description.file_format == "csv":
        return _csv_frame(description, session)
    if description.file_format == "json":
        reader = reader.options(mode="FAILFAST", **dict(description.read_options)).json
    else:
        reader = reader.parquet
    return reader(description.path)


def _csv_frame(description: ConnectorTable, session):
    """A csv table's rows as Flink's csv format reads them (codecs/formats/table_csv.py):
    Spark lists the files (binaryFile with only their paths selected: hidden files skipped,
    as before, and no content read), a task reads each file by its path, a piece at a time
    (a quoted value may span lines and pieces), and hands its rows on in batches of up to
    CHUNK_ROWS: a task's memory is bounded whatever the file's size."""
    from pyflink_on_spark.codecs.formats.table_csv import TYPES, readable_type
    from pyflink_on_spark.spark.table_frames import arrow_schema, spark_schema
    unread = [c for c in description.columns if not readable_type(c.sql_type)]
    if unread:
        raise NotImplementedError(
            "table %r: reading a csv column of type %s (%s) is not supported by "
            "pyflink_on_spark yet (types read: %s)"
            % (description.name, unread[0].sql_type, unread[0].name, TYPES))
    types = tuple(c.sql_type for c in description.columns)
    options = dict(description.read_options)
    schema = arrow_schema(description.columns)

    def read(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyflink_on_spark.codecs.formats.table_csv import table_csv_file_columns
        for batch in batches:
            for path in batch.column(0).to_pylist():
                for columns in table_csv_file_columns(path, types, options):
                    yield pa.RecordBatch.from_arrays(
                        [pa.array(values, f.type) for values, f in zip(columns, schema)],
                        schema=schema)

    files = session.read.format("binaryFile").load(description.path).select("path")
    return files.mapInArrow(read, spark_schema(description.columns))


def run_insert(insert: TableInsert, session) -> None:
    """Writes the source's rows into the target table, in Spark tasks."""
    from pyspark.sql import functions as F
    from pyflink_on_spark.spark.table_changelog import KIND
    from pyflink_on_spark.codecs.table_rows_text import check_types
    from pyflink_on_spark.spark.table_frames import spark_schema, table_frame
    target = insert.target
    # (table/table_connectors.py CSV_UNWRITTEN)
    unwritten = [v for k, v in target.write_options if k == "unwritten"]
    if unwritten:
        raise NotImplementedError(
            "INSERT INTO %r: option %r of the filesystem connector is followed when the table "
            "is read, not when it is written, by pyflink_on_spark (docs/table.md, \"Connector "
            "tables\")" % (target.name, unwritten[0]))
    if target.file_format != "parquet":
        check_types([c.sql_type for c in target.columns], target.connector)
    frame = table_frame(insert.source, session)
    kinds = KIND in frame.columns
    if kinds and target.connector == "filesystem":
        raise NotImplementedError(
            "INSERT INTO %r (filesystem) of a table whose rows update (a grouping query in "
            "STREAMING mode): a file sink takes insert-only rows (docs/table.md)" % target.name)
    fields = spark_schema(target.columns).fields
    columns = [F.col("`%s`" % name).cast(field.dataType).alias(field.name)
               for name, field in zip(frame.columns, fields)]
    if kinds:
        columns.append(F.col(KIND))
    frame = frame.select(*columns)
    if frame.rdd.getNumPartitions() > insert.parallelism:
        # the sink's subtasks: a file each (rows kept in order)
        frame = frame.coalesce(insert.parallelism)
    if target.connector == "blackhole":
        frame.write.format("noop").mode("overwrite").save()
    elif target.connector == "print":
        _print(frame, target, insert.parallelism, kinds)
    else:
        _write_files(frame, target)


def _print(frame, target: ConnectorTable, parallelism: int, kinds: bool) -> None:
    """Flink's print sink lines, formatted by the tasks: `[identifier[:N]> ]+I[...]`, N the
    sink subtask (partition i is subtask i % parallelism + 1), only at parallelism > 1."""
    import sys
    types = tuple(c.sql_type for c in target.columns)
    identifier = target.identifier

    def lines(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext
        from pyflink_on_spark.codecs.table_rows_text import print_line
        subtask = TaskContext.get().partitionId() % parallelism + 1
        if identifier and parallelism > 1:
            prefix = "%s:%d> " % (identifier, subtask)
        elif identifier:
            prefix = "%s> " % identifier
        else:
            prefix = "%d> " % subtask if parallelism > 1 else ""
        for batch in batches:
            columns = [c.to_pylist() for c in batch.columns]
            kind_of = columns.pop() if kinds else [0] * batch.num_rows
            text = [prefix + print_line(values, types, kind)
                    for values, kind in zip(zip(*columns), kind_of)]
            yield pa.RecordBatch.from_arrays([pa.array(text, pa.string())], names=["line"])

    out = sys.stderr if target.standard_error else sys.stdout
    for row in frame.mapInArrow(lines, _LINES).toLocalIterator():
        print(row[0], file=out)


def _write_files(frame, target: ConnectorTable) -> None:
    """Each task writes its rows to `part-<job uuid>-<subtask>-0` under the path (Flink's
    names), through a hidden in-progress file renamed when it is complete."""
    from pyflink_on_spark.spark.table_frames import arrow_schema
    types = tuple(c.sql_type for c in target.columns)
    names = tuple(c.name for c in target.columns)
    schema = arrow_schema(target.columns)
    job = str(uuid.uuid4())
    path, file_format, options = target.path, target.file_format, dict(target.write_options)

    def write(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from pyspark import TaskContext
        from pyflink_on_spark.codecs.table_rows_text import csv_line, json_line
        subtask = TaskContext.get().partitionId()
        name = "part-%s-%d-0" % (job, subtask)
        in_progress = os.path.join(path, ".%s.inprogress.%s" % (name, uuid.uuid4()))
        os.makedirs(path, exist_ok=True)
        count = 0
        if file_format == "parquet":
            import pyarrow.parquet as pq
            writer = None
            for batch in batches:
                if batch.num_rows:
                    if writer is None:
                        writer = pq.ParquetWriter(in_progress, schema)
                    writer.write_table(pa.Table.from_batches([batch]).cast(schema))
                    count += batch.num_rows
            if writer is not None:
                writer.close()
        else:
            out = None
            for batch in batches:
                columns = [c.to_pylist() for c in batch.columns]
                for values in zip(*columns):
                    if out is None:
                        out = open(in_progress, "w", encoding="utf-8", newline="")
                    out.write(csv_line(values, types, options) if file_format == "csv"
                              else json_line(values, names, types))
                    out.write("\n")
                    count += 1
            if out is not None:
                out.close()
        if count:
            os.replace(in_progress, os.path.join(path, name))
        yield pa.RecordBatch.from_arrays([pa.array([count], pa.int64())], names=["rows"])

    frame.mapInArrow(write, "rows long").write.format("noop").mode("overwrite").save()
