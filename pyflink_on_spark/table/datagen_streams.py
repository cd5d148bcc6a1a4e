"""An unbounded `datagen` table (random fields, no number-of-rows: seen on PyFlink 1.20.5, it
never ends; PyFlink's streaming_word_count example reads one): the table of a stream whose
source generates the rows at the table's `rows-per-second` in the tasks of an unbounded job
(specs/datagen_source.py, spark/streaming/datagen_source.py). A job reads it through
to_data_stream and friends, or an INSERT into a print / blackhole / kafka table
(table_sinks.py), as any table of an unbounded stream (spark/table_feeds.py)."""
from __future__ import annotations

import functools
from typing import Tuple

from pyflink_on_spark.specs.datagen_source import DatagenSourceSpec
from pyflink_on_spark.specs.tables import TableColumn


class _GeneratedRowsSource(object):
    """What env.from_source reads: the table's DatagenSourceSpec."""

    def __init__(self, spec: DatagenSourceSpec, produced_type) -> None:
        self._spec = spec
        self._produced_type = produced_type

    def _source_definition(self) -> DatagenSourceSpec:
        return self._spec


def _generate(create_table, subtask: int, parallelism: int, start: int, count: int):
    from pyflink_on_spark.table.sql.datagen import datagen_rows_at
    return datagen_rows_at(create_table, subtask, parallelism, start, count)


def unbounded_datagen_table(create_table, t_env, columns: Tuple[TableColumn, ...],
                            parallelism: int):
    """The Table of an unbounded datagen CREATE TABLE (table/sql CreateTable, validated)."""
    from pyflink_on_spark.common import WatermarkStrategy
    from pyflink_on_spark.graph.transformations import SinkTransformation
    from pyflink_on_spark.specs.sinks import CollectSinkSpec
    from pyflink_on_spark.specs.tables import StreamTable
    from pyflink_on_spark.table.sql.datagen import validate_datagen
    from pyflink_on_spark.table.table import Table
    plan = validate_datagen(create_table)
    names = tuple(c.name for c in columns)
    spec = DatagenSourceSpec(functools.partial(_generate, create_table), names,
                             plan.rows_per_second)
    # Rows of the table's values as they are (DECIMAL, TIMESTAMP...): the stream has no
    # declared type, nothing converts them before the table's columns are made of them
    stream = t_env._env.from_source(_GeneratedRowsSource(spec, None),
                                    WatermarkStrategy.no_watermarks(),
                                    "Source: %s[1]" % create_table.name)
    node = stream._transformation
    node.parallelism = parallelism
    node.parallelism_fixed = True
    sink = SinkTransformation(name="Collect Sink", input=node, spec=CollectSinkSpec(),
                              input_type=None)
    sink.parallelism = 1
    description = StreamTable((sink,), sink.id, t_env._env._job_settings(), columns)
    return Table(description, t_env, columns)
