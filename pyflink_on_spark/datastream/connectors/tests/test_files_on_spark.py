"""FileSource / FileSink / formats / Kafka through the public API on Spark (the shared
session): Spark's readers read the files, sink subtasks write staged parts, the driver
publishes them only when the job succeeded."""
import bz2
import gzip
import lzma
import os
import zlib

import pyarrow as pa
import pyarrow.orc as orc
import pyarrow.parquet as pq
import pytest

from pyflink_on_spark.common import Row, Types, WatermarkStrategy
from pyflink_on_spark.common.serialization import Encoder
from pyflink_on_spark.datastream import MapFunction, StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import (
    BucketAssigner, FileSink, FileSource, OutputFileConfig, RollingPolicy, StreamFormat)
from pyflink_on_spark.datastream.formats.avro import AvroBulkWriters, AvroInputFormat, AvroSchema
from pyflink_on_spark.datastream.formats.csv import CsvBulkWriters, CsvReaderFormat, CsvSchema
from pyflink_on_spark.datastream.formats.orc import OrcBulkWriters
from pyflink_on_spark.datastream.formats.parquet import (ParquetBulkWriters,
                                                         ParquetColumnarRowInputFormat)
from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.codecs.formats.avro import read_container
from pyflink_on_spark.spark.frame_sources import MissingSparkPackageError
from pyflink_on_spark.table.types import DataTypes


def Tag():
    # defined inside a function: cloudpickle ships it by value to Spark's workers
    class Tag(MapFunction):
        def open(self, ctx):
            self.index = ctx.get_index_of_this_subtask()

        def map(self, value):
            return (self.index, value)
    return Tag()


def _env(parallelism):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    return env


def _text_source(env, *paths, charset="UTF-8"):
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(charset),
                                                 *paths).build()
    return env.from_source(source, WatermarkStrategy.no_watermarks(), "files")


def _write(path, data: bytes):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def _visible_files(base):
    found = {}
    for root, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            found[os.path.relpath(os.path.join(root, f), base)] = os.path.join(root, f)
    return found


def test_each_file_is_read_by_one_subtask_in_order(spark, tmp_path):
    for i in range(4):
        _write(str(tmp_path / ("f%d.txt" % i)), "".join("f%d-%d\n" % (i, j)
                                                        for j in range(3)).encode())
    _write(str(tmp_path / "sub" / "s.txt"), b"s-0\ns-1")
    _write(str(tmp_path / ".hidden"), b"no\n")
    _write(str(tmp_path / "_under"), b"no\n")
    _write(str(tmp_path / "_dir" / "x.txt"), b"no\n")
    out = list(_text_source(_env(2), str(tmp_path)).map(Tag()).execute_and_collect())
    # files sorted by path: f0 f1 f2 f3 sub/s -> subtasks 0 1 0 1 0
    by_subtask = {0: [v for s, v in out if s == 0], 1: [v for s, v in out if s == 1]}
    assert by_subtask[0] == ["f0-0", "f0-1", "f0-2", "f2-0", "f2-1", "f2-2", "s-0", "s-1"]
    assert by_subtask[1] == ["f1-0", "f1-1", "f1-2", "f3-0", "f3-1", "f3-2"]


def test_compressed_files_are_decompressed_by_extension(spark, tmp_path):
    _write(str(tmp_path / "a.txt.gz"), gzip.compress(b"gz1\ngz2\n"))
    _write(str(tmp_path / "b.gzip"), gzip.compress(b"gzip1\n"))
    _write(str(tmp_path / "c.txt.bz2"), bz2.compress(b"bz1\n"))
    _write(str(tmp_path / "d.txt.xz"), lzma.compress(b"xz1\r\nxz2"))
    _write(str(tmp_path / "e.deflate"), zlib.compress(b"df1\n"))
    out = list(_text_source(_env(1), str(tmp_path)).execute_and_collect())
    assert out == ["gz1", "gz2", "gzip1", "bz1", "xz1", "xz2", "df1"]


def test_read_text_file_with_a_charset(spark, tmp_path):
    path = str(tmp_path / "latin.txt")
    _write(path, "café\nüber\n".encode("latin-1"))
    env = _env(1)
    assert list(env.read_text_file(path, "ISO-8859-1").execute_and_collect()) == \
        ["café", "über"]
    assert env.read_text_file(path).get_type() == Types.STRING()


def test_a_file_read_as_several_spark_blocks_keeps_its_order(spark, tmp_path):
    path = str(tmp_path / "big.txt")
    lines = ["line-%06d" % i for i in range(60000)]
    _write(path, ("\n".join(lines) + "\n").encode())
    previous = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "65536")  # ~11 blocks
    try:
        out = list(_text_source(_env(2), path).map(Tag()).execute_and_collect())
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", previous)
    assert [v for _, v in out] == lines
    assert {s for s, _ in out} == {0}


