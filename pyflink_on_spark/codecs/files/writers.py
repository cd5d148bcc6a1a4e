"""Part-file writers: how records become the bytes of one part file.

Row formats (Encoder.simple_string_encoder) write each record's Java toString and "\\n" as it
comes; bulk formats (CSV, Parquet, ORC) write a whole part, Parquet/ORC through pyarrow.
Every writer receives records already converted to the stream's declared type (as the Java
sink receives them in PyFlink).
"""
from __future__ import annotations

from typing import Any, BinaryIO, Callable, Optional, Sequence

from pyflink_on_spark.codecs.formats.text import python_codec


class PartWriter:
    def write(self, value) -> None:
        raise NotImplementedError

    @property
    def size(self) -> int:
        """Bytes written so far (what DefaultRollingPolicy compares with part_size)."""
        return 0

    def finish(self) -> None:
        """Write what is buffered and close the stream."""
        raise NotImplementedError

    def discard(self) -> None:
        """Close the stream after a failure (the staged file is removed with its directory)."""
        try:
            self._stream.close()
        except Exception:
            pass


class PartWriterFactory:
    """Picklable description of a format; bind() fixes the declared input type."""

    bulk = False

    def bind(self, type_info) -> "PartWriterFactory":
        return self

    def open(self, stream: BinaryIO) -> PartWriter:
        raise NotImplementedError


# -- row format --------------------------------------------------------------------------------

class _RowPartWriter(PartWriter):
    def __init__(self, stream: BinaryIO, render: Callable[[Any], str], codec: str) -> None:
        self._stream = stream
        self._render = render
        self._codec = codec
        self._size = 0

    def write(self, value) -> None:
        data = (self._render(value) + "\n").encode(self._codec)
        self._stream.write(data)
        self._size += len(data)

    @property
    def size(self) -> int:
        return self._size

    def finish(self) -> None:
        self._stream.close()


class SimpleStringRowFormat(PartWriterFactory):
    """Encoder.simple_string_encoder(charset): Java's toString of the record + "\\n". What
    toString gives depends on the declared type: "+I[1, a]" for a Row, "(1,a)" for a
    tuple, "1.0E-7" for a double; a stream without declared type holds pickled bytes in
    Java, written as "[B@<hash>" (the shim's hash is a deterministic stand-in)."""

    def __init__(self, charset: str = "UTF-8", type_info=None) -> None:
        self.charset = charset
        self.codec = python_codec(charset)
        self.type_info = type_info

    def bind(self, type_info) -> "SimpleStringRowFormat":
        return SimpleStringRowFormat(self.charset, type_info)

    def open(self, stream: BinaryIO) -> PartWriter:
        type_info = self.type_info
        if type_info is None:
            from pyflink_on_spark.common.typeinfo import PickledBytesTypeInfo
            type_info = PickledBytesTypeInfo()
        return _RowPartWriter(stream, type_info._java_str, self.codec)

    def __repr__(self) -> str:
        return "SimpleStringEncoder(%s)" % self.charset


# -- bulk formats ------------------------------------------------------------------------------

class _CsvPartWriter(PartWriter):
    def __init__(self, stream: BinaryIO, writer) -> None:
        self._stream = stream
        self._writer = writer

    def write(self, value) -> None:
        self._stream.write(self._writer.line(value).encode("utf-8"))

    def finish(self) -> None:
        self._stream.close()


class CsvBulkFormat(PartWriterFactory):
    """CsvBulkWriters.for_schema(schema): one CSV line per Row, Jackson's quoting."""

    bulk = True

    def __init__(self, fields: Sequence, dialect) -> None:
        self.fields = tuple(fields)
        self.dialect = dialect

    def open(self, stream: BinaryIO) -> PartWriter:
        from pyflink_on_spark.codecs.formats.csv import CsvRowWriter
        return _CsvPartWriter(stream, CsvRowWriter(self.fields, self.dialect))


class _ArrowPartWriter(PartWriter):
    """Buffers rows and writes them as row groups / stripes of `batch_rows`."""

    def __init__(self, stream: BinaryIO, fmt: "ArrowBulkFormat") -> None:
        self._stream = stream
        self._fmt = fmt
        self._rows: list = []
        self._writer = None

    def write(self, value) -> None:
        self._rows.append(value)
        if len(self._rows) >= self._fmt.batch_rows:
            self._flush()

    def _flush(self) -> None:
        from pyflink_on_spark.codecs.formats.arrow_rows import rows_to_table
        table = rows_to_table(self._rows, self._fmt.field, self._fmt.schema())
        self._rows = []
        if self._writer is None:
            self._writer = self._fmt.new_writer(self._stream)
        self._writer.write(table)

    def finish(self) -> None:
        if self._rows or self._writer is None:
            self._flush()
        self._writer.close()
        if not self._stream.closed:
            self._stream.close()


class ArrowBulkFormat(PartWriterFactory):
    """ParquetBulkWriters.for_row_type / OrcBulkWriters.for_row_type (written with pyarrow)."""

    bulk = True

    def __init__(self, kind: str, field, batch_rows: int = 65536,
                 options: Optional[dict] = None) -> None:
        self.kind = kind            # parquet | orc
        self.field = field          # a codecs.formats.fields.Field of kind "row"
        self.batch_rows = batch_rows
        self.options = dict(options or {})

    def schema(self):
        from pyflink_on_spark.codecs.formats.arrow_rows import arrow_schema
        return arrow_schema(self.field)

    def new_writer(self, stream: BinaryIO):
        if self.kind == "parquet":
            import pyarrow.parquet as pq
            return pq.ParquetWriter(stream, self.schema(), **self.options)
        import pyarrow as pa
        import pyarrow.orc as orc
        return orc.ORCWriter(pa.PythonFile(stream, mode="w"), **self.options)

    def open(self, stream: BinaryIO) -> PartWriter:
        return _ArrowPartWriter(stream, self)

    def __repr__(self) -> str:
        return "%sBulkWriter(%s)" % (self.kind.capitalize(), self.field)


class _AvroPartWriter(PartWriter):
    def __init__(self, stream: BinaryIO, schema_json: str) -> None:
        from pyflink_on_spark.codecs.formats.avro import ContainerWriter
        self._stream = stream
        self._writer = ContainerWriter(stream, schema_json)

    def write(self, value) -> None:
        self._writer.append(value)

    def finish(self) -> None:
        self._writer.close()


class AvroBulkFormat(PartWriterFactory):
    """AvroBulkWriters.for_generic_record(schema): Avro object container files (records are
    dicts, as GenericRecords are in PyFlink; codec "null")."""

    bulk = True

    def __init__(self, schema_json: str) -> None:
        self.schema_json = schema_json

    def open(self, stream: BinaryIO) -> PartWriter:
        return _AvroPartWriter(stream, self.schema_json)

    def __repr__(self) -> str:
        return "AvroBulkWriter(%s)" % self.schema_json
