"""OVER windows of a query over an unbounded table, as a keyed over aggregate in the
DataStream job (issue 44): the per-row part of the query (table/sql/over_grouping.py)
stamped with its rowtime and the table's watermarks (as the window aggregates',
table/window_aggregates.py), keyed by the partition keys, into the over aggregate
(table/over_aggregate.py), whose rows are stamped with the query's rowtime column. What is
not built is refused at sql_query (check_over_query)."""
from __future__ import annotations

from datetime import datetime
from typing import Optional

from pyflink_on_spark.common.watermark_strategy import TimestampAssigner

__all__ = ['over_rows', 'check_over_query']

_EPOCH = datetime(1970, 1, 1)


def _millis(value) -> Optional[int]:
    """A rowtime column's value (an Instant for TIMESTAMP_LTZ, a datetime for TIMESTAMP) as
    the record timestamp Flink gives it."""
    if value is None:
        return None
    if isinstance(value, datetime):
        delta = value - _EPOCH
        return (delta.days * 86_400 + delta.seconds) * 1000 + delta.microseconds // 1000
    return value.to_epoch_milli()


class _Rowtime(TimestampAssigner):
    """The rowtime column's value at `index` as the record's timestamp."""

    def __init__(self, index: int) -> None:
        self.index = index

    def extract_timestamp(self, value, record_timestamp):
        return _millis(value[self.index])


def _rowtime_stamps(index: int):
    """The over aggregate's rows stamped with their rowtime column (as PyFlink's
    to_data_stream stamps them: seen), the watermarks passed on as they come."""
    from pyflink_on_spark.common.watermark_strategy import _StrategySpec
    from pyflink_on_spark.table.window_aggregates import DroppedTimestamps
    return DroppedTimestamps(_StrategySpec("no_watermarks", 0)) \
        .with_timestamp_assigner(_Rowtime(index))


def check_over_query(query: str, streaming: bool, failure: Optional[str] = None) -> None:
    """At sql_query: an OVER window query over an unbounded table that is not built raises
    NotImplementedError naming what (BATCH mode: all). One Flink's planner refuses
    (`failure`) fails when it runs, as on PyFlink."""
    from pyflink_on_spark.table.sql import UnsupportedSqlError
    from pyflink_on_spark.table.sql.over_grouping import split_over_grouping
    if not streaming:
        raise NotImplementedError(
            "an OVER window over a table of an unbounded stream in BATCH mode is not "
            "supported by pyflink_on_spark (STREAMING mode runs it as a keyed over "
            "aggregate); docs/table.md")
    if failure is not None:
        return
    try:
        split_over_grouping(query)
    except UnsupportedSqlError as e:
        raise NotImplementedError(str(e)) from None


def reads_watermarked_datagen(description) -> bool:
    """Whether a table reads an unbounded datagen table declared with a WATERMARK
    (table/datagen_streams.py: its source's rows function holds the CREATE TABLE)."""
    from pyflink_on_spark.graph.compile import reachable
    from pyflink_on_spark.specs.datagen_source import DatagenSourceSpec
    from pyflink_on_spark.specs.tables import QueryTable, StreamTable
    if isinstance(description, QueryTable):
        return any(reads_watermarked_datagen(v) for _, v in description.inputs)
    if not isinstance(description, StreamTable):
        inner = getattr(description, "input", None)
        return inner is not None and reads_watermarked_datagen(inner)
    for node in reachable(list(description.sinks)):
        spec = getattr(node, "source", None)
        if isinstance(spec, DatagenSourceSpec):
            create_table = (getattr(spec.rows, "args", None) or (None,))[0]
            if getattr(create_table, "watermark", None) is not None:
                return True
    return False


def _all_columns(grouping, width: int) -> list:
    """The split's items with a `*` (ALL_COLUMNS) as the row values it stands for: the
    per-row query's columns beyond __t, the keys, the other values and the arguments
    (`width` in all)."""
    from pyflink_on_spark.table.sql.over_grouping import ALL_COLUMNS, ROW_VALUE
    star = next((what for kind, what in grouping.items if kind == ALL_COLUMNS), None)
    if star is None:
        return list(grouping.items)
    arguments = sum(1 for kind, what in grouping.items
                    if kind not in (ROW_VALUE, ALL_COLUMNS) and what[1] is not None)
    columns = width - 1 - grouping.keys - (grouping.values - 1) - arguments
    items = []
    for kind, what in grouping.items:
        if kind == ALL_COLUMNS:
            items.extend((ROW_VALUE, what + i) for i in range(columns))
        elif kind == ROW_VALUE and what > star:
            items.append((ROW_VALUE, what + columns - 1))
        else:
            items.append((kind, what))
    return items


def over_rows(t_env, table, names):
    """A query of OVER windows over an unbounded table as a stream of Rows named `names`
    (+I), or None for any other table (TableEnvironment._stream_of)."""
    from pyflink_on_spark.common.typeinfo import ExternalTypeInfo, Types
    from pyflink_on_spark.table.sql import UnsupportedSqlError
    from pyflink_on_spark.table.sql.over_grouping import (
        AGGREGATE, is_over_query, split_over_grouping)
    from pyflink_on_spark.table.table_environment import _type_info
    from pyflink_on_spark.table import window_aggregates as windows
    from pyflink_on_spark.table.over_aggregate import OverCall, OverFunction, OverRules
    description = table._description
    query = getattr(description, "flink_query", None)
    if query is None or not is_over_query(query) or \
            not t_env._executor().table_reads_unbounded(description):
        return None
    try:
        grouping = split_over_grouping(query)
    except UnsupportedSqlError as e:
        raise NotImplementedError(str(e)) from None
    per_row = t_env._translated_over_views(grouping.per_row, description.inputs)
    types = [c.sql_type for c in per_row._resolved_columns()]
    items = _all_columns(grouping, len(types))
    first_arg = len(types) - sum(kind == AGGREGATE and what[1] is not None
                                 for kind, what in grouping.items)
    calls = [OverCall(what[0], None if what[1] is None else first_arg + what[1],
                      "BIGINT" if what[1] is None else types[first_arg + what[1]],
                      retracting=grouping.preceding is not None)
             for kind, what in grouping.items if kind == AGGREGATE]
    columns = table._resolved_columns()
    out_type = ExternalTypeInfo(Types.ROW_NAMED(
        list(names), [_type_info(c.sql_type) for c in columns]))
    keys = grouping.keys
    stream = t_env._stream_of(per_row, as_tuples=False) \
        .assign_timestamps_and_watermarks(windows.table_watermarks(description, grouping.table)) \
        .key_by(lambda row: tuple(row[1 + i] for i in range(keys))) \
        .process(OverFunction(OverRules(calls, grouping.rows, grouping.preceding), names,
                              items, 1 + keys), output_type=out_type)
    rowtime = next((i for i, c in enumerate(columns) if c.rowtime), None)
    return stream.assign_timestamps_and_watermarks(
        windows.dropped_timestamps() if rowtime is None else _rowtime_stamps(rowtime))
