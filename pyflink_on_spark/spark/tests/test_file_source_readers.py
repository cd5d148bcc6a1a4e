"""Who reads a FileSource's files (spark/file_source.py): files of this machine's file system
in formats the shim decodes go to the source's tasks as FileToRead splits, which read them;
other files are read by Spark's readers. Both give the same records to the same subtasks."""
import bz2
import gzip
import os
import pickle

import pytest

from pyflink_on_spark.codecs.formats.text import TextInputFormat, TextLineFormat
from pyflink_on_spark.common import WatermarkStrategy
from pyflink_on_spark.datastream import MapFunction, StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink_on_spark.datastream.formats.csv import CsvReaderFormat, CsvSchema
from pyflink_on_spark.runtime.boundary import KIND_SPLIT
from pyflink_on_spark.spark import file_source
from pyflink_on_spark.spark.file_formats import BLOCKS, WHOLE, task_read
from pyflink_on_spark.specs.sources import FileSourceSpec, FileToRead


def test_local_text_and_csv_files_are_read_by_the_tasks_others_by_spark():
    csv = CsvReaderFormat.for_schema(CsvSchema.builder().add_string_column("a").build())
    for fmt in (TextLineFormat(), TextLineFormat("ISO-8859-1"), csv._format()):
        assert task_read(fmt, "file:/data/a.txt") == WHOLE
        assert task_read(fmt, "/data/a.txt.gz") == WHOLE
        assert task_read(fmt, "hdfs://namenode/data/a.txt") is None
        assert task_read(fmt, "s3a://bucket/a.txt") is None
    # read_text_file: blocks of uncompressed UTF-8 files; Spark's own codecs stay Spark's
    assert task_read(TextInputFormat(), "file:/data/a.txt", split_files=True) == BLOCKS
    assert task_read(TextInputFormat(), "file:/data/a.txt.bz2", split_files=True) is None
    assert task_read(TextInputFormat(), "file:/data/a.txt.xz", split_files=True) == WHOLE
    assert task_read(TextInputFormat("UTF-16"), "/data/a.txt", split_files=True) == WHOLE
    assert task_read(TextInputFormat(), "hdfs://nn/a.txt", split_files=True) is None


def test_the_split_rows_name_each_file_for_its_subtask(spark, tmp_path):
    paths = []
    for n in range(3):
        path = tmp_path / ("f%d.txt" % n)
        path.write_text("x\n")
        paths.append("file:" + str(path))
    scan = FileSourceSpec((str(tmp_path),), TextLineFormat())
    rows = file_source.indexed_files_frame(scan, [(p, i) for i, p in enumerate(paths)], 2,
                                           spark).collect()
    found = sorted((row.dest, row.src, row.kind, pickle.loads(row.payload)) for row in rows)
    assert found == [(0, 0, KIND_SPLIT, FileToRead(str(tmp_path / "f0.txt"))),
                     (0, 2, KIND_SPLIT, FileToRead(str(tmp_path / "f2.txt"))),
                     (1, 1, KIND_SPLIT, FileToRead(str(tmp_path / "f1.txt")))]
    # read_text_file's blocks, as Spark splits the file; a file Spark decompresses itself
    # (it may split a .bz2) is read by Spark
    (tmp_path / "g.txt.gz").write_bytes(gzip.compress(b"gz\n"))
    split = FileSourceSpec((str(tmp_path),), TextInputFormat(), split_files=True)
    rows = file_source.indexed_files_frame(
        split, [(paths[0], 0), ("file:" + str(tmp_path / "g.txt.gz"), 1)], 2, spark).collect()
    found = sorted((row.dest, row.src, pickle.loads(row.payload)) for row in rows)
    assert found == [(0, 0, FileToRead(str(tmp_path / "f0.txt"), (0, 2))), (1, 1, ["gz"])]


def _tag():
    # defined inside a function: cloudpickle ships it by value to Spark's workers
    class Tag(MapFunction):
        def open(self, ctx):
            self.index = ctx.get_index_of_this_subtask()

        def map(self, value):
            return self.index, value
    return Tag()


