"""Run a PyFlink script in this process on the shim (used by `run` and by `compat`)."""
from __future__ import annotations

import contextlib
import io
import os
import runpy
import sys
from typing import List, Optional, Tuple

from pyflink_on_spark.aliasing import install_pyflink_alias


# the globals of the scripts `run` ran: alive until the process exits, as a script's are
# when Python runs it (runpy drops them on return, and a file the script left open in a
# reference cycle was then collected, its buffered text lost, where `python job.py` writes it)
_kept_globals: List[dict] = []


def run_script(path: str, argv: List[str], keep_globals: bool = False) -> None:
    """Run `path` as __main__ with `argv`, its `pyflink` imports resolved to the shim;
    keep_globals: its globals stay alive until the process exits (`run`)."""
    install_pyflink_alias()
    path = os.path.abspath(path)
    script_dir = os.path.dirname(path)
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    sys.argv = [path] + list(argv)
    sys.path.insert(0, script_dir)
    # Spark tasks add it to sys.path too, so modules beside the script import in the workers
    from pyflink_on_spark.spark.entry import add_script_dir, new_program
    add_script_dir(script_dir)
    new_program()
    try:
        script_globals = runpy.run_path(path, run_name="__main__")
        if keep_globals:
            _kept_globals.append(script_globals)
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path


def run_script_captured(path: str, argv: List[str]) -> Tuple[str, Optional[BaseException]]:
    """Run a script, capturing what it prints. Returns (stdout, the exception or None)."""
    buffer = io.StringIO()
    error: Optional[BaseException] = None
    with contextlib.redirect_stdout(buffer):
        try:
            run_script(path, argv)
        except SystemExit as e:
            if e.code not in (None, 0):
                error = e
        except BaseException as e:  # reported per case by the caller
            error = e
    return buffer.getvalue(), error
