"""Rows <-> Arrow, for the Parquet/ORC writers and the Parquet reader."""
from __future__ import annotations

from typing import List

import pyarrow as pa

from pyflink_on_spark.codecs.formats.fields import Field

_SIMPLE = {
    "string": pa.string(), "boolean": pa.bool_(), "byte": pa.int8(), "short": pa.int16(),
    "int": pa.int32(), "long": pa.int64(), "float": pa.float32(), "double": pa.float64(),
    "local_date": pa.date32(), "date": pa.date32(), "bytes": pa.binary(),
    "local_time": pa.time64("us"), "time": pa.time64("us"),
    "local_datetime": pa.timestamp("us"), "timestamp": pa.timestamp("us"),
    "instant": pa.timestamp("us", tz="UTC"),
}


def arrow_type(field: Field) -> pa.DataType:
    if field.kind in _SIMPLE:
        return _SIMPLE[field.kind]
    if field.kind == "decimal":
        return pa.decimal128(field.precision or 10, field.scale)
    if field.kind == "array":
        return pa.list_(arrow_type(field.element))
    if field.kind == "map":
        return pa.map_(arrow_type(field.key), arrow_type(field.element))
    if field.kind == "row":
        return pa.struct([pa.field(n, arrow_type(f)) for n, f in zip(field.names, field.fields)])
    raise TypeError("no Arrow type for a %s field" % field.kind)


def arrow_schema(row: Field) -> pa.Schema:
    return pa.schema([pa.field(n, arrow_type(f)) for n, f in zip(row.names, row.fields)])


def _plain(value, field: Field):
    """Python value -> what pa.array accepts for the field's Arrow type."""
    if value is None:
        return None
    if field.kind == "row":
        values = [value.get(n) for n in field.names] if isinstance(value, dict) \
            else _row_values(value)
        return {n: _plain(v, f) for n, v, f in zip(field.names, values, field.fields)}
    if field.kind == "array":
        return [_plain(v, field.element) for v in value]
    if field.kind == "map":
        return [(_plain(k, field.key), _plain(v, field.element)) for k, v in value.items()]
    return value


def _row_values(row):
    from pyflink_on_spark.common.types import Row
    if isinstance(row, Row):
        return row._values
    return list(row)


def rows_to_table(rows: List, row: Field, schema: pa.Schema) -> pa.Table:
    columns = [[] for _ in row.fields]
    nested = [f.kind in ("row", "array", "map") for f in row.fields]
    names = row.names
    for value in rows:
        values = [value.get(n) for n in names] if isinstance(value, dict) \
            else _row_values(value)
        for i, v in enumerate(values):
            columns[i].append(_plain(v, row.fields[i]) if nested[i] else v)
    arrays = [pa.array(col, type=schema.field(i).type) for i, col in enumerate(columns)]
    return pa.Table.from_arrays(arrays, schema=schema)


def table_rows(batch, row: Field) -> list:
    """Arrow batch -> named Rows (nested structs -> Rows, maps -> dicts)."""
    from pyflink_on_spark.common.types import _create_row
    names = list(row.names)
    columns = [_python_column(batch.column(i), f) for i, f in enumerate(row.fields)]
    return [_create_row(names, values) for values in zip(*columns)] if columns \
        else [_create_row(names, []) for _ in range(batch.num_rows)]


def _python_column(array, field: Field) -> list:
    values = array.to_pylist()
    if field.kind in ("row", "map", "array"):
        return [_to_python(v, field) for v in values]
    return values


def _to_python(value, field: Field):
    from pyflink_on_spark.common.types import _create_row
    if value is None:
        return None
    if field.kind == "row":
        return _create_row(list(field.names), [_to_python(value.get(n), f)
                                               for n, f in zip(field.names, field.fields)])
    if field.kind == "map":
        return {k: _to_python(v, field.element) for k, v in value}
    if field.kind == "array":
        return [_to_python(v, field.element) for v in value]
    return value