def _write(path, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def _run(source) -> list:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    stream = source.stream(env) if isinstance(source, _ReadTextFile) else \
        env.from_source(source, WatermarkStrategy.no_watermarks(), "files")
    return list(stream.map(_tag()).execute_and_collect())


def _text_files(base):
    lines = "".join("line-%05d\r\n" % i for i in range(6000)).encode()
    _write(os.path.join(base, "a.txt"), lines)                     # several Spark blocks
    _write(os.path.join(base, "b.txt.gz"), gzip.compress(b"gz1\ngz2\rgz3"))
    _write(os.path.join(base, "c.txt.bz2"), bz2.compress(b"bz1\n\nbz3\n"))
    _write(os.path.join(base, "d.txt.xz"), __import__("lzma").compress(b"xz1\r\nxz2"))
    _write(os.path.join(base, "sub", "e.txt"), "é\xff\n".encode("latin-1"))  # malformed
    return FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                               base).build()


def _csv_files(base):
    _write(os.path.join(base, "a.csv"), "".join("%d,n%d\n" % (i, i)
                                                for i in range(3000)).encode())
    _write(os.path.join(base, "b.csv"), b'7,"quoted, comma"\n8,\n')
    schema = CsvSchema.builder().add_number_column("id").add_string_column("name").build()
    return FileSource.for_record_stream_format(CsvReaderFormat.for_schema(schema),
                                               base).build()


class _ReadTextFile:
    """read_text_file over files of 16-byte lines: every block of 16384 bytes starts at a
    line's start, the case where Hadoop's reader gives the line to the block before."""

    def __init__(self, base):
        _write(os.path.join(base, "a.txt"), "".join("line-%010d\n" % i
                                                    for i in range(5000)).encode())
        _write(os.path.join(base, "b.txt"), "".join("l%d\r\n" % i
                                                    for i in range(7000)).encode())
        _write(os.path.join(base, "c.txt"), b"x" * 40000 + b"\ny\n")   # a line over blocks
        # a "\n" as a block's last byte: the next line is the next block's
        _write(os.path.join(base, "d.txt"), b"first-line-17by\r\n" + b"".join(
            b"d-%013d\n" % i for i in range(3000)))
        self.base = base

    def stream(self, env):
        return env.read_text_file(self.base)


def _read_text_file(base):
    return _ReadTextFile(base)


@pytest.mark.parametrize("files", [_text_files, _csv_files, _read_text_file])
def test_spark_readers_and_the_tasks_read_the_same_records(spark, tmp_path, monkeypatch,
                                                           files):
    source = files(str(tmp_path))
    previous = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "16384")   # blocks of 16 KB
    try:
        by_tasks = _run(source)
        # as if on another file system: small text files read whole through binaryFile
        monkeypatch.setattr(file_source, "task_read", lambda *args: None)
        by_spark_whole = _run(source)
        # and bigger ones through Spark's text reader
        monkeypatch.setattr(file_source, "WHOLE_TEXT_BYTES", -1)
        by_spark = _run(source)
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", previous)
    assert len(by_tasks) > 3000
    expected = [(s, str(v)) for s, v in by_tasks]
    assert [(s, str(v)) for s, v in by_spark_whole] == expected
    assert [(s, str(v)) for s, v in by_spark] == expected


def test_only_small_text_files_spark_reads_are_read_whole(spark, tmp_path, monkeypatch):
    small, big, latin = tmp_path / "small.txt", tmp_path / "big.txt", tmp_path / "l.txt"
    small.write_bytes(b"s\n" * 10)
    big.write_bytes(b"b\n" * 100)
    latin.write_bytes(b"\xe9\n" * 100)
    monkeypatch.setattr(file_source, "WHOLE_TEXT_BYTES", 50)
    files = ["file:" + str(p) for p in (big, small)]
    assert file_source.spark_reads(spark, TextLineFormat(), files, False) == \
        (files[:1], files[1:])
    # read_text_file's blocks are Spark's: its text reader reads them
    assert file_source.spark_reads(spark, TextInputFormat(), files, True) == (files, [])
    # what the text reader cannot read as Flink does is read whole, whatever its size
    latin_file = ["file:" + str(latin)]
    assert file_source.spark_reads(spark, TextLineFormat("ISO-8859-1"), latin_file,
                                   False) == ([], latin_file)


def test_local_file_lengths_are_read_here_and_agree_with_hadoops(spark, tmp_path,
                                                                  monkeypatch):
    from pyflink_on_spark.codecs.files import fs
    paths = []
    for n, size in enumerate((0, 5, 70000)):
        path = tmp_path / ("f%d.txt" % n)
        path.write_bytes(b"x" * size)
        paths.append("file:" + str(path))
    here = file_source._file_lengths(spark, paths)
    monkeypatch.setattr(fs, "is_local", lambda uri: False)    # asked of Hadoop instead
    assert here == file_source._file_lengths(spark, paths) == [0, 5, 70000]


