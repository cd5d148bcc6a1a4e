"""Directories and files the shim makes for itself, private to the user who runs it.

Why: what the shim keeps between runs is code or leads to code. Checkpointed state and
RocksDB values are pickles, unpickled on restore; shipped dependencies are zips put on the
workers' sys.path; the class cache is a JVM archive the driver maps in. os.makedirs() and
open() follow the umask (typically 0755 / 0644), and a fixed name in a shared directory
(/tmp) can be made first by another user, as a directory they own or as a symlink to a file
of ours. So: new directories are 0700, new files 0600, and an existing directory or file at
one of our paths must be ours and not a symlink, or it is refused with UnsafePathError (a
PermissionError: places that treat the file as a cache, which catch OSError, do without).

Leaf module (standard library only): the engine, the Spark executor and the tools all use it
(docs/ARCHITECTURE.md). The outputs a user asks for (a FileSink's files, a plan written with
-o) are not made here: they keep the umask's modes, as Flink's do.
"""
from __future__ import annotations

import os
import stat
import tempfile
from typing import IO, Optional

DIR_MODE = 0o700
FILE_MODE = 0o600
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_FLAGS = {"w": os.O_WRONLY | os.O_CREAT, "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
          "x": os.O_WRONLY | os.O_CREAT | os.O_EXCL}


class UnsafePathError(PermissionError):
    """A path the shim would write or read its own data at is someone else's, or a
    symlink."""


def _uid() -> Optional[int]:
    return os.getuid() if hasattr(os, "getuid") else None    # None: no owners (Windows)


def _refuse(path: str, st: os.stat_result, what: str) -> None:
    uid = _uid()
    if stat.S_ISLNK(st.st_mode):
        raise UnsafePathError(
            "pyflink_on_spark: %s %s is a symbolic link; the shim keeps its own files only in "
            "a real directory of yours. Remove the link (or point the setting at another "
            "directory) and run again." % (what, path))
    if uid is not None and st.st_uid != uid:
        raise UnsafePathError(
            "pyflink_on_spark: %s %s belongs to uid %d, not to you (uid %d): another user "
            "could change what the shim reads back from it. Remove it, or chown it to "
            "yourself if it is yours, and run again." % (what, path, st.st_uid, uid))


def _narrow(fd: int, st: os.stat_result) -> None:
    """Takes the group's and others' permissions off an entry of ours (made by an earlier
    version, or under a wider umask); through the descriptor, not the name, so the entry
    cannot be swapped for another between the check and the change."""
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o077 and hasattr(os, "fchmod"):
        os.fchmod(fd, mode & ~0o077)


def ensure_owned(path: str, what: str = "the directory") -> bool:
    """Whether ``path`` exists; raises UnsafePathError when it does but is a symlink or is
    another user's. Nothing is created or changed."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    _refuse(path, st, what)
    return True


def makedirs_private(path: str) -> None:
    """Creates every missing directory of ``path`` with mode 0700 (os.makedirs gives that
    mode to the last one only); directories that exist are left as they are."""
    missing = []
    head = os.path.abspath(path)
    while not os.path.lexists(head):
        missing.append(head)
        parent = os.path.dirname(head)
        if parent == head:
            break
        head = parent
    for directory in reversed(missing):
        try:
            os.mkdir(directory, DIR_MODE)
        except FileExistsError:
            pass     # made meanwhile (a concurrent task): checked by whoever relies on it


def user_cache_path(name: str) -> str:
    """~/.cache/pyflink-on-spark/<name> (under $XDG_CACHE_HOME when set): where the tool
    keeps what it learns between runs (class cache, shipped packages, resolved jars)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pyflink-on-spark", name)


def private_dir(path: str, what: str = "the directory") -> str:
    """``path`` as a directory only this user can enter: created 0700 (missing parents too),
    or, when it exists, checked to be ours and not a symlink, then narrowed to 0700.
    Returns ``path``."""
    makedirs_private(path)
    if _uid() is None:
        return path       # no owners or modes to check here (Windows: the profile's ACLs)
    try:
        fd = os.open(path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW)
    except OSError:
        ensure_owned(path, what)     # a symlink (ELOOP) or not a directory: say which
        raise
    try:
        st = os.fstat(fd)
        _refuse(path, st, what)
        _narrow(fd, st)
    finally:
        os.close(fd)
    return path


def shared_temp_dir(name: str) -> str:
    """``<temp dir>/<name>-<uid>``, private: a fixed name the shim reuses across runs (so
    another user may have made it first, which is refused), one per user (so two users of
    one machine do not refuse each other)."""
    uid = _uid()
    directory = os.path.join(tempfile.gettempdir(),
                             name if uid is None else "%s-%d" % (name, uid))
    return private_dir(directory)


def open_private(path: str, mode: str = "wb", encoding: Optional[str] = None) -> IO:
    """open(path, mode) for writing ("w", "a" or "x", binary or text) that creates the file
    0600, refuses a symlink or another user's file at ``path``, and narrows a file of ours
    that is wider than 0600. "w" truncates only after those checks."""
    kind = mode.replace("b", "").replace("t", "")
    if kind not in _FLAGS:
        raise ValueError("open_private: mode %r; use w, a or x (with b for bytes)" % mode)
    try:
        fd = os.open(path, _FLAGS[kind] | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    except OSError:
        if os.path.islink(path):
            ensure_owned(path, "the file")
        raise
    try:
        st = os.fstat(fd)
        _refuse(path, st, "the file")
        _narrow(fd, st)
        if kind == "w":
            os.ftruncate(fd, 0)
        return os.fdopen(fd, mode, encoding=encoding)
    except BaseException:
        os.close(fd)
        raise
