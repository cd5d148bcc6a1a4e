"""Running a case on real PyFlink: the program in a subprocess of a given interpreter."""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from typing import Dict, Optional

from pyflink_on_spark.compat.cases import Case, CaseResult, compare

DEFAULT_TIMEOUT = 900.0
# stderr lines kept in a failure report
_STDERR_TAIL_LINES = 40


def resolve_python(python: str) -> str:
    """The interpreter as an absolute path, found on PATH if given as a bare name.

    Symlinks are NOT resolved: a virtualenv's bin/python is usually a link to the base
    interpreter, and the venv is only active when started through the link.
    """
    if os.sep in python or (os.altsep and os.altsep in python):
        path = os.path.abspath(os.path.expanduser(python))
        if not os.path.isfile(path):
            raise FileNotFoundError("reference python not found: %s" % python)
        return path
    found = shutil.which(python)
    if found is None:
        raise FileNotFoundError("reference python not found on PATH: %s" % python)
    return os.path.abspath(found)


def reference_env(python: str, base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """Environment for a reference run.

    PATH starts with the interpreter's bin directory, because PyFlink starts its Python
    workers as `python` from PATH. PYTHONUNBUFFERED makes the program's own prints land in
    program order with the print-sink lines the JVM writes to the same stdout.
    """
    env = dict(os.environ if base is None else base)
    bin_dir = os.path.dirname(python)
    env["PATH"] = bin_dir + os.pathsep + env["PATH"] if env.get("PATH") else bin_dir
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("PYTHONHOME", None)
    # the venv we start is the one that must be active, not whatever the caller runs in
    env.pop("VIRTUAL_ENV", None)
    env.pop("__PYVENV_LAUNCHER__", None)
    return env


def _tail(data: bytes, lines: int = _STDERR_TAIL_LINES) -> str:
    text = data.decode("utf-8", "replace").rstrip("\n")
    kept = text.splitlines()[-lines:]
    return "\n".join(kept)


def run_reference(case: Case, python: str, timeout: float = DEFAULT_TIMEOUT) -> CaseResult:
    """Run the case program with `python` (real PyFlink) and compare its stdout.

    The program runs with its own directory as working directory. A non-zero exit or a
    timeout fails the case whatever it printed; the result's `actual` holds the stdout.
    """
    try:
        python = resolve_python(python)
    except FileNotFoundError as e:
        return CaseResult(case, False, error=str(e), crashed=True)
    program = os.path.abspath(case.program)
    start = time.monotonic()
    try:
        proc = subprocess.run(
            [python, program], cwd=os.path.dirname(program), env=reference_env(python),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            timeout=timeout)
    except subprocess.TimeoutExpired as e:
        duration = time.monotonic() - start
        return CaseResult(case, False, actual=e.stdout or b"", duration=duration, crashed=True,
                          error="timed out after %.0f s\n%s" % (timeout, _tail(e.stderr or b"")))
    duration = time.monotonic() - start
    result = compare(case, proc.stdout, duration=duration)
    if proc.returncode != 0:
        result.passed, result.crashed = False, True
        result.error = ("exited with code %d; stderr (last lines):\n%s"
                        % (proc.returncode, _tail(proc.stderr)))
    return result
