"""Sweeping the temp directory of what earlier runs left: the directories named with one
prefix that their owner no longer needs (a process that is gone, or an age)."""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from typing import Callable, Optional


def remove_left_behind(prefix: str, left_behind: Callable[[os.DirEntry], bool],
                       root: Optional[str] = None) -> int:
    """Removes the entries of `root` (the temp directory) named `prefix`... for which
    `left_behind(entry)` holds; how many. An entry that vanishes or cannot be read is
    skipped, and so is another user's: the temp directory is shared, and their runs are
    not ours to judge (nor are the files in their directories ours to read)."""
    root = root or tempfile.gettempdir()
    try:
        entries = [e for e in os.scandir(root) if e.name.startswith(prefix)]
    except OSError:
        return 0
    removed = 0
    for entry in entries:
        try:
            if not _ours(entry) or not left_behind(entry):
                continue
        except OSError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed += 1
    return removed


def untouched_for(entry: os.DirEntry, seconds: float) -> bool:
    """Nothing has modified `entry` for `seconds` (OSError if it is gone)."""
    return entry.stat().st_mtime < time.time() - seconds


def _ours(entry: os.DirEntry) -> bool:
    """The entry belongs to this process's user (everything does where there are no
    owners)."""
    return not hasattr(os, "getuid") or entry.stat(follow_symlinks=False).st_uid == os.getuid()
