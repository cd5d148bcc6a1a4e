"""Running a case on the shim, in this process."""
from __future__ import annotations

import time
import traceback

from pyflink_on_spark.compat.cases import Case, CaseResult, compare


def run_shim(case: Case) -> CaseResult:
    """Run the case program in this process on the shim and compare its stdout.

    If the program raises, the case fails with the exception's traceback as its error,
    together with the diff of whatever it printed before.
    """
    from pyflink_on_spark.cli.script_runner import run_script_captured

    start = time.monotonic()
    stdout, exc = run_script_captured(str(case.program), [])
    duration = time.monotonic() - start
    result = compare(case, stdout, duration=duration)
    if exc is not None:
        result.passed, result.crashed = False, True
        result.error = "raised:\n" + "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip("\n")
    return result
