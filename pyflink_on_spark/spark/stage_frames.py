"""The Spark plan of one run of a job's stage DAG: a DataFrame per stage.

Every runner builds it here: a bounded job once, an unbounded one once per micro-batch. A
stage's input is its source's frame (the runner says which, and whether it goes through the
exchange) or the union of its upstream stages' rows on its edges; the exchange sends each row
to its subtask's partition (spark/exchange_frames.py); the stage's function (a Spark task per
subtask, spark/stage_task.py or spark/streaming/stage_task.py) turns them into its output rows.
"""
from __future__ import annotations

import functools
from typing import Callable, Dict, Optional, Tuple

from pyflink_on_spark.spark.batch_schema import SPARK_SCHEMA
from pyflink_on_spark.spark.exchange_frames import exchanged, named_column
from pyflink_on_spark.spark.session import is_connect
from pyflink_on_spark.specs.stage import CompiledJob, CompiledStage, StageSpec

# (the stage's source input frame, whether it goes through the exchange)
SourceInput = Callable[[CompiledStage], Tuple[object, bool]]


def stage_frames(job: CompiledJob, session, source_input: SourceInput,
                 function_of: Callable[[StageSpec], Callable], *, driver_reads_sinks: bool,
                 compute_unread: bool,
                 description_of: Optional[Callable[[StageSpec], str]] = None,
                 frames: Optional[Dict[int, object]] = None) -> Dict[int, object]:
    """stage id -> the DataFrame of the stage's output rows.

    `driver_reads_sinks`: the driver reads the sinks' rows from the frames (spark/
    driver_rows.py), else they reach it over the driver channel and are not in the frames.
    A frame read more than once is computed at once, once (user functions run once per
    record); so is a frame no one reads when `compute_unread` (an unbounded job's every
    subtask must run and write its state in every batch). `description_of`: the Spark job
    description of that computation (None: Spark's own). `frames`: the dict to fill (a
    source input may read the frames of the stages before it: a table feed)."""
    consumers = job.consumer_counts()
    frames = {} if frames is None else frames
    edges_of = {s.spec.stage_id: output_edges(s, driver_reads_sinks) for s in job.stages}
    for stage in job.stages:
        spec = stage.spec
        if stage.source is not None:
            frame, exchange = source_input(stage)
        else:
            # an upstream output holding only this edge's rows is taken whole: each step
            # of a plan is one more analysis on the driver (several ms each)
            parts = [frames[up.stage_id] if edges_of[up.stage_id] == {up.edge_id}
                     else frames[up.stage_id].where(named_column(session, "edge")
                                                    == up.edge_id)
                     for up in stage.upstream]
            frame, exchange = functools.reduce(lambda a, b: a.union(b), parts), True
        if exchange:
            frame = exchanged(frame, spec.parallelism, session)
        output = frame.mapInArrow(function_of(spec), SPARK_SCHEMA)
        readers = consumers[spec.stage_id] + (1 if driver_reads_sinks and stage.sinks else 0)
        if readers > 1 or (readers == 0 and compute_unread):
            output = _computed_once(output, session,
                                    description_of(spec) if description_of else None)
        frames[spec.stage_id] = output
    return frames


def output_edges(stage: CompiledStage, driver_reads_sinks: bool) -> set:
    """The edges whose rows a stage's output frame holds: its exits', but for the sinks
    whose rows go to the driver through the channel (stage_task.py take_batch)."""
    to_driver = set() if driver_reads_sinks else {s.edge_id for s in stage.sinks}
    return {e.edge_id for e in stage.spec.exits} - to_driver


def _computed_once(output, session, description: Optional[str]):
    """`output` computed now, onto the executors (a local checkpoint)."""
    if description is None or is_connect(session):   # Connect: no SparkContext to describe
        return output.localCheckpoint(eager=True)
    context = session.sparkContext
    described = context.getLocalProperty("spark.job.description")
    context.setJobDescription(description)
    try:
        return output.localCheckpoint(eager=True)
    finally:
        context.setJobDescription(described)
