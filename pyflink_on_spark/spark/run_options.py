"""What the tool that runs a job (the CLI) knows and the executor needs, handed down as one
object set before the job script runs (spark/entry.py set_run_options); the executor never
reads the tool's globals."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Optional, Tuple


@dataclass(frozen=True)
class RunOptions:
    # directories of the job scripts being run: tasks add them to sys.path, so modules that
    # sit beside a job script import in Spark's Python workers too
    script_dirs: Tuple[str, ...] = ()
    master: Optional[str] = None                 # --master (default: local[*])
    conf: Tuple[Tuple[str, str], ...] = ()       # --conf key=value, in order
    verbose: bool = False                        # --verbose: Spark's own logs
    remote: Optional[str] = None                 # --remote sc://host:port: Spark Connect
    progress: bool = True                        # a progress line on a terminal (--quiet: off)
    ui: bool = False                             # --ui: the Spark UI on, its address printed


_run_options = RunOptions()


def set_run_options(options: RunOptions) -> None:
    global _run_options
    _run_options = options


def run_options() -> RunOptions:
    return _run_options


def add_script_dir(path: str) -> None:
    """Make `path` importable in the tasks of the jobs that run from now on."""
    if path not in _run_options.script_dirs:
        set_run_options(dataclasses.replace(
            _run_options, script_dirs=_run_options.script_dirs + (path,)))
