"""Running a case on the shim, in this process."""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import time
import traceback
from typing import Iterator

from pyflink_on_spark.compat.cases import Case, CaseResult, compare


def run_shim(case: Case) -> CaseResult:
    """Run the case program in this process on the shim and compare its stdout.

    If the program raises, the case fails with the exception's traceback as its error,
    together with the diff of whatever it printed before.
    """
    from pyflink_on_spark.cli.script_runner import run_script_captured

    start = time.monotonic()
    with _removing_temp_dirs_made_by(str(case.program)):
        stdout, exc = run_script_captured(str(case.program), [])
    duration = time.monotonic() - start
    result = compare(case, stdout, duration=duration)
    if exc is not None:
        result.passed, result.crashed = False, True
        result.error = "raised:\n" + "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip("\n")
    return result


@contextlib.contextmanager
def _removing_temp_dirs_made_by(script: str) -> Iterator[None]:
    """Removes, when the case ends, the directories its script made with tempfile.mkdtemp()
    (cases write their files there, as a job script would, and never remove them: ~40
    directories in the temp directory per run of the suite). Only the script's own calls
    are tracked: the session this process keeps makes directories of its own."""
    made = []
    original = tempfile.mkdtemp
    script = os.path.realpath(script)

    def mkdtemp(*args, **kwargs):
        path = original(*args, **kwargs)
        if os.path.realpath(sys._getframe(1).f_code.co_filename) == script:
            made.append(path)
        return path

    tempfile.mkdtemp = mkdtemp
    try:
        yield
    finally:
        tempfile.mkdtemp = original
        for path in made:
            shutil.rmtree(path, ignore_errors=True)
