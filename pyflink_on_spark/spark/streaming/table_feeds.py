"""A table of unbounded streams in a micro-batch (specs/table_feeds.py TableFeed, made by
spark/table_feeds.py): the table's query, Spark SQL over the rows the streams' stages
produced in this batch, as the split rows of the table's source stage. The rows are
computed in Spark tasks (decoded, queried, chunked into Row records) and go to the source
subtasks as a bounded table's do (spark/table_frames.py table_source_frame); nothing reaches
the driver. The query is stateless (spark/table_feeds.py check_stateless), so a batch's rows
are all it needs, and a re-run batch (after a restart) reads the same rows again."""
from __future__ import annotations

from typing import Dict, List

from pyflink_on_spark.runtime.fed_watermarks import FedWatermark
from pyflink_on_spark.specs.table_feeds import TableFeed


class TableFeedSource:
    """The UnboundedSource (sources.py) of a table source stage: it plans nothing of its
    own (its input is the same batch's rows of other stages) and holds nothing."""

    def __init__(self, feed: TableFeed) -> None:
        self.feed = feed

    def plan(self, batch_id: int) -> List:
        return []

    def frame(self, plan: List, session):
        raise TypeError("a table feed's rows come from its batch's frames (table_feed_frame)")

    def compact(self, before: int) -> None:
        pass

    def close(self) -> None:
        pass


def table_feed_frame(feed: TableFeed, frames: Dict[int, object], parallelism: int, session):
    """The split rows of the table for this batch: `frames` (stage id -> output frame) holds
    the batch's frames of the streams' stages. After them, each source subtask is fed the
    streams' watermarks of the batch (fed_watermark_rows)."""
    from pyspark.sql import functions as F
    from pyflink_on_spark.runtime.boundary import KIND_WATERMARK
    from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA
    from pyflink_on_spark.spark.table_feeds import pruned
    from pyflink_on_spark.spark.table_frames import records_frame, table_source_frame
    edges = {feed_of.collect_sink_id: feed_of for feed_of in feed.streams}

    def edge_rows(found):
        return frames[found.stage_id].where(F.col("edge") == found.edge_id)

    def stream_frame(stream):
        found = edges[stream.collect_sink_id]
        payloads = edge_rows(found).where(F.col("kind") != KIND_WATERMARK).select("payload")
        return records_frame(payloads, stream)

    from dataclasses import replace
    source = replace(feed.source, table=pruned(feed.source.table))
    frame = table_source_frame(source, parallelism, session, stream_frame)
    if len(feed.streams) != 1 or not takes_source_watermarks(source.table):
        # the watermarks of several streams would need a valve of several inputs: their
        # windows are refused (window_aggregates.table_watermarks); a table of no source
        # watermark's rowtime has watermarks of its own, or none
        return frame
    stream = feed.streams[0]
    # an exit sends each watermark to every destination subtask: those of the first do
    marks = edge_rows(stream).where((F.col("kind") == KIND_WATERMARK) & (F.col("dest") == 0)) \
        .select("src", "seq", "payload")
    return frame.union(marks.mapInArrow(
        fed_watermark_rows(stream.upstream_parallelism, parallelism), SPARK_SCHEMA))


def takes_source_watermarks(description) -> bool:
    """Whether the table's rowtime is its stream's own, whose watermarks it passes on: a
    kafka table's WATERMARK (generated in its source), a from_data_stream rowtime metadata
    column (SOURCE_WATERMARK()); a watermark on a computed column is generated anew over
    the table's rows (table/window_aggregates.py)."""
    from pyflink_on_spark.specs.tables import StreamTable, watermark_leaves
    return any(isinstance(leaf, StreamTable) or leaf.source_watermarks
               for leaf in watermark_leaves(description))


# the src of fed watermark rows: after every row of the table (src: its Spark partition)
FED_SRC = 2 ** 31 - 1


def fed_watermark_rows(upstream: int, parallelism: int):
    """The watermark rows (src, seq, payload) of a stream's exit in a batch -> KIND_SPLIT rows
    of FedWatermark splits (runtime/fed_watermarks.py), to every table source subtask, after
    the table's rows (FED_SRC). Per upstream subtask only what counts goes on: its largest
    watermark, then IDLE when it ended the batch idle."""
    import pickle
    from pyflink_on_spark.runtime.boundary import KIND_SPLIT
    from pyflink_on_spark.spark.batch_schema import rows_to_batch

    def run(batches):
        srcs: List[int] = []
        seqs: List[int] = []
        marks: List[int] = []
        for batch in batches:       # (a partition's few rows: one upstream subtask's)
            srcs.extend(batch.column(0).to_pylist())
            seqs.extend(batch.column(1).to_pylist())
            marks.extend(pickle.loads(p) for p in batch.column(2).to_pylist())
        split_rows = []
        for src, watermarks in sorted(last_watermarks(srcs, seqs, marks).items()):
            for order, watermark in enumerate(watermarks):
                payload = pickle.dumps(FedWatermark(src, watermark, upstream), protocol=5)
                split_rows.extend((-1, dest, FED_SRC, src * 2 + order, KIND_SPLIT, payload)
                                  for dest in range(parallelism))
        if split_rows:
            yield rows_to_batch(split_rows)
    return run


def last_watermarks(srcs: List[int], seqs: List[int], watermarks: List[int]) -> Dict[int, list]:
    """Per upstream subtask, what its watermarks of a batch (rows in any order, `seqs`
    their order) leave a valve with: the largest, then IDLE if the last was IDLE."""
    from pyflink_on_spark.runtime.watermarks import IDLE
    by_src: Dict[int, list] = {}
    for src, _seq, watermark in sorted(zip(srcs, seqs, watermarks)):
        by_src.setdefault(src, []).append(watermark)
    kept = {}
    for src, marks in by_src.items():
        real = [m for m in marks if m != IDLE]
        kept[src] = [max(real)] if real else []
        if marks[-1] == IDLE:
            kept[src].append(IDLE)
    return kept
