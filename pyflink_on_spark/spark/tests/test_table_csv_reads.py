"""A filesystem csv table read on Spark (spark/table_connectors.py _csv_frame): each file
read by a task, a piece at a time, as Flink's csv format reads it (codecs/formats/table_csv.py, whose
tests hold the values seen on PyFlink 1.20.5); the refusals on the driver."""
import datetime
import gzip

import pytest

from pyflink_on_spark.specs.tables import TableColumn
from pyflink_on_spark.table.table_connectors import connector_description


def _table(path, columns, **options):
    flink = {"connector": "filesystem", "path": str(path), "format": "csv"}
    flink.update({"csv." + k.replace("_", "-"): v for k, v in options.items()})
    return connector_description("t", flink, tuple(TableColumn(n, t) for n, t in columns))


def test_values_after_spaces_text_kept_files_whole_and_decompressed(spark, tmp_path):
    from pyflink_on_spark.spark.table_connectors import connector_frame
    (tmp_path / "a.csv").write_text("yu, 12, 2022-07-01 10:00:00\n, 7,2022-07-01 11:00:00\n")
    (tmp_path / "b.csv.gz").write_bytes(gzip.compress(b'"x\ny", 1 ,2022-07-01 12:00:00\n'))
    (tmp_path / ".hidden.csv").write_text("not, a, row\n")
    table = _table(tmp_path, [("a", "VARCHAR(10)"), ("b", "BIGINT"), ("ts", "TIMESTAMP(3)")])
    rows = sorted(tuple(r) for r in connector_frame(table, spark).collect())
    assert rows == [("", 7, datetime.datetime(2022, 7, 1, 11)),
                    ("x\ny", 1, datetime.datetime(2022, 7, 1, 12)),
                    ("yu", 12, datetime.datetime(2022, 7, 1, 10))]


def test_a_value_flink_fails_on_fails_the_read_naming_file_and_line(spark, tmp_path):
    from pyflink_on_spark.spark.table_connectors import connector_frame
    (tmp_path / "a.csv").write_text("x,1\ny,\n")
    frame = connector_frame(_table(tmp_path, [("a", "STRING"), ("b", "INT")]), spark)
    with pytest.raises(Exception, match=r'For input string: "" \(file .*a\.csv, line 2\)'):
        frame.collect()
    lenient = connector_frame(_table(tmp_path, [("a", "STRING"), ("b", "INT")],
                                     ignore_parse_errors="true"), spark)
    assert [tuple(r) for r in lenient.collect()] == [("x", 1), ("y", None)]


def test_columns_not_read_are_refused_on_the_driver(spark, tmp_path):
    from pyflink_on_spark.spark.table_connectors import connector_frame
    table = _table(tmp_path, [("a", "STRING"), ("ts", "TIMESTAMP_LTZ(3)")])
    with pytest.raises(NotImplementedError, match=r"csv column of type TIMESTAMP_LTZ\(3\) "
                                                  r"\(ts\)"):
        connector_frame(table, spark)


def test_an_insert_into_a_table_with_options_the_writer_does_not_follow_is_refused(spark):
    from pyflink_on_spark.specs.table_connectors import TableInsert
    from pyflink_on_spark.spark.table_connectors import run_insert
    target = _table("/tmp/never", [("a", "STRING")], escape_character="\\")
    with pytest.raises(NotImplementedError, match="'csv.escape-character' of the filesystem "
                                                  "connector is followed when the table is read"):
        run_insert(TableInsert(None, target, 1), spark)


def test_an_empty_directory_and_a_file_path(spark, tmp_path):
    from pyflink_on_spark.spark.table_connectors import connector_frame
    (tmp_path / "empty").mkdir()
    assert connector_frame(_table(tmp_path / "empty", [("a", "STRING")]), spark).collect() == []
    (tmp_path / "one.csv").write_text("q\n")
    assert [tuple(r) for r in connector_frame(_table(tmp_path / "one.csv", [("a", "STRING")]),
                                              spark).collect()] == [("q",)]


def test_files_are_opened_by_their_tasks_spark_reads_no_content(spark, tmp_path):
    """Spark lists the files; a task opens each by its path (a directory with a space in its
    name too) and streams it: a file over the 2 GB Spark's binaryFile content can hold is
    opened (sparse, its NUL bytes fail gzip's check at once), not refused by Spark."""
    from pyflink_on_spark.spark.table_connectors import connector_frame
    spaced = tmp_path / "a dir"
    spaced.mkdir()
    (spaced / "a.csv").write_text('1,"x\ny"\n2,z\n')
    table = _table(spaced, [("a", "INT"), ("b", "STRING")])
    assert sorted(tuple(r) for r in connector_frame(table, spark).collect()) == [
        (1, "x\ny"), (2, "z")]
    big = tmp_path / "big"
    big.mkdir()
    with open(big / "huge.csv.gz", "wb") as f:
        f.truncate(3 << 30)
    frame = connector_frame(_table(big, [("a", "STRING")]), spark)
    with pytest.raises(Exception, match="Not a gzipped file"):
        frame.collect()
