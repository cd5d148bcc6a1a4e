"""What a bounded job shows while it runs, in the user's terms.

* Spark job group and descriptions name the Flink job and the operators each Spark job runs
  (the Spark UI, event logs and status tracker read "sensor_alerts: Max per 5 s, Too hot").
* A progress line on stderr, only when stderr is a terminal and the job has run a few
  seconds (stages done / total, tasks, records reaching the driver, elapsed), from Spark's
  status tracker; redrawn in place, cleared at the end.
"""
from __future__ import annotations

import contextlib
import itertools
import os
import sys
import threading
import time
from typing import Iterator, Optional

from pyflink_on_spark.specs.stage import CompiledJob, StageSpec

# seconds a job runs before the progress line appears (an environment variable for tests)
PROGRESS_AFTER_ENV = "PYFLINK_ON_SPARK_PROGRESS_AFTER"
PROGRESS_AFTER_S = 3.0
REFRESH_S = 0.5

_groups = itertools.count(1)


def stage_description(job_name: str, stage: StageSpec) -> str:
    return "%s: stage %d: %s" % (job_name, stage.stage_id, stage.task_name)


def job_description(job_name: str, job: CompiledJob) -> str:
    return "%s: %s" % (job_name, " -> ".join(s.spec.task_name for s in job.stages))


def new_group_id(job_name: str) -> str:
    return "pyflink-on-spark-%d-%d: %s" % (os.getpid(), next(_groups), job_name)


@contextlib.contextmanager
def job_group(context, group_id: str, description: str) -> Iterator[None]:
    """Spark jobs started by this thread inside belong to `group_id`, described."""
    context.setJobGroup(group_id, description)
    try:
        yield
    finally:
        context.setLocalProperty("spark.jobGroup.id", None)
        context.setLocalProperty("spark.job.description", None)


def progress_wanted(stream, enabled: bool) -> bool:
    isatty = getattr(stream, "isatty", None)
    return enabled and isatty is not None and isatty()


class ProgressLine:
    """Polls the status tracker for the jobs of one group, draws one line on `stream`."""

    def __init__(self, context, group_id: str, stream=None,
                 after_s: Optional[float] = None) -> None:
        self._tracker = context.statusTracker()
        self._group = group_id
        self._stream = stream if stream is not None else sys.stderr
        if after_s is None:
            after_s = float(os.environ.get(PROGRESS_AFTER_ENV, PROGRESS_AFTER_S))
        self._after = after_s
        self._start = time.monotonic()
        self._stop = threading.Event()
        self._drawn = False
        self.records = 0                      # counted by the executor as values arrive
        self._thread = threading.Thread(target=self._loop, name="pyflink-progress",
                                        daemon=True)

    def start(self) -> "ProgressLine":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        if self._drawn:
            self._stream.write("\r\x1b[K")
            self._stream.flush()

    def line(self) -> str:
        done = total = tasks_done = tasks = 0
        for job_id in self._tracker.getJobIdsForGroup(self._group):
            info = self._tracker.getJobInfo(job_id)
            if info is None:
                continue
            for stage_id in info.stageIds:
                stage = self._tracker.getStageInfo(stage_id)
                total += 1
                if stage is None:
                    continue
                tasks += stage.numTasks
                tasks_done += stage.numCompletedTasks
                if stage.numTasks and stage.numCompletedTasks >= stage.numTasks:
                    done += 1
        return ("Spark stages %d/%d, tasks %d/%d, records %d, %.0f s"
                % (done, total, tasks_done, tasks, self.records,
                   time.monotonic() - self._start))

    def _loop(self) -> None:
        if self._stop.wait(self._after):
            return
        while not self._stop.is_set():
            try:
                text = self.line()
            except Exception:          # the context stopping under us: no progress, no error
                return
            self._stream.write("\r\x1b[K" + text)
            self._stream.flush()
            self._drawn = True
            self._stop.wait(REFRESH_S)
