"""Spark plans kept for the next run of a job of the same shape.

Making a job's DataFrames took 50-70 ms of a warm small job's ~250 ms: every mapInArrow,
exchange and union is a round of Py4J calls and an analysis in the driver's JVM. Jobs run
again and again in one session (a test suite, a backfill day by day, the compat runner)
mostly have the same shape; only their functions, splits and driver channel differ. So the
stages of a cached plan run shared stage functions (stage_task.shared_stage_function): the
task finds the run's driver channel in a local property of the Spark job and gets its
StageArgs from the channel. The plan itself (each Spark run plans its own physical plan
and shuffles) is reused.

A plan is cached only where nothing of the run is in it: no stage reads a frame source (a
file listing or Kafka offsets are part of that plan) and no stage output is computed ahead
(localCheckpoint, for stages read twice)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Dict, Optional

from pyflink_on_spark.specs.stage import CompiledJob

PLANS_KEPT = 32

_lock = threading.Lock()
_plans: "OrderedDict[tuple, Dict[int, object]]" = OrderedDict()
_session: list = [None]


def plan_shape(job: CompiledJob) -> Optional[tuple]:
    """What of `job` its DataFrames are made of (executor.build_frames reads no more with a
    driver channel), or None when its plan holds something of this run only."""
    if any(count > 1 for count in job.consumer_counts().values()) or \
            job.reads_frame_sources():
        return None
    stages = []
    for stage in job.stages:
        stages.append((stage.spec.stage_id, stage.spec.parallelism, stage.source is not None,
                       tuple((u.stage_id, u.edge_id) for u in stage.upstream),
                       tuple(sorted(e.edge_id for e in stage.spec.exits)),
                       tuple(sorted(s.edge_id for s in stage.sinks))))
    return tuple(stages)


def worker_shape(context) -> tuple:
    """What pyspark puts in every Python function it makes (the workers' interpreter, its
    environment and shipped files)."""
    return (context.pythonExec, tuple(context._python_includes or ()),
            tuple(sorted((context.environment or {}).items())))


def cached_frames(session, shape: tuple, build: Callable[[], Dict[int, object]]) \
        -> Dict[int, object]:
    """The frames of a plan of `shape` made by `build` (with shared stage functions), once
    per session."""
    with _lock:
        if _session[0] is not session:
            _session[0] = session
            _plans.clear()
        frames = _plans.get(shape)
        if frames is not None:
            _plans.move_to_end(shape)
            return frames
    frames = build()
    with _lock:
        if _session[0] is session:
            _plans[shape] = frames
            while len(_plans) > PLANS_KEPT:
                _plans.popitem(last=False)
    return frames
