"""The bytes PyFlink 1.20's adaptive batch scheduler counts on an operator's input exchanges,
where the shim can know them before the job runs.

Flink sizes an operator behind an exchange whose parallelism the program did not set from
the bytes that arrive (16 MiB per task, graph/compile.py _parallelism). Those are the
records' serialized stream elements. Measured on PyFlink 1.20.5 (docs/compatibility.md,
"adaptive parallelism"): an element costs its 4-byte length and a 1-byte tag, 8 bytes more
for a record with a timestamp, then the value; behind key_by the value is a Row of the key
and the record (a 1-byte header, the key, the record). A LONG costs 8 bytes, a TUPLE the sum
of its fields.

So the volume of key_by's exchanges (the others' were not measured) is known when every
record on them has a declared type of fixed size (key and record) and their number is
known: a NumberSequenceSource's or a collection's, through operators that emit one record
per record (map, assign_timestamps_and_watermarks). Elsewhere (files, strings, pickled
values, a filter) it is not known before the records exist, and compile.py falls back to
the sources' size.
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional

from pyflink_on_spark.common.typeinfo import BasicType, BasicTypeInfo, TupleTypeInfo
from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, SourceTransformation, Transformation)
from pyflink_on_spark.specs.operators import KeyedMapSpec, MapSpec, TimestampsSpec
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.sources import CollectionSourceSpec, NumberSequenceSourceSpec

_ELEMENT = 4 + 1        # the element's length and its tag
_TIMESTAMP = 8
_ROW_HEADER = 1         # key_by's Row(key, record)
_FIXED_SIZES = {BasicType.BYTE: 1, BasicType.BOOLEAN: 1, BasicType.SHORT: 2, BasicType.INT: 4,
                BasicType.LONG: 8, BasicType.FLOAT: 4, BasicType.DOUBLE: 8}
# operators that emit exactly one record per record, with its timestamp
_ONE_FOR_ONE = (MapSpec, KeyedMapSpec)


def exchange_bytes(node: Transformation,
                   resolve: Callable[[Transformation], List[tuple]]) -> Optional[int]:
    """The bytes `node` consumes through its exchanges, as Flink counts them; None when the
    shim cannot know them before the records exist. `resolve`: compile.py's _resolve
    (an input's physical producers, (node, partitioning, side tag, side type) each)."""
    total = 0
    for upstream in node.inputs:
        for producer, partitioning, side_tag, _ in resolve(upstream):
            # key_by's exchanges only: the others' sizes were not measured on PyFlink
            # (partition_custom sends its own rows; broadcast inputs count apart in Flink)
            if not isinstance(partitioning, KeyedPartitioning) or side_tag is not None:
                return None
            count = _record_count(producer, resolve)
            record = _fixed_size(producer.output_type)
            key = _fixed_size(partitioning.key_type)
            if count is None or record is None or key is None:
                return None
            size = _ELEMENT + (_TIMESTAMP if _stamped(producer, resolve) else 0)
            total += count * (size + _ROW_HEADER + key + record)
    return total


def _record_count(node: Transformation, resolve) -> Optional[int]:
    if isinstance(node, SourceTransformation):
        spec = node.source
        if isinstance(spec, NumberSequenceSourceSpec):
            return max(spec.end - spec.start + 1, 0)
        if isinstance(spec, CollectionSourceSpec):
            return len(spec.values)
        return None
    if isinstance(node, OneInputTransformation) and isinstance(
            node.spec, _ONE_FOR_ONE + (TimestampsSpec,)):
        # (a side output comes from a process function, whose count is not known)
        counts = [_record_count(producer, resolve) for producer, _, _, _ in
                  resolve(node.input)]
        return None if not counts or None in counts else sum(counts)
    return None


def _stamped(node: Transformation, resolve) -> bool:
    """Whether the records `node` emits carry a timestamp: from an assigner on (the sources
    counted here attach none)."""
    if isinstance(node, OneInputTransformation):
        if isinstance(node.spec, TimestampsSpec):
            return True
        return any(_stamped(producer, resolve) for producer, _, _, _ in resolve(node.input))
    return False


def _fixed_size(type_info: Any) -> Optional[int]:
    if type(type_info) is BasicTypeInfo:
        return _FIXED_SIZES.get(type_info._basic_type)
    if isinstance(type_info, TupleTypeInfo):
        sizes = [_fixed_size(field) for field in type_info.get_field_types()]
        return None if None in sizes else sum(sizes)
    return None