def test_a_file_read_whole_leaves_in_batches_as_its_text_is_decoded():
    import pyarrow as pa
    lines = ["line-%07d" % i for i in range(250000)]          # 3.25 MB: four 1 MB blocks
    content = ("\n".join(lines) + "\n").encode()
    batch = pa.RecordBatch.from_pydict({"path": ["file:/d/a.txt"], "content": [content]})
    run = file_source._whole_file_chunker(TextLineFormat(), {"/d/a.txt": 3}, 2)
    batches = list(run(iter([batch])))
    assert len(batches) == 4
    rows = [row for b in batches for row in zip(*(b.column(i).to_pylist() for i in range(6)))]
    assert {(row[1], row[2], row[4]) for row in rows} == {(1, 3, KIND_SPLIT)}
    assert [row[3] for row in rows] == list(range(len(rows)))      # chunks in file order
    assert [line for row in rows for line in pickle.loads(row[5])] == lines


def test_a_bounded_source_of_local_files_becomes_splits_on_the_driver(spark, tmp_path):
    for name, data in (("a.txt", b"a\n" * 3), ("b.txt", b"b\n"), ("c.txt", b"c\n")):
        (tmp_path / name).write_bytes(data)
    splits = file_source.files_as_splits(FileSourceSpec((str(tmp_path),), TextLineFormat()),
                                         2, spark)
    assert splits == ((0, FileToRead(str(tmp_path / "a.txt"))),
                      (1, FileToRead(str(tmp_path / "b.txt"))),
                      (0, FileToRead(str(tmp_path / "c.txt"))))
    # read_text_file: each file's blocks in order, block k of file i on (i + k) % 2
    previous = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "4")
    try:
        blocks = file_source.files_as_splits(
            FileSourceSpec((str(tmp_path),), TextInputFormat(), split_files=True), 2, spark)
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", previous)
    assert [(dest, os.path.basename(s.path), s.block) for dest, s in blocks] == [
        (0, "a.txt", (0, 4)), (1, "a.txt", (4, 6)), (1, "b.txt", (0, 2)),
        (0, "c.txt", (0, 2))]


def test_sources_spark_reads_stay_frames(spark, tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_bytes(b"a\n")
    scan = FileSourceSpec((str(tmp_path),), TextLineFormat())
    monkeypatch.setattr(file_source, "task_read", lambda *args: None)
    assert file_source.files_as_splits(scan, 2, spark) is None
    monitored = FileSourceSpec((str(tmp_path),), TextLineFormat(), monitor_interval_ms=100)
    assert file_source.files_as_splits(monitored, 2, spark) is None
    remote = FileSourceSpec(("hdfs://namenode/data",), TextLineFormat())
    assert file_source.files_as_splits(remote, 2, spark) is None


def test_a_path_without_scheme_is_local_only_where_the_default_file_system_is(spark):
    assert file_source._names_local_files(spark, "file:/data")
    assert file_source._names_local_files(spark, "/data")        # a local Spark's default
    hadoop = spark.sparkContext._jsc.hadoopConfiguration()
    previous = hadoop.get("fs.defaultFS")
    hadoop.set("fs.defaultFS", "hdfs://namenode:8020")
    try:
        assert not file_source._names_local_files(spark, "/data")
        assert file_source._names_local_files(spark, "file:/data")
    finally:
        hadoop.set("fs.defaultFS", previous)
    assert not file_source._names_local_files(spark, "s3a://bucket/data")


def test_jobs_of_one_shape_over_other_files_read_their_own_files(spark, tmp_path):
    # the plan of a job whose files travel as splits is kept for the next job of its shape:
    # each run's splits are its own
    outputs = []
    for n in range(3):
        directory = tmp_path / ("run%d" % n)
        directory.mkdir()
        (directory / "f.txt").write_bytes(("".join("r%d-%d\n" % (n, i)
                                                   for i in range(n + 1))).encode())
        source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                     str(directory)).build()
        outputs.append(sorted(v for _, v in _run(source)))
    assert outputs == [["r0-0"], ["r1-0", "r1-1"], ["r2-0", "r2-1", "r2-2"]]
