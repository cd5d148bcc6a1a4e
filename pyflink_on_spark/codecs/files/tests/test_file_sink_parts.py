"""The file sink's writer and committer without Spark: part names, rolling, buckets, staging,
publish only on commit. Facts from PyFlink 1.20: FileSink parts are named
"<prefix>-<uuid>-<counter><suffix>" (a random uuid per subtask), the default bucket is the
hour "yyyy-MM-dd--HH"; with part_size=7 the records aaaa..eeee rolled into
[aaaa, bbbb], [cccc, dddd], [eeee] (a part rolls once its size exceeds part_size)."""
import datetime
import os
import re

import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.types import Row
from pyflink_on_spark.codecs.files.buckets import (BasePathBuckets, DateTimeBuckets,
                                                    java_pattern_to_strftime)
from pyflink_on_spark.codecs.files.commit import FileCommitter
from pyflink_on_spark.codecs.files.rolling import CheckpointRolling, DefaultRolling
from pyflink_on_spark.codecs.files.writers import CsvBulkFormat, SimpleStringRowFormat
from pyflink_on_spark.codecs.formats.csv import CsvDialect
from pyflink_on_spark.codecs.formats.fields import Field
from pyflink_on_spark.runtime.operators.file_sink import FileSinkOperator
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.specs.sinks import STAGING_PREFIX, FileSinkSpec

UUID_NAME = re.compile(r"^part-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\d+$")


def _spec(base, type_info=Types.STRING(), **kw):
    settings = dict(base_path=str(base), writer=SimpleStringRowFormat().bind(type_info),
                    buckets=BasePathBuckets(), rolling=DefaultRolling(),
                    converter=type_info._python_converter() if type_info else None,
                    staging_token="t1")
    settings.update(kw)
    return FileSinkSpec(**settings)


def _run(spec, values, subtask=0, attempt=0, clock=lambda: 0):
    """The committables one sink subtask emits for `values` (its whole input)."""
    harness = OperatorHarness(FileSinkOperator(spec), name="FileSink", subtask_index=subtask,
                              parallelism=2, attempt_number=attempt, clock=clock)
    return harness.elements((v, None) for v in values).end().values()


def _visible(base):
    found = {}
    for root, dirs, files in os.walk(base):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for f in files:
            path = os.path.join(root, f)
            found[os.path.relpath(path, base)] = open(path).read()
    return found


def test_parts_are_staged_hidden_and_published_only_on_commit(tmp_path):
    spec = _spec(tmp_path)
    committables = _run(spec, ["a", "b"])
    assert _visible(tmp_path) == {}
    (staged, final), = committables
    assert staged.startswith(str(tmp_path / (STAGING_PREFIX + "t1")) + "/0-0/")
    assert os.path.dirname(final) == str(tmp_path)
    assert UUID_NAME.match(os.path.basename(final)), final
    assert open(staged).read() == "a\nb\n"
    FileCommitter(spec).commit(committables)
    assert _visible(tmp_path) == {os.path.basename(final): "a\nb\n"}
    assert os.listdir(tmp_path) == [os.path.basename(final)]    # staging removed


def test_abort_removes_everything_staged(tmp_path):
    spec = _spec(tmp_path)
    _run(spec, ["a"])
    assert os.listdir(tmp_path) == [STAGING_PREFIX + "t1"]
    FileCommitter(spec).abort()
    assert os.listdir(tmp_path) == []


def test_rolling_on_part_size_as_observed(tmp_path):
    spec = _spec(tmp_path, rolling=DefaultRolling(part_size=7))
    committables = _run(spec, ["aaaa", "bbbb", "cccc", "dddd", "eeee"])
    FileCommitter(spec).commit(committables)
    files = _visible(tmp_path)
    by_counter = {int(name.rsplit("-", 1)[1]): text for name, text in files.items()}
    assert by_counter == {0: "aaaa\nbbbb\n", 1: "cccc\ndddd\n", 2: "eeee\n"}
    assert len({name.rsplit("-", 1)[0] for name in files}) == 1   # one uuid per subtask


