"""Text lines as Flink's TextLineInputFormat reads them.

Java's BufferedReader.readLine ends a line at "\\n", "\\r" or "\\r\\n"; a last line without
terminator is kept; empty lines are kept. Flink's stream formats decompress by file
extension (".deflate", ".xz", ".bz2", ".gz", ".gzip"). A reader that splits lines the same
way (Spark's text reader) hands its lines to decode_batch; files it cannot decode (other
extensions, non-UTF-8 charsets: spark/file_formats.py) are decoded here from their bytes.
"""
from __future__ import annotations

import bz2
import codecs
import gzip
import io
import lzma
import re
import zlib
from typing import Callable, Iterator, List, Optional

from pyflink_on_spark.codecs.formats.base import FileRecordFormat

_LINE_BREAK = re.compile(r"\r\n|\r|\n")

# extensions Flink's StreamFormat decompresses
FLINK_COMPRESSED = (".deflate", ".xz", ".bz2", ".gz", ".gzip")


def python_codec(charset: str) -> str:
    """A Java charset name -> the Python codec name (fails like Charset.forName)."""
    try:
        return codecs.lookup(charset).name
    except (LookupError, TypeError):
        raise ValueError("java.nio.charset.UnsupportedCharsetException: %s" % charset) from None


def decompress(path: str, content: bytes) -> bytes:
    """The file's bytes, decompressed as Flink's StreamFormatAdapter does (by extension)."""
    name = path.lower()
    if name.endswith((".gz", ".gzip")):
        return gzip.decompress(content)
    if name.endswith(".bz2"):
        return bz2.decompress(content)
    if name.endswith(".xz"):
        return lzma.decompress(content, format=lzma.FORMAT_XZ)
    if name.endswith(".deflate"):
        return zlib.decompress(content)
    return content


# bytes of a file read at a time by a task that reads a text file itself (read_file): its
# records leave in lists of this much text, whatever the file's size
READ_BYTES = 1 << 20


def _byte_blocks(path: str, size: int, content: Optional[bytes] = None) -> Iterator[bytes]:
    """The file's bytes (or `content`, the bytes of the file `path`), decompressed by
    extension as decompress() does, `size` at a time."""
    def raw():
        return io.BytesIO(content) if content is not None else open(path, "rb")

    name = path.lower()
    if name.endswith(".deflate"):
        inflater = zlib.decompressobj()
        with raw() as f:
            for block in iter(lambda: f.read(size), b""):
                yield inflater.decompress(block)
        yield inflater.flush()
        if not inflater.eof:
            raise zlib.error("Error -5 while decompressing data: incomplete or truncated "
                             "stream")
        return
    if name.endswith((".gz", ".gzip")):
        opened = gzip.open(raw(), "rb")
    elif name.endswith(".bz2"):
        opened = bz2.open(raw(), "rb")
    elif name.endswith(".xz"):
        opened = lzma.open(raw(), "rb", format=lzma.FORMAT_XZ)
    else:
        opened = raw()
    with opened as f:
        yield from iter(lambda: f.read(size), b"")


def read_lines(path: str, codec: str, split: Callable[[str], List[str]], breaks: str,
               size: int = READ_BYTES, content: Optional[bytes] = None) -> Iterator[List[str]]:
    """A text file's lines, as `split` cuts whole text into lines, in lists of about `size`
    bytes of text: each block of text is cut after its last complete line (a line break
    from `breaks`, but not a "\r" ending the block, which a "\n" may follow), the rest
    waits for the next block (in pieces: a line of a gigabyte is joined once). Malformed
    bytes become U+FFFD, as decode_file decodes them. `content`: the file's bytes, read by
    someone else (a Spark reader of whole files)."""
    decoder = codecs.getincrementaldecoder(codec)(errors="replace")
    tail: List[str] = []          # the text after the last complete line
    for block in _byte_blocks(path, size, content):
        text = decoder.decode(block)
        cut = max(text.rfind(mark) for mark in breaks)
        if cut >= 0 and cut == len(text) - 1 and text[cut] == "\r":
            cut = max(text.rfind(mark, 0, cut) for mark in breaks)
        if cut < 0:
            tail.append(text)
            continue
        tail.append(text[:cut + 1])
        yield split("".join(tail))
        tail = [text[cut + 1:]]
    tail.append(decoder.decode(b"", final=True))
    text = "".join(tail)
    if text:
        yield split(text)


