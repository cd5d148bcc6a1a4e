"""FileSource on Spark: files are listed by Spark's file index. Files of this machine's file
system in formats the shim decodes (text lines, CSV...: file_formats.task_read) are read by
the source's own tasks, each given its files as splits (specs.sources.FileToRead), as Flink's
source readers read them. Other files are read by Spark's own readers (text, parquet,
avro...), in parallel Spark tasks; a mapInArrow turns what Spark read into chunks of PyFlink
records addressed to the source's subtasks.

Which subtask reads which file: Flink hands files out on request (nondeterministic). The shim
sorts the listed files by path and gives file i to subtask i % parallelism. Every record of a
file goes to that one subtask, in file order, even when Spark reads the file as several blocks
in different tasks: chunks are sorted by (file index, block start, chunk number).

read_text_file (Flink's FileInputFormat splits files into byte ranges read by different
subtasks) gives block k of file i to subtask (i + k) % parallelism instead, k counted in
Spark's split size.
"""
from __future__ import annotations

import os
import pickle
import re
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

import pyarrow as pa

from pyflink_on_spark.specs.sources import FileSourceSpec, FileToRead
from pyflink_on_spark.runtime.boundary import KIND_SPLIT
from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA, rows_frame, rows_to_batch
from pyflink_on_spark.spark.arrow_runs import run_bounds
from pyflink_on_spark.spark.file_formats import (BLOCKS, WHOLE, WHOLE_TEXT_BYTES,
                                                  reads_whole_file, reads_whole_when_small,
                                                  spark_read, task_read)
from pyflink_on_spark.spark.frame_sources import is_missing_data_source, missing_package_error

CHUNK_RECORDS = 4096
_CHUNK_BITS = 20          # seq = block start << 20 | chunk number inside the block
_PATH = "__pyflink_path"
_START = "__pyflink_block_start"


class FileSourceError(RuntimeError):
    pass


def normalize_path(uri: str) -> str:
    """Spark reports local files as file:/x (metadata) or file:///x (listing)."""
    if uri.startswith("file:"):
        return "/" + uri[5:].lstrip("/")
    return uri


def missing_path(error_text: str) -> str:
    """The whole path in Spark's "Path does not exist: file:/a/b.txt." (dots included)."""
    match = re.search(r"Path does not exist: (\S+?)\.?(?:\s|$)", error_text)
    return normalize_path(match.group(1)) if match else ""


def list_files(session, paths) -> List[str]:
    """The files Spark's file index finds under `paths` (recursive; names starting with '.'
    or '_' skipped, as Flink's default file filter does), sorted by path."""
    try:
        reader = session.read.format("binaryFile").option("recursiveFileLookup", "true")
        files = reader.load(list(paths)).inputFiles()
    except Exception as e:
        text = str(e)
        if "PATH_NOT_FOUND" in text or "Path does not exist" in text:
            missing = missing_path(text) or ", ".join(paths)
            raise FileNotFoundError("FileSource: the path %s does not exist (or is not "
                                    "readable)" % missing) from None
        raise
    return sorted(files, key=normalize_path)


def file_scan_frame(scan: FileSourceSpec, parallelism: int, session):
    files = list_files(session, scan.paths)
    return indexed_files_frame(scan, [(f, i) for i, f in enumerate(files)], parallelism,
                               session)


def indexed_files_frame(scan: FileSourceSpec, entries: List[Tuple[str, int]],
                        parallelism: int, session):
    """Split rows of the files `entries` [(file URI, file index)]: file index % parallelism
    is the subtask that reads a file (a monitored source numbers files across micro-batches:
    spark/streaming/file_index.py)."""
    fmt = scan.format
    index = {normalize_path(f): i for f, i in entries}
    how = {f: task_read(fmt, f, scan.split_files) for f, _ in entries}
    files = [f for f, _ in entries if how[f] is None]
    by_spark, whole = spark_reads(session, fmt, files, scan.split_files)
    # read_text_file's blocks: block k of file i goes to subtask (i + k) % parallelism, k
    # counted in the block size Spark splits these files into, whoever reads them
    spark_splits = set(by_spark)
    split = [f for f, _ in entries if how[f] == BLOCKS or f in spark_splits] \
        if scan.split_files else []
    lengths = dict(zip(split, _file_lengths(session, split))) if split else {}
    unit = _split_bytes(session, lengths.values()) if split else 0
    frames = []
    rows = [(-1, dest, i, k, KIND_SPLIT, pickle.dumps(split, protocol=5))
            for dest, i, k, split in _task_splits(entries, how, lengths, unit, parallelism)]
    if rows:
        frames.append(rows_frame(session, rows))
    if by_spark:
        read = spark_read(fmt)
        reader = session.read.format(read.source)
        for key, value in read.options.items():
            reader = reader.option(key, value)
        if read.schema is not None:
            reader = reader.schema(read.schema)
        try:
            df = reader.load(by_spark)
        except Exception as e:
            if is_missing_data_source(e) and read.package:
                raise missing_package_error("%r" % (fmt,), read.source, read.package) from None
            raise
        from pyspark.sql import functions as F
        df = df.select(*[F.col("`%s`" % c) for c in read.columns],
                       F.col("_metadata.file_path").alias(_PATH),
                       F.col("_metadata.file_block_start").alias(_START))
        frames.append(df.mapInArrow(
            _block_chunker(fmt, index, parallelism, len(read.columns), unit), SPARK_SCHEMA))
    if whole:
        df = session.read.format("binaryFile").load(whole).select("path", "content")
        frames.append(df.mapInArrow(_whole_file_chunker(fmt, index, parallelism),
                                    SPARK_SCHEMA))
    if not frames:
        return rows_frame(session, [])
    frame = frames[0]
    for other in frames[1:]:
        frame = frame.union(other)
    return frame


