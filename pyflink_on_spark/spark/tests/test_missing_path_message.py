"""A missing input path is reported whole (PyFlink: "The provided file path
/tmp/x/does_not_exist.txt does not exist."), not cut at its first dot."""
from pyflink_on_spark.spark.file_source import missing_path


def test_missing_path_keeps_dots_and_drops_spark_scheme():
    text = ("[PATH_NOT_FOUND] Path does not exist: file:/tmp/x/does_not_exist.txt. "
            "SQLSTATE: 42K03")
    assert missing_path(text) == "/tmp/x/does_not_exist.txt"
    assert missing_path("Path does not exist: hdfs://nn/a.b/c.csv.gz.") == "hdfs://nn/a.b/c.csv.gz"
    assert missing_path("something else") == ""


def test_read_text_file_on_a_missing_path_names_the_whole_path(spark, tmp_path):
    import pytest
    from pyflink_on_spark.spark.file_source import list_files
    path = str(tmp_path / "x" / "does_not_exist.txt")
    with pytest.raises(FileNotFoundError, match=str(path).replace(".", r"\.") + " does not"):
        list_files(spark, [path])
