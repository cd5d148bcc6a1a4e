"""Records what Flink's own CsvReaderFormat (PyFlink 1.20) makes of malformed CSV.

Run with real PyFlink: `/opt/venvs/flink/bin/python probe_csv_reader.py > csv_reader_observed.json`.
No job runs: the Java reader is created through PyFlink's gateway and read directly
(StreamFormat.createReader over a local file), which is exactly what a FileSource split
reader does. Inputs are random strings over a small alphabet of CSV's special characters
(seeded, so the file is reproducible); test_csv_reader_matches_flink replays each input
through the shim's reader and compares records and error messages.
"""
import json
import os
import random
import sys
import tempfile

from pyflink.datastream.formats.csv import CsvReaderFormat, CsvSchema
from pyflink.java_gateway import get_gateway
from py4j.protocol import Py4JJavaError
from pyflink.table.types import DataTypes

PIECES = ["1", "23", "-4", "a", "bc", " ", ",", ",", ",", '"', '"', '""', "\n", "\n", "\r\n",
          "\r", "#", "\\", "|", "x y", "NULL", "1.5", ""]


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 14)))


def random_rows(rng: random.Random, schema: str) -> str:
    """A few nearly well-formed records: 1-4 fields, now and then a stray special piece."""
    sep = "|" if schema.startswith("pipe") else ","
    lines = []
    for _ in range(rng.randint(1, 4)):
        fields = []
        for _ in range(rng.choice([1, 2, 2, 2, 3, 3, 3, 4])):
            field = rng.choice(["1", "-4", "23", "a", "x y", '"q,uoted"', '"a""b"', "",
                                "NULL", '"multi\nline"', "b;c", "\\,", '"open'])
            if rng.random() < 0.15:
                field += rng.choice(PIECES)
            fields.append(field)
        lines.append(sep.join(fields))
    end = rng.choice(["\n", "\n", "\r\n", ""])
    return "\n".join(lines) + end


def schemas():
    yield "int_string", {}, CsvSchema.builder() \
        .add_number_column("id", number_type=DataTypes.INT()).add_string_column("name").build()
    yield "three_strings_escape_comments", {}, CsvSchema.builder() \
        .add_string_column("a").add_string_column("b").add_string_column("c") \
        .set_escape_char("\\").set_allow_comments(True).build()
    yield "pipe_header_null", {}, CsvSchema.builder() \
        .add_string_column("a").add_number_column("n", number_type=DataTypes.BIGINT()) \
        .set_column_separator("|").set_use_header().set_null_value("NULL").build()
    yield "no_quote_array", {}, CsvSchema.builder() \
        .add_string_column("a").add_array_column("xs", ";", DataTypes.STRING()) \
        .disable_quote_char().build()


def java_value(value):
    """A field of Flink's GenericRowData as JSON: text of scalars, lists for arrays."""
    if value is None:
        return None
    if isinstance(value, (int, float, str)):     # py4j converts boxed Java numbers
        return str(value)
    if value.getClass().getSimpleName() == "GenericArrayData":
        return [java_value(v) for v in value.toObjectArray()]
    return str(value.toString())


def row_values(row):
    return [java_value(row.getField(i)) for i in range(row.getArity())]


def read_all(j_format, path, jvm):
    j_path = jvm.org.apache.flink.core.fs.Path(path)
    fs = j_path.getFileSystem()
    length = fs.getFileStatus(j_path).getLen()
    stream = fs.open(j_path)
    rows = []
    reader = None
    try:
        reader = j_format.createReader(jvm.org.apache.flink.configuration.Configuration(),
                                       stream, length, length)
        while True:
            row = reader.read()
            if row is None:
                return rows, None
            rows.append(row_values(row))
    except Py4JJavaError as e:   # keep the causes' messages, innermost last
        text = str(e)
        causes = [line.split(": ", 1)[1] for line in text.splitlines()
                  if ("Exception: " in line or "Error: " in line) and ": " in line]
        return rows, causes or [text.splitlines()[0]]
    finally:
        if reader is not None:
            reader.close()
        else:
            stream.close()


def main(count: int = 150, seed: int = 17) -> None:
    jvm = get_gateway().jvm
    rng = random.Random(seed)
    root = tempfile.mkdtemp()
    out = []
    for name, _, schema in schemas():
        j_format = CsvReaderFormat.for_schema(schema)._j_stream_format
        for i in range(count):
            text = random_text(rng) if i % 2 else random_rows(rng, name)
            path = os.path.join(root, "%s_%d.csv" % (name, i))
            with open(path, "w", newline="") as f:
                f.write(text)
            rows, errors = read_all(j_format, path, jvm)
            out.append({"schema": name, "input": text, "rows": rows, "errors": errors})
    json.dump(out, sys.stdout, indent=0)


if __name__ == "__main__":
    main()
