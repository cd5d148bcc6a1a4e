"""Frame sinks: sinks written by Spark's own writers (Kafka). The sink operator encodes the
records in the task; its driver-exit rows are turned into the writer's columns by a
mapInArrow and handed to the DataFrame writer."""
from __future__ import annotations

from typing import List

from pyflink_on_spark.specs.sinks import KafkaSinkSpec
from pyflink_on_spark.specs.stage import CompiledJob, CompiledStage, SinkExit


def frame_sink_exits(stage: CompiledStage) -> List[SinkExit]:
    """The stage's sinks whose rows Spark writes (not read on the driver)."""
    return [s for s in stage.sinks if not s.sink.reaches_driver]


def frame_sink_count(stage: CompiledStage) -> int:
    return len(frame_sink_exits(stage))


def write_frame_sinks(job: CompiledJob, frames) -> None:
    from pyspark.sql import functions as F
    for stage in job.stages:
        for sink_exit in frame_sink_exits(stage):
            rows = frames[stage.spec.stage_id].where(F.col("edge") == sink_exit.edge_id)
            write_frame(sink_exit.sink, rows)


def write_frame(sink, rows) -> None:
    if isinstance(sink, KafkaSinkSpec):
        from pyflink_on_spark.spark.kafka import write_kafka
        write_kafka(sink, rows)
        return
    raise TypeError("no Spark writer for the sink %r" % (sink,))
