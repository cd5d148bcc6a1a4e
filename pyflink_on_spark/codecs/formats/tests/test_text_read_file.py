"""A text file read by the task itself (read_file): in blocks, with the lines decode_file
gives for the whole file's bytes, whatever the block size."""
import bz2
import gzip
import lzma
import zlib

import pytest

from pyflink_on_spark.codecs.formats.text import (TextInputFormat, TextLineFormat,
                                                   read_block_lines, read_lines,
                                                   split_java_lines,
                                                   split_text_input_format_lines)

COMPRESS = {"": lambda data: data, ".gz": gzip.compress, ".bz2": bz2.compress,
            ".xz": lzma.compress, ".deflate": zlib.compress}

# a "\r\n" cut by a block end, a last line without terminator, empty lines, a lone "\r",
# characters of two to four UTF-8 bytes, a malformed byte, separators Java does not break at
TEXTS = ["c1\r\nc2\rc3\n\nc5", "a\r", "\r\r\n\n", "é€😀\né\r\nx\x85y\u2028z", "", "\n",
         "no terminator at all"]


def _lines_by_blocks(fmt, path, size):
    split = split_java_lines if type(fmt) is TextLineFormat else split_text_input_format_lines
    breaks = "\r\n" if type(fmt) is TextLineFormat else "\n"
    return [line for chunk in read_lines(path, fmt.codec, split, breaks, size)
            for line in chunk]


@pytest.mark.parametrize("extension", sorted(COMPRESS))
@pytest.mark.parametrize("fmt", [TextLineFormat(), TextLineFormat("UTF-16"),
                                 TextInputFormat()], ids=repr)
def test_lines_read_in_blocks_are_the_lines_of_the_whole_file(tmp_path, fmt, extension):
    for n, text in enumerate(TEXTS):
        data = text.encode(fmt.codec) + (b"\xff" if fmt.codec == "utf-8" and n == 3 else b"")
        path = str(tmp_path / ("f%d.txt%s" % (n, extension)))
        with open(path, "wb") as f:
            f.write(COMPRESS[extension](data))
        whole = fmt.decode_file(path, COMPRESS[extension](data))
        for size in (1, 2, 3, 7, 1 << 20):
            assert _lines_by_blocks(fmt, path, size) == whole, (text, size)
        assert [line for chunk in fmt.read_file(path) for line in chunk] == whole


def test_a_big_file_leaves_in_chunks_of_about_the_block_size(tmp_path):
    path = str(tmp_path / "big.txt")
    lines = ["line %06d" % i for i in range(20000)]     # 12 bytes a line
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    chunks = list(read_lines(path, "utf-8", split_java_lines, "\r\n", size=12 * 1000))
    assert [line for chunk in chunks for line in chunk] == lines
    assert len(chunks) == 20
    assert max(map(len, chunks)) <= 1001


def test_a_truncated_deflate_file_fails_as_decode_file_does(tmp_path):
    path = str(tmp_path / "cut.deflate")
    with open(path, "wb") as f:
        f.write(zlib.compress(b"a\nb\n" * 100)[:-6])
    with pytest.raises(zlib.error, match="incomplete or truncated"):
        TextLineFormat().decode_file(path, open(path, "rb").read())
    with pytest.raises(zlib.error, match="incomplete or truncated"):
        list(TextLineFormat().read_file(path))


def test_a_whole_file_format_reads_the_file_at_once(tmp_path):
    from pyflink_on_spark.codecs.formats.csv import CsvFileFormat
    assert "read_file" not in vars(CsvFileFormat)     # the base class's: decode_file


def test_a_files_blocks_read_apart_give_each_line_once_in_order(tmp_path):
    # read_text_file's blocks (a line belongs to the block its first byte follows): whatever
    # the block size, the lines of all blocks are the whole file's lines
    import random
    rnd = random.Random(7)
    path = str(tmp_path / "f.txt")
    for _ in range(300):
        data = "".join(rnd.choice(["a", "bc", "\n", "\r", "é", "\n\n", "\r\n"])
                       for _ in range(rnd.randint(0, 30))).encode()
        with open(path, "wb") as f:
            f.write(data)
        whole = TextInputFormat().decode_file(path, data)
        unit = rnd.randint(1, 12)
        for size in (1, 3, 1 << 20):
            lines = [line for start in range(0, len(data), unit)
                     for chunk in read_block_lines(path, start, min(start + unit, len(data)),
                                                   size=size)
                     for line in chunk]
            assert lines == whole, (data, unit, size)
