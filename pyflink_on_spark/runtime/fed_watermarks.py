"""The watermarks of a table's streams, fed to the table's source subtasks (issue 44).

A table of unbounded streams (spark/streaming/table_feeds.py) reaches its source stage as
Spark SQL rows, each micro-batch; the streams' own watermarks (a kafka table's, generated
per Kafka partition in its source and emitted as the minimum over the partitions:
runtime/watermarks.py SplitWatermarks) cannot ride the rows through the query. They go
beside them: each upstream subtask's watermarks of the batch, as a FedWatermark split
after the batch's rows, to every table source subtask. The table source's watermark is the
minimum over the upstream subtasks (those not idle), as a valve of one input would make it
(Flink's table source subtask reads the partitions itself: the same minimum)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pyflink_on_spark.runtime.watermarks import StreamingValve


@dataclass(frozen=True)
class FedWatermark:
    """Upstream subtask `channel` (of `channels`) of the table's stream reached `watermark`
    (runtime/watermarks.py IDLE: it is idle)."""
    channel: int
    watermark: int
    channels: int


class FedWatermarks:
    """The table source subtask's watermark over its stream's upstream subtasks: each one's
    last watermark, the minimum over those not idle (StreamingValve); a subtask that has
    sent none holds it back."""

    def __init__(self, channels: int) -> None:
        self._valve = StreamingValve([(0, channel) for channel in range(channels)])

    def on_watermark(self, fed: FedWatermark) -> Optional[int]:
        """The new watermark after `fed`, or None when it did not advance."""
        return self._valve.on_watermark(0, fed.channel, fed.watermark)

    def export(self) -> dict:
        return self._valve.export()

    def restore(self, state: dict) -> None:
        self._valve.restore(state)
