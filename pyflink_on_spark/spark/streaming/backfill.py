"""Backfill, then go live, with the state carried over.

A job over history (bounded FileSources, bounded KafkaSources) run with a savepoint at its
end (`pyflink-on-spark run --savepoint-at-end DIR`, or the configuration key
``pyflink-on-spark.backfill.savepoint-dir``) runs as the first micro-batch of its unbounded
self: each bounded FileSource as a monitored one whose first listing is every file there,
each bounded KafkaSource as an unbounded one reading up to its stopping offsets. After that
batch completes, a savepoint holds the job's state, timers, watermarks and the positions the
sources reached (the files read, the Kafka offsets), and the job stops. The unbounded job
(the same program with `monitor_continuously` / without `set_bounded`, the same uids)
started from that savepoint (`run -s`) goes on from those positions: no file read twice, no
Kafka record skipped or repeated, windows and timers where the history left them.

Flink has no such run: its BATCH mode fires every timer and window at the end of input, so
nothing would be left to carry over; here the history is processed with STREAMING semantics,
the live job's own. A job set to BATCH mode is refused, saying so.
"""
from __future__ import annotations

import dataclasses
import sys

from pyflink_on_spark.specs.stage import CompiledJob

KEY = "pyflink-on-spark.backfill.savepoint-dir"


def as_backfill(job: CompiledJob, runtime_mode: str) -> CompiledJob:
    """The job with its bounded sources read as the first micro-batch of unbounded ones."""
    from pyflink_on_spark.specs.sources import FileSourceSpec, KafkaSourceSpec
    if runtime_mode == "BATCH":
        raise NotImplementedError(
            "A backfill that ends in a savepoint runs with STREAMING semantics: in BATCH mode "
            "every window and timer fires at the end of the input, so no state would be left "
            "to carry over to the live job. Run it with execution.runtime-mode STREAMING.")
    stages = []
    for stage in job.stages:
        source = stage.source
        if source is not None:
            spec = source.frame
            if isinstance(spec, FileSourceSpec):
                spec = dataclasses.replace(spec, monitor_interval_ms=max(
                    spec.monitor_interval_ms, 1))
            elif isinstance(spec, KafkaSourceSpec):
                spec = dataclasses.replace(spec, bounded=False)
            else:
                raise NotImplementedError(
                    "A backfill that ends in a savepoint reads FileSources and KafkaSources "
                    "(a live job goes on from their positions); this job also reads %s"
                    % ("from_collection / another bounded source" if spec is None
                       else type(spec).__name__))
            stage = dataclasses.replace(stage, source=dataclasses.replace(source, frame=spec))
        stages.append(stage)
    return dataclasses.replace(job, stages=tuple(stages))


def run_backfill(job: CompiledJob, job_name: str, options, settings, target_dir: str):
    """Runs the backfill (one micro-batch over the history) and takes the savepoint after it;
    returns the JobExecutionResult. The savepoint's path goes to stderr."""
    from pyflink_on_spark.common.job_id import new_job_id
    from pyflink_on_spark.spark.streaming.executor import execute_streaming
    from pyflink_on_spark.spark.streaming.savepoint_requests import SavepointRequests
    savepoints = SavepointRequests(str(new_job_id()), job_name, target_dir)
    taken = savepoints.ask(target_dir, then_stop=True)
    result = execute_streaming(job, job_name, options, settings, savepoints=savepoints)
    path = taken.result()      # the job ended without it: its error
    sys.stderr.write("pyflink-on-spark: the backfill of '%s' ended in the savepoint %s; start "
                     "the live job from it with `pyflink-on-spark run -s %s ...`\n"
                     % (job_name, path, path))
    sys.stderr.flush()
    return result
