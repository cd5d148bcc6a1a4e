"""TableResult.print(): Flink's tableau rendering of a result, as PyFlink 1.20.5 prints it
(compat_tests/cases/table/result_print.py): column widths from the column types (a string
column 30 wide, longer values cut to 27 characters and "..."), at least the header's and
"<NULL>"'s width, values right-aligned, an `op` column of row kinds in STREAMING mode, then
"N rows in set", or "Empty set" alone."""
from __future__ import annotations

import datetime
import decimal
import re
from typing import Iterable, List, Sequence, Tuple

from pyflink_on_spark.common._java_text import java_double_str, java_float_str
from pyflink_on_spark.specs.tables import TableColumn

_NULL = "<NULL>"
_MAX_WIDTH = 30
_FIXED = {"BOOLEAN": 5, "TINYINT": 4, "SMALLINT": 6, "INT": 11, "BIGINT": 20, "DATE": 10}
_KINDS = ("+I", "-U", "+U", "-D")


def type_width(sql_type: str) -> int:
    """The width Flink derives from a column's type."""
    fixed = _FIXED.get(sql_type)
    if fixed is not None:
        return fixed
    decimal_type = re.match(r"DECIMAL\((\d+), \d+\)$", sql_type)
    if decimal_type:
        return int(decimal_type.group(1)) + 2
    timestamp = re.match(r"TIMESTAMP(?:_LTZ)?\((\d)\)$", sql_type)
    if timestamp:
        precision = int(timestamp.group(1))
        return 19 + (precision + 1 if precision else 0)
    return _MAX_WIDTH


def value_text(value, sql_type: str) -> str:
    if value is None:
        return _NULL
    if sql_type.startswith(("ARRAY<", "MAP<", "ROW<")):
        from pyflink_on_spark.table.sql.flink_types import parse_type
        return _nested_text(value, parse_type(sql_type))
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return java_float_str(value) if sql_type == "FLOAT" else java_double_str(value)
    if isinstance(value, decimal.Decimal):
        scale = re.match(r"DECIMAL\(\d+, (\d+)\)$", sql_type)
        return str(value.quantize(decimal.Decimal(1).scaleb(-int(scale.group(1))))) \
            if scale else str(value)
    if isinstance(value, datetime.datetime):
        precision = re.search(r"\((\d)\)$", sql_type)
        digits = int(precision.group(1)) if precision else 6
        text = value.strftime("%Y-%m-%d %H:%M:%S")
        # Spark keeps microseconds: digits past them (TIMESTAMP(9)) are zeros
        return text + ("." + ("%06d000" % value.microsecond)[:digits] if digits else "")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return "x'%s'" % value.hex()       # BYTES: x'6162', as PyFlink 1.20.5 prints them
    return str(value)


def _nested_text(value, data_type) -> str:
    """An ARRAY, MAP or ROW value as Flink's tableau prints it (seen on PyFlink 1.20.5:
    `[x, y]`, `{1=1.5}`, `(1, [2])`), its elements printed by their own types, a NULL inside
    as `NULL` (seen: `[x, NULL]`, `(NULL, u)`; a NULL column is `<NULL>`)."""
    from pyflink_on_spark.table.sql.flink_types import flink_type_string
    from pyflink_on_spark.table import types as dt
    if value is None:
        return "NULL"
    if isinstance(data_type, dt.ArrayType):
        return "[%s]" % ", ".join(_nested_text(v, data_type.element_type) for v in value)
    if isinstance(data_type, dt.MapType):
        return "{%s}" % ", ".join("%s=%s" % (_nested_text(k, data_type.key_type),
                                             _nested_text(v, data_type.value_type))
                                  for k, v in value.items())
    if isinstance(data_type, dt.RowType):
        return "(%s)" % ", ".join(_nested_text(v, f.data_type)
                                  for v, f in zip(value, data_type.fields))
    return value_text(value, flink_type_string(data_type.nullable()))


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."


def tableau(columns: Sequence[TableColumn], rows: Iterable[Tuple[tuple, int]],
            streaming: bool) -> List[str]:
    """The printed lines of a result: `rows` are (values, RowKind value)."""
    rendered = [(kind, [value_text(v, c.sql_type) for v, c in zip(values, columns)])
                for values, kind in rows]
    if not rendered:
        return ["Empty set"]
    widths = [max(type_width(c.sql_type), len(c.name), len(_NULL)) for c in columns]
    names = [c.name for c in columns]
    if streaming:
        widths, names = [2] + widths, ["op"] + names
        rendered = [(kind, [_KINDS[kind]] + texts) for kind, texts in rendered]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(texts):
        return "|" + "|".join(" %s " % _cut(t, w).rjust(w) for t, w in zip(texts, widths)) + "|"

    lines = [border, line(names), border]
    lines += [line(texts) for _, texts in rendered]
    lines.append(border)
    count = len(rendered)
    lines.append("%d %s in set" % (count, "rows" if count > 1 else "row"))
    return lines