def _task_splits(entries, how, lengths, unit: int, parallelism: int) -> List[tuple]:
    """(subtask, file index, block number, FileToRead) of the files the source's tasks read
    (`how`: file_formats.task_read of each), in read order: file i to subtask i %
    parallelism, read_text_file's block k of file i to subtask (i + k) % parallelism."""
    splits = []
    for f, i in entries:
        path = normalize_path(f)
        if how[f] == WHOLE:
            splits.append((i % parallelism, i, 0, FileToRead(path)))
        elif how[f] == BLOCKS:
            for k, start in enumerate(range(0, lengths[f], unit)):
                block = (start, min(start + unit, lengths[f]))
                splits.append(((i + k) % parallelism, i, k, FileToRead(path, block)))
    return splits


def files_as_splits(scan: FileSourceSpec, parallelism: int, session) \
        -> Optional[Tuple[Tuple[int, FileToRead], ...]]:
    """(subtask, FileToRead) in read order, when every file of the bounded source `scan` is
    one the source's tasks read themselves (local paths, formats the shim decodes); None
    when Spark reads some. Such splits travel to the tasks with the run's other arguments,
    as a number sequence's do: no Spark stage to hand them out, and a plan the plan cache
    keeps (a small keyed job over a local file: ~0.16-0.3 s warm with the stage)."""
    if scan.monitor_interval_ms or not all(_names_local_files(session, path)
                                           for path in scan.paths):
        return None
    files = list_files(session, scan.paths)
    how = {f: task_read(scan.format, f, scan.split_files) for f in files}
    if any(kind is None for kind in how.values()):
        return None
    split = [f for f in files if how[f] == BLOCKS]
    lengths = dict(zip(split, _file_lengths(session, split))) if split else {}
    unit = _split_bytes(session, lengths.values()) if split else 0
    splits = _task_splits([(f, i) for i, f in enumerate(files)], how, lengths, unit,
                          parallelism)
    splits.sort(key=lambda s: (s[1], s[2]))     # each subtask's in file and block order
    return tuple((dest, file_split) for dest, _, _, file_split in splits)


def _names_local_files(session, path: str) -> bool:
    """Whether `path` is of this machine's file system: a file: URI, or a path without a
    scheme where Hadoop's default file system is the local one (on a cluster whose default
    is HDFS, "/data" is HDFS's: listing it here would only list it twice)."""
    from pyflink_on_spark.codecs.files.fs import is_local
    from pyflink_on_spark.spark.session import is_connect
    if not is_local(path):
        return False
    if path.startswith("file:"):
        return True
    if is_connect(session):
        default = session.conf.get("spark.hadoop.fs.defaultFS", None) or "file:///"
    else:
        default = session.sparkContext._jsc.hadoopConfiguration().get("fs.defaultFS") or \
            "file:///"
    return default.startswith("file:")


def spark_reads(session, fmt, files: List[str], split_files: bool) -> Tuple[list, list]:
    """(the files Spark's reader for the format reads, the files read whole through Spark's
    binaryFile source and decoded in the task), of `files`, which Spark reads."""
    by_reader = [f for f in files if not reads_whole_file(fmt, normalize_path(f))]
    whole = set(files).difference(by_reader)
    if by_reader and reads_whole_when_small(fmt, split_files):
        sizes = _listed_lengths(session, by_reader)
        whole.update(f for f in by_reader if sizes.get(normalize_path(f), WHOLE_TEXT_BYTES + 1)
                     <= WHOLE_TEXT_BYTES)
    return [f for f in files if f not in whole], [f for f in files if f in whole]


def _chunk_rows(records, dest: int, file_index: int, block_start: int, first_chunk: int,
                rows: list) -> int:
    chunk = first_chunk
    for i in range(0, len(records), CHUNK_RECORDS):
        if chunk >> _CHUNK_BITS:
            raise FileSourceError("too many record chunks in one file block")
        rows.append((-1, dest, file_index, (block_start << _CHUNK_BITS) | chunk, KIND_SPLIT,
                     pickle.dumps(records[i:i + CHUNK_RECORDS], protocol=5)))
        chunk += 1
    return chunk


