"""Scratch directories of stage tasks, in the worker's temp directory: a keyed backend's
files (RocksDB), spilled input, a bounded job's sorted runs.

A task's directory is named after its worker process,
`pyflink-on-spark-s<stage>-<subtask>-p<pid>-<random>`. A task removes its own when it ends
(spark/stage_task.py), or when the operators an unbounded job keeps between micro-batches
are closed (runtime/checkpoint/micro_batch.py). But Spark stops a Python worker without
letting it close anything (an idle worker after a minute, all of them when the session
stops), and an unbounded job's kept operators then leave their directories behind: 11,640
of them were in /tmp after a day of test runs. So the first task a worker process runs
removes the directories of workers that are gone, and those of earlier versions (named
without their process) that nothing has touched for a day.
"""
from __future__ import annotations

import os
import re
import tempfile
from typing import Optional

from pyflink_on_spark.spark.temp_dirs import remove_left_behind, untouched_for

PREFIX = "pyflink-on-spark-s"
_OWNED = re.compile(r"pyflink-on-spark-s\d+-\d+-p(\d+)-")
_UNOWNED = re.compile(r"pyflink-on-spark-s\d+-\d+-[a-z0-9_]{8}$")   # tempfile's 8 characters
UNOWNED_AGE_S = 24 * 3600
_swept = False


def new_task_dir(stage_id: int, subtask: int) -> str:
    """A new scratch directory for (stage, subtask), owned by this process."""
    global _swept
    if not _swept:
        _swept = True
        remove_orphaned_task_dirs()
    return tempfile.mkdtemp(prefix="%s%d-%d-p%d-" % (PREFIX, stage_id, subtask, os.getpid()))


def remove_orphaned_task_dirs(root: Optional[str] = None) -> int:
    """Removes the task directories whose worker process is gone, and unowned ones a day
    old; how many. A directory whose process runs (or whose pid another process took since)
    is left alone."""
    from pyflink_on_spark.codecs.files.staging import process_alive

    def orphaned(entry) -> bool:
        found = _OWNED.match(entry.name)
        if found is not None:
            return not process_alive(int(found.group(1)))
        return bool(_UNOWNED.match(entry.name)) and untouched_for(entry, UNOWNED_AGE_S)
    return remove_left_behind(PREFIX, orphaned, root)
