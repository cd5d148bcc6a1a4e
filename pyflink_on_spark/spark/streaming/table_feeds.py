"""A table of unbounded streams in a micro-batch (specs/table_feeds.py TableFeed, made by
spark/table_feeds.py): the table's query, Spark SQL over the rows the streams' stages
produced in this batch, as the split rows of the table's source stage. The rows are
computed in Spark tasks (decoded, queried, chunked into Row records) and go to the source
subtasks as a bounded table's do (spark/table_frames.py table_source_frame); nothing reaches
the driver. The query is stateless (spark/table_feeds.py check_stateless), so a batch's rows
are all it needs, and a re-run batch (after a restart) reads the same rows again."""
from __future__ import annotations

from typing import Dict, List

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
    the batch's frames of the streams' stages."""
    from pyspark.sql import functions as F
    from pyflink_on_spark.spark.table_feeds import pruned
    from pyflink_on_spark.spark.table_frames import records_frame, table_source_frame
    edges = {feed_of.collect_sink_id: feed_of for feed_of in feed.streams}

    def stream_frame(stream):
        found = edges[stream.collect_sink_id]
        payloads = frames[found.stage_id].where(F.col("edge") == found.edge_id) \
            .select("payload")
        return records_frame(payloads, stream)

    from dataclasses import replace
    source = replace(feed.source, table=pruned(feed.source.table))
    return table_source_frame(source, parallelism, session, stream_frame)