def _bytes_conf(session, key: str, default: str) -> int:
    text = session.conf.get(key, default).strip().lower()
    for suffix, factor in (("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30), ("k", 1 << 10),
                           ("m", 1 << 20), ("g", 1 << 30), ("b", 1)):
        if text.endswith(suffix):
            return int(float(text[:-len(suffix)]) * factor)
    return int(text)


def _optional_int(session, key: str) -> int:
    try:
        value = session.conf.get(key, None)
    except Exception:
        return 0
    return int(value) if value else 0


def _split_bytes(session, lengths: Iterable[int]) -> int:
    """The block size Spark splits files of these lengths into (FilePartition.
    maxSplitBytes)."""
    open_cost = _bytes_conf(session, "spark.sql.files.openCostInBytes", "4MB")
    total = sum(length + open_cost for length in lengths)
    min_partitions = _optional_int(session, "spark.sql.files.minPartitionNum") or \
        _optional_int(session, "spark.sql.leafNodeDefaultParallelism") or \
        _default_parallelism(session)
    max_partition = _bytes_conf(session, "spark.sql.files.maxPartitionBytes", "128MB")
    return max(1, min(max_partition, max(open_cost, total // min_partitions)))


def _file_lengths(session, files: List[str]) -> List[int]:
    """The files' sizes as Spark sees them (on Spark Connect: asked of the server, whose
    file systems may not be this machine's; local files of a classic session: from this
    machine, not through three py4j calls per file)."""
    from pyflink_on_spark.codecs.files.fs import is_local
    from pyflink_on_spark.spark.session import is_connect
    if is_connect(session):
        sizes = _listed_lengths(session, files)
        return [sizes[normalize_path(f)] for f in files]
    jvm = session.sparkContext._jvm
    hadoop_conf = session.sparkContext._jsc.hadoopConfiguration()
    lengths = []
    for f in files:
        if is_local(f):
            lengths.append(os.path.getsize(normalize_path(f)))
            continue
        path = jvm.org.apache.hadoop.fs.Path(f)
        lengths.append(path.getFileSystem(hadoop_conf).getFileStatus(path).getLen())
    return lengths


def _default_parallelism(session) -> int:
    """SparkContext.defaultParallelism; on Spark Connect (no SparkContext) the partition
    count of a range without one, which Spark takes from the same setting."""
    from pyflink_on_spark.spark.session import is_connect
    if not is_connect(session):
        return session.sparkContext.defaultParallelism
    from pyspark.sql import functions as F
    return session.range(0, 1 << 16).select(F.spark_partition_id().alias("p")).distinct() \
        .count()


def _block_chunker(fmt, index: Dict[str, int], parallelism: int, n_columns: int,
                   split_unit: int = 0):
    """mapInArrow function over Spark's reader output (+ file path, block start columns).
    split_unit > 0: a block's subtask also counts the block (read_text_file)."""

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        next_chunk: Dict[tuple, int] = {}
        for batch in batches:
            if batch.num_rows == 0:
                continue
            paths = batch.column(n_columns)
            starts = batch.column(n_columns + 1)
            data = pa.RecordBatch.from_arrays(batch.columns[:n_columns],
                                              names=batch.schema.names[:n_columns])
            rows: list = []
            for begin, end in _runs(paths, starts):
                path = normalize_path(paths[begin].as_py())
                start = starts[begin].as_py()
                file_index = index[path]
                records = fmt.decode_batch(data.slice(begin, end - begin))
                key = (file_index, start)
                dest = (file_index + (start // split_unit if split_unit else 0)) % parallelism
                next_chunk[key] = _chunk_rows(records, dest, file_index, start,
                                              next_chunk.get(key, 0), rows)
            if rows:
                yield rows_to_batch(rows)
    return run


def _runs(paths: pa.Array, starts: pa.Array):
    """[begin, end) ranges of consecutive rows from the same (file, block)."""
    bounds = run_bounds(paths, starts)
    return list(zip(bounds[:-1], bounds[1:]))


def _whole_file_chunker(fmt, index: Dict[str, int], parallelism: int):
    """mapInArrow function over Spark's binaryFile rows (path, content): each file's
    records, as the format reads them from the file's bytes (text: 1 MB at a time), leave
    in batches as they come."""

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for row in range(batch.num_rows):
                path = normalize_path(batch.column(0)[row].as_py())
                file_index = index[path]
                chunk = 0
                for records in fmt.read_content(path, batch.column(1)[row].as_py()):
                    rows: list = []
                    chunk = _chunk_rows(records, file_index % parallelism, file_index, 0,
                                        chunk, rows)
                    if rows:
                        yield rows_to_batch(rows)
    return run


def _listed_lengths(session, files: List[str]) -> Dict[str, int]:
    """normalized path -> length of these files, from one listing job of Spark's binaryFile
    source (which reads no content that is not asked for); a file missing here is read as
    if it were big."""
    rows = session.read.format("binaryFile").load(files).select("path", "length").collect()
    return {normalize_path(row[0]): row[1] for row in rows}
