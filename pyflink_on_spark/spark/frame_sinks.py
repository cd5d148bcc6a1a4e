"""Frame sinks: sinks written by Spark's own writers (Kafka). The sink operator encodes the
records in the task; its driver-exit rows are turned into the writer's columns by a
mapInArrow and handed to the DataFrame writer."""
from __future__ import annotations


def frame_sink_edges(job, stage):
    return [e.edge_id for e in stage.exits
            if job.driver_sinks.get(e.edge_id, ("",))[0] == "frame"]


def frame_sink_count(job, stage) -> int:
    return len(frame_sink_edges(job, stage))


def write_frame_sinks(job, frames) -> None:
    from pyspark.sql import functions as F
    for stage in job.stages:
        for edge in frame_sink_edges(job, stage):
            _, _, params = job.driver_sinks[edge]
            rows = frames[stage.stage_id].where(F.col("edge") == edge)
            write_frame(params["sink"].frame_writer, rows)


def write_frame(description, rows) -> None:
    from pyflink_on_spark.graph.frame_sinks import KafkaWrite
    if isinstance(description, KafkaWrite):
        from pyflink_on_spark.spark.kafka import write_kafka
        write_kafka(description, rows)
        return
    raise TypeError("unknown frame sink %r" % (description,))