def test_rolling_on_time_and_inactivity():
    policy = DefaultRolling(rollover_interval=100, inactivity_interval=50)
    assert not policy.should_roll_on_time(0, 10, 40)
    assert policy.should_roll_on_time(0, 10, 60)       # idle 50 ms
    assert policy.should_roll_on_time(0, 99, 100)      # open 100 ms
    assert not CheckpointRolling().should_roll_on_event(10 ** 12)


def test_prefix_suffix_and_streaming_file_sink_naming(tmp_path):
    spec = _spec(tmp_path, part_prefix="pre", part_suffix=".txt")
    (_, final), = _run(spec, ["x"])
    assert re.match(r"^pre-[0-9a-f-]{36}-0\.txt$", os.path.basename(final))
    legacy = _spec(tmp_path, part_prefix="pp", part_suffix=".ss", naming="subtask")
    (_, final), = _run(legacy, ["x"], subtask=1)
    assert os.path.basename(final) == "pp-1-0.ss"


def test_records_are_written_as_java_to_string_of_the_declared_type(tmp_path):
    row_type = Types.ROW([Types.INT(), Types.STRING()])
    spec = _spec(tmp_path, type_info=row_type)
    (staged, _), = _run(spec, [Row(1, "a"), Row(2, None)])
    # observed on PyFlink: FileSink writes Row.toString, "+I[1, a]" (print() shows +I[1,a])
    assert open(staged).read() == "+I[1, a]\n+I[2, null]\n"
    tuple_type = Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()])
    spec = _spec(tmp_path / "t", type_info=tuple_type)
    (staged, _), = _run(spec, [(1, "a", 1.5), (2, "b", 1e-07)])
    assert open(staged).read() == "(1,a,1.5)\n(2,b,1.0E-7)\n"


def test_date_time_buckets():
    moment = datetime.datetime(2024, 3, 5, 7, 8, 9, 123000, tzinfo=datetime.timezone.utc)
    ms = int(moment.timestamp() * 1000)
    assert DateTimeBuckets(timezone_id="UTC").bucket_id(None, ms) == "2024-03-05--07"
    assert DateTimeBuckets("yyyy/MM/dd/HH'h'mm", "UTC").bucket_id(None, ms) == "2024/03/05/07h08"
    assert DateTimeBuckets("yyyyMMdd-HHmmss.SSS", "GMT-08:00").bucket_id(None, ms) == \
        "20240304-230809.123"
    assert java_pattern_to_strftime("yyyy-MM-dd--HH") == "%Y-%m-%d--%H"
    with pytest.raises(ValueError, match="pattern letter"):
        DateTimeBuckets("yyyy-QQ")


def test_records_go_to_their_bucket_directory(tmp_path):
    class FirstLetter:
        def bucket_id(self, value, now):
            return value[0]

    spec = _spec(tmp_path, buckets=FirstLetter())
    committables = _run(spec, ["ab", "ba", "ac"])
    FileCommitter(spec).commit(committables)
    files = _visible(tmp_path)
    assert sorted((os.path.dirname(n), t) for n, t in files.items()) == \
        [("a", "ab\nac\n"), ("b", "ba\n")]


def test_csv_bulk_parts(tmp_path):
    fields = [Field("long"), Field("string")]
    spec = _spec(tmp_path, writer=CsvBulkFormat(fields, CsvDialect()), rolling=CheckpointRolling(),
                 type_info=Types.ROW_NAMED(["id", "name"], [Types.LONG(), Types.STRING()]))
    (staged, _), = _run(spec, [Row(1, "a,b"), Row(2, 'q"x')])
    assert open(staged).read() == '1,"a,b"\n2,"q""x"\n'     # observed on PyFlink
