"""What a file source format is to its readers: a decoder of records (no reader settings:
how a given engine reads the files, e.g. Spark's data source and options, lives with that
engine, spark/file_formats.py)."""
from __future__ import annotations

from typing import Iterator, Sequence


class FileRecordFormat:
    """Turns what a reader read of a file into the records PyFlink's format produces.

    Instances travel into tasks and must pickle. `produced_type` (a TypeInformation) is what
    the source declares.
    """

    produced_type = None

    def decode_batch(self, batch) -> list:
        """A pyarrow RecordBatch of the format's columns (rows of one file, in file order) ->
        the records, in order."""
        raise NotImplementedError

    def decode_file(self, path: str, content: bytes) -> Sequence:
        """A whole file's bytes -> its records (for files a reader cannot decode as Flink
        does, e.g. other charsets or compressions)."""
        raise NotImplementedError("%s cannot decode whole files" % type(self).__name__)

    def read_file(self, path: str) -> Iterator[list]:
        """A local file's records, in file order, as lists (for a task that reads the file
        itself: spark/file_source.py). By default the whole file at once (decode_file); a
        format that can stream its records yields them in chunks of bounded size."""
        with open(path, "rb") as f:
            content = f.read()
        return self.read_content(path, content)

    def read_content(self, path: str, content: bytes) -> Iterator[list]:
        """read_file over the file's bytes, read by someone else (a Spark reader of whole
        files): its records in file order, as lists."""
        yield list(self.decode_file(path, content))