def read_block_lines(path: str, start: int, end: int, codec: str = "utf-8",
                     size: int = READ_BYTES) -> Iterator[List[str]]:
    """The "\n"-terminated lines of an uncompressed file that start in the byte range
    (start, end], or [0, end] for the first block, as Hadoop's LineRecordReader (Spark's text
    reader) gives a file's block its lines: a block after the first skips through its first
    "\n", and reads on past its end to finish its last line. Each line is decoded as
    decode_file does (malformed bytes: U+FFFD), one trailing "\r" removed
    (TextInputFormat); lists of about `size` bytes of lines."""
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(size)           # bytes from file offset `position` on
        position = start
        if start > 0:                 # the line cut by the block's start is the last block's
            while True:
                if not data:
                    return
                cut = data.find(b"\n")
                if cut >= 0:
                    data, position = data[cut + 1:], position + cut + 1
                    break
                position += len(data)
                data = f.read(size)
            if position > end:        # no line starts in the block
                return
        line: List[bytes] = []        # the bytes of a line of the block not ended yet
        while True:
            # the first "\n" at or after `end` closes the block's last line
            last = data.find(b"\n", max(0, end - position))
            if last >= 0:
                line.append(data[:last + 1])
                yield _input_format_lines(b"".join(line), codec)
                return
            cut = data.rfind(b"\n")  # every "\n" here is before `end`
            if cut >= 0:
                line.append(data[:cut + 1])
                yield _input_format_lines(b"".join(line), codec)
                line = [data[cut + 1:]]
            else:
                line.append(data)
            position += len(data)
            data = f.read(size)
            if not data:
                rest = b"".join(line)
                if rest:
                    yield _input_format_lines(rest, codec)
                return


def _input_format_lines(data: bytes, codec: str) -> List[str]:
    return split_text_input_format_lines(data.decode(codec, errors="replace"))


def split_java_lines(text: str) -> List[str]:
    """Lines as java.io.BufferedReader.readLine returns them."""
    if not text:
        return []
    # most text has no "\r": str.split is several times faster than the pattern's split
    lines = _LINE_BREAK.split(text) if "\r" in text else text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the text ended with a line terminator
    return lines


def _lines_of(column) -> List[str]:
    """A line reader may pass bytes through unchecked (Spark's does): malformed UTF-8 becomes
    U+FFFD, as Java's InputStreamReader decodes it."""
    try:
        return column.to_pylist()
    except UnicodeDecodeError:
        import pyarrow as pa
        return [None if b is None else b.decode("utf-8", "replace")
                for b in column.view(pa.binary()).to_pylist()]


class TextLineFormat(FileRecordFormat):
    """StreamFormat.text_line_format(charset): one str record per line."""

    def __init__(self, charset: str = "UTF-8") -> None:
        self.charset = charset
        self.codec = python_codec(charset)

    @property
    def produced_type(self):
        from pyflink_on_spark.common.typeinfo import Types
        return Types.STRING()

    def decode_batch(self, batch) -> list:
        return _lines_of(batch.column(0))

    def decode_file(self, path: str, content: bytes) -> List[str]:
        text = decompress(path, content).decode(self.codec, errors="replace")
        return split_java_lines(text)

    def read_file(self, path: str) -> Iterator[List[str]]:
        return read_lines(path, self.codec, split_java_lines, "\r\n")

    def read_content(self, path: str, content: bytes) -> Iterator[List[str]]:
        return read_lines(path, self.codec, split_java_lines, "\r\n", content=content)

    def __repr__(self) -> str:
        return "TextLineInputFormat(%s)" % self.charset


def split_text_input_format_lines(text: str) -> List[str]:
    """Lines as Flink's legacy TextInputFormat (env.read_text_file) reads them: split at
    "\n" only, one trailing "\r" removed ("a\rb" stays one line; observed on PyFlink)."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


class TextInputFormat(TextLineFormat):
    """env.read_text_file: TextLineFormat's reading with TextInputFormat's line splitting
    (lines end at "\n" only)."""

    def decode_batch(self, batch) -> list:
        return [line[:-1] if line.endswith("\r") else line
                for line in _lines_of(batch.column(0))]

    def decode_file(self, path: str, content: bytes) -> List[str]:
        text = decompress(path, content).decode(self.codec, errors="replace")
        return split_text_input_format_lines(text)

    def read_file(self, path: str) -> Iterator[List[str]]:
        return read_lines(path, self.codec, split_text_input_format_lines, "\n")

    def read_content(self, path: str, content: bytes) -> Iterator[List[str]]:
        return read_lines(path, self.codec, split_text_input_format_lines, "\n",
                          content=content)

    def read_block(self, path: str, start: int, end: int) -> Iterator[List[str]]:
        """The lines of an uncompressed file's block [start, end) (read_block_lines)."""
        return read_block_lines(path, start, end, self.codec)

    def __repr__(self) -> str:
        return "TextInputFormat(%s)" % self.charset
