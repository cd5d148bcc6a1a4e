"""A FileSource subtask reading a file itself (specs.sources.FileToRead): the reader returns
the file's records in chunks, and the source sends each chunk on before it reads the next
(so a big file is never held whole), pausing between steps as for any split."""
from pyflink_on_spark.codecs.formats.text import TextLineFormat
from pyflink_on_spark.graph.sources import FileSplitReader
from pyflink_on_spark.runtime.operators.source import PROGRESS_RECORDS, SourceOperator
from pyflink_on_spark.runtime.testing import OperatorHarness
from pyflink_on_spark.specs.sources import FileToRead, RecordChunks


def test_a_file_split_is_read_by_the_format_and_a_chunk_passes_through(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"x\r\ny\n")
    reader = FileSplitReader(TextLineFormat())
    read = reader(FileToRead(str(path)))
    assert isinstance(read, RecordChunks)
    assert [line for chunk in read.chunks for line in chunk] == ["x", "y"]
    assert reader(["already", "read"]) == ["already", "read"]


def test_each_chunk_goes_on_before_the_next_is_read():
    events = []
    harness = OperatorHarness(SourceOperator(reader=None), name="Source: files")
    harness.operator.output.collect_many = \
        lambda values, timestamp: events.append(("sent", len(values)))

    def chunks():
        for n in range(3):
            events.append(("read", n))
            yield ["r%d" % i for i in range(PROGRESS_RECORDS + 1)]

    harness.operator.reader = lambda split: RecordChunks(chunks())
    steps = list(harness.operator.read_split("a file"))
    # each chunk: a full step of PROGRESS_RECORDS records and a step of one, then the next
    assert events == [("read", 0), ("sent", PROGRESS_RECORDS), ("sent", 1),
                      ("read", 1), ("sent", PROGRESS_RECORDS), ("sent", 1),
                      ("read", 2), ("sent", PROGRESS_RECORDS), ("sent", 1)]
    assert len(steps) == 6


def test_chunked_records_get_the_sources_timestamps_when_it_has_a_strategy():
    from pyflink_on_spark.common.watermark_strategy import (TimestampAssigner,
                                                            WatermarkStrategy)

    class FromValue(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return int(value)

    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(
        FromValue())
    harness = OperatorHarness(SourceOperator(lambda split: RecordChunks(iter([["5", "7"],
                                                                              ["9"]])),
                                             strategy), name="Source: files")
    harness.operator.process_split("a file")
    assert harness.out == [("5", 5), ("7", 7), ("9", 9)]


def test_a_file_gone_since_the_listing_is_named(tmp_path):
    import pytest
    missing = str(tmp_path / "gone.txt")
    read = FileSplitReader(TextLineFormat())(FileToRead(missing))
    with pytest.raises(FileNotFoundError,
                       match="FileSource: .*gone.txt was listed when the job started and "
                             "is gone now"):
        list(read.chunks)