def test_a_big_csv_file_is_read_once_by_one_subtask(spark, tmp_path):
    # Flink's CsvReaderFormat does not split files: one subtask reads the whole file once,
    # even where Spark would cut it into several blocks for several tasks
    path = str(tmp_path / "big.csv")
    _write(path, "".join("%d,name-%d\n" % (i, i) for i in range(5000)).encode())
    schema = CsvSchema.builder().add_number_column("id", number_type=DataTypes.INT()) \
        .add_string_column("name").build()
    source = FileSource.for_record_stream_format(CsvReaderFormat.for_schema(schema),
                                                 path).build()
    previous = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "16384")  # ~5 blocks
    try:
        out = list(_env(2).from_source(source, WatermarkStrategy.no_watermarks(), "csv")
                   .map(Tag()).execute_and_collect())
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", previous)
    assert [row[0] for _, row in out] == list(range(5000))
    assert {s for s, _ in out} == {0}


def test_a_missing_path_fails_clearly(spark, tmp_path):
    missing = str(tmp_path / "nope")
    with pytest.raises(FileNotFoundError, match="nope"):
        list(_text_source(_env(1), missing).execute_and_collect())


def test_csv_reader_format(spark, tmp_path):
    _write(str(tmp_path / "a.csv"),
           b'id|name|score|tags\n1|"bob | jr"|3.5|x;y\n2|"multi\nline"|-0.25|\n')
    schema = CsvSchema.builder().add_number_column("id", number_type=DataTypes.INT()) \
        .add_string_column("name").add_number_column("score", number_type=DataTypes.DOUBLE()) \
        .add_array_column("tags").set_column_separator("|").set_use_header().build()
    source = FileSource.for_record_stream_format(CsvReaderFormat.for_schema(schema),
                                                 str(tmp_path)).build()
    ds = _env(1).from_source(source, WatermarkStrategy.no_watermarks(), "csv")
    assert list(ds.execute_and_collect()) == [
        Row(id=1, name="bob | jr", score=3.5, tags=["x", "y"]),
        Row(id=2, name="multi\nline", score=-0.25, tags=[])]
    assert ds.get_type()._to_java_string(Row(1, "a", 3.5, None)) == "+I(1,a,3.5,null)"


def test_parquet_reader_format(spark, tmp_path):
    pq.write_table(pa.table({"a": [1, 2], "b": ["x", None], "c": [0.5, 1.5]}),
                   str(tmp_path / "p.parquet"))
    row_type = DataTypes.ROW([DataTypes.FIELD("c", DataTypes.DOUBLE()),
                              DataTypes.FIELD("a", DataTypes.BIGINT())])
    source = FileSource.for_bulk_file_format(ParquetColumnarRowInputFormat(row_type),
                                             str(tmp_path)).build()
    ds = _env(1).from_source(source, WatermarkStrategy.no_watermarks(), "parquet")
    assert list(ds.execute_and_collect()) == [Row(c=0.5, a=1), Row(c=1.5, a=2)]


def test_file_sink_writes_parts_per_subtask_and_reads_back(spark, tmp_path):
    env = _env(2)
    base = str(tmp_path / "out")
    env.from_collection(["a", "b", "c", "d", "e"], type_info=Types.STRING()) \
        .map(lambda s: s.upper(), output_type=Types.STRING()) \
        .sink_to(FileSink.for_row_format(base, Encoder.simple_string_encoder())
                 .with_output_file_config(OutputFileConfig("pre", ".txt"))
                 .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
    env.execute()
    files = _visible_files(base)
    assert len(files) == 2 and all(n.startswith("pre-") and n.endswith("-0.txt") for n in files)
    assert sorted(open(p).read() for p in files.values()) == ["A\nC\nE\n", "B\nD\n"]
    assert os.listdir(base) == sorted(files) or set(os.listdir(base)) == set(files)
    # the output reads back through FileSource
    assert sorted(_text_source(_env(1), base).execute_and_collect()) == list("ABCDE")


def test_default_bucket_is_the_hour_directory(spark, tmp_path):
    env = _env(1)
    base = str(tmp_path / "out")
    env.from_collection([1, 2], type_info=Types.INT()) \
        .sink_to(FileSink.for_row_format(base, Encoder.simple_string_encoder()).build())
    env.execute()
    (name, path), = _visible_files(base).items()
    bucket = os.path.dirname(name)
    assert len(bucket) == len("2024-01-01--00") and bucket[10:12] == "--"
    assert open(path).read() == "1\n2\n"


def test_a_failed_job_leaves_no_visible_part_files(spark, tmp_path):
    def explode_late(x):
        if x == 7:
            raise ValueError("bad record %d" % x)
        return x

    env = _env(2)
    base = str(tmp_path / "out")
    env.from_collection(list(range(8)), type_info=Types.INT()) \
        .map(explode_late, output_type=Types.INT()) \
        .sink_to(FileSink.for_row_format(base, Encoder.simple_string_encoder())
                 .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner())
                 .with_rolling_policy(RollingPolicy.default_rolling_policy(part_size=1))
                 .build())
    with pytest.raises(JobExecutionError, match="bad record 7"):
        env.execute()
    # the sink's tasks wrote parts (the base directory exists: only they create it), but
    # nothing was published and the staging directory is gone
    assert os.path.isdir(base)
    assert os.listdir(base) == []


