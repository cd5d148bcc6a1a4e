"""A table of unbounded streams read back into the same job (to_data_stream of a query over
from_data_stream of an unbounded stream): what the source stage of the table reads in each
micro-batch. spark/table_feeds.py makes it; spark/streaming/table_feeds.py runs it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Tuple


@dataclass(frozen=True)
class StreamFeed:
    """One stream of the table (a specs.tables StreamTable, its collect sink node
    `collect_sink_id`): its records are the rows of exit `edge_id` of stage `stage_id` of the
    same job, in the same micro-batch, and so are its watermarks, one per
    `upstream_parallelism` subtask of that stage (runtime/fed_watermarks.py)."""
    collect_sink_id: int
    stage_id: int
    edge_id: int
    upstream_parallelism: int = 1


@dataclass(frozen=True)
class TableFeed:
    """The frame source of a table source stage (StageSource.frame) whose table reads
    unbounded streams: `source` the specs.sources TableSourceSpec, `streams` the table's
    streams as stages of the job. Each micro-batch the table's query runs (Spark SQL, in
    Spark tasks) over the rows those stages produced in that batch."""
    source: Any
    streams: Tuple[StreamFeed, ...]
    name: str = "Table Source"