def test_bulk_writers(spark, tmp_path):
    env = _env(1)
    row_type = DataTypes.ROW([DataTypes.FIELD("id", DataTypes.BIGINT()),
                              DataTypes.FIELD("name", DataTypes.STRING())])
    ds = env.from_collection([(1, "a,b"), (2, None)],
                             type_info=Types.ROW_NAMED(["id", "name"],
                                                       [Types.LONG(), Types.STRING()]))
    assigner = BucketAssigner.base_path_bucket_assigner()
    csv_schema = CsvSchema.builder().add_number_column("id").add_string_column("name").build()
    ds.sink_to(FileSink.for_bulk_format(str(tmp_path / "csv"), CsvBulkWriters.for_schema(
        csv_schema)).with_bucket_assigner(assigner).build())
    ds.sink_to(FileSink.for_bulk_format(str(tmp_path / "parquet"),
                                        ParquetBulkWriters.for_row_type(row_type))
               .with_bucket_assigner(assigner).build())
    ds.sink_to(FileSink.for_bulk_format(str(tmp_path / "orc"), OrcBulkWriters.for_row_type(
        row_type)).with_bucket_assigner(assigner).build())
    schema = AvroSchema.parse_string('{"type": "record", "name": "R", "fields": ['
                                     '{"name": "id", "type": "long"}, '
                                     '{"name": "name", "type": ["null", "string"]}]}')
    ds.map(lambda r: {"id": r[0], "name": r[1]}).sink_to(FileSink.for_bulk_format(
        str(tmp_path / "avro"), AvroBulkWriters.for_generic_record(schema))
        .with_bucket_assigner(assigner).build())
    env.execute()
    (csv_file,) = _visible_files(str(tmp_path / "csv")).values()
    assert open(csv_file).read() == '1,"a,b"\n2,\n'
    (parquet_file,) = _visible_files(str(tmp_path / "parquet")).values()
    assert pq.read_table(parquet_file).to_pylist() == [{"id": 1, "name": "a,b"},
                                                       {"id": 2, "name": None}]
    (orc_file,) = _visible_files(str(tmp_path / "orc")).values()
    assert orc.read_table(orc_file).to_pylist() == [{"id": 1, "name": "a,b"},
                                                    {"id": 2, "name": None}]
    (avro_file,) = _visible_files(str(tmp_path / "avro")).values()
    assert read_container(open(avro_file, "rb").read()) == [{"id": 1, "name": "a,b"},
                                                            {"id": 2, "name": None}]


def test_spark_packages_that_are_missing_are_named(spark, tmp_path):
    # (Kafka's package the shim adds itself: spark/kafka_package.py and its tests)
    env = _env(1)
    schema = AvroSchema.parse_string('{"type": "record", "name": "R", "fields": '
                                     '[{"name": "a", "type": "int"}]}')
    _write(str(tmp_path / "x.avro"), b"Obj\x01")
    with pytest.raises(MissingSparkPackageError, match="spark-avro_2.13"):
        list(env.create_input(AvroInputFormat(str(tmp_path / "x.avro"), schema))
             .execute_and_collect())


def test_read_text_file_spreads_a_large_files_blocks_over_subtasks(spark, tmp_path):
    path = str(tmp_path / "big.txt")
    lines = ["line-%06d" % i for i in range(30000)]
    _write(path, ("\n".join(lines) + "\n").encode())
    previous = spark.conf.get("spark.sql.files.maxPartitionBytes")
    spark.conf.set("spark.sql.files.maxPartitionBytes", "65536")  # ~5 blocks
    try:
        out = list(_env(2).read_text_file(path).map(Tag()).execute_and_collect())
    finally:
        spark.conf.set("spark.sql.files.maxPartitionBytes", previous)
    assert sorted(v for _, v in out) == lines
    per_subtask = [[v for s, v in out if s == i] for i in (0, 1)]
    assert all(per_subtask)                              # both subtasks read blocks
    assert all(p == sorted(p) for p in per_subtask)      # each in file order
