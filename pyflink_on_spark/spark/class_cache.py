"""A class-data-sharing archive of the classes Spark's driver JVM loads (issue 14).

Measured on a 2-core machine with Java 17: the SparkSession of a local run took 5.7-6.0 s
to start and its first job 2.7-2.8 s; with a dynamic CDS archive of the classes a previous
run loaded, 3.3-3.5 s and 1.4-1.5 s. Most of a cold start is the JVM loading and verifying
tens of thousands of Spark classes from ~250 jars; an archive maps them in pre-parsed.

Java 17 has no self-maintaining archive (-XX:+AutoCreateSharedArchive is Java 19+), so:
- the first run without an archive writes one at its JVM's exit (-XX:ArchiveClassesAtExit)
  into a temporary file named after the run, and records its JVM's pid beside it;
- a later run promotes a temporary archive whose JVM has ended (the dump is complete) to
  the archive's name, and uses it (-XX:SharedArchiveFile);
- the archive's name hashes what the JVM checks it against (the java binary and Spark's
  jars), so a new Java or Spark writes a new one; a JVM that still finds it unusable runs
  without it (-Xshare:auto), its CDS log lines off: they would go to the job's stdout;
- each new Spark install (a new virtualenv, an upgrade) or class path (a connector's
  package) has an archive of its own, ~150 MB each: a run marks the archive it uses as
  used (its mtime), and archives beyond the _KEEP_ARCHIVES last used, or not used for
  _UNUSED_DAYS, are removed (a machine found with 48 of them, 7 GB, from CI's fresh
  virtualenvs, before this).
PYFLINK_ON_SPARK_CLASS_CACHE=0 turns all of this off.
"""
from __future__ import annotations

import glob
import hashlib
import os
import time
from typing import Optional

from pyflink_on_spark.codecs.files.staging import process_alive
from pyflink_on_spark.private_files import open_private, private_dir

CLASS_CACHE_ENV = "PYFLINK_ON_SPARK_CLASS_CACHE"
_QUIET = "-Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off"
_MIN_ARCHIVE_BYTES = 1 << 20        # an archive of Spark's classes is ~150 MB
_MAX_FAILURES = 3
_KEEP_ARCHIVES = 4                   # e.g. two Spark installs, each with and without Kafka
_UNUSED_DAYS = 30
_OWNED_FLAGS = ("SharedArchiveFile", "ArchiveClassesAtExit", "-Xshare")


def cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pyflink-on-spark", "class-cache")


def archive_key(java: str, spark_home: str, extra_class_path: str = "") -> str:
    """What the JVM validates an archive against: the java binary and the class path."""
    digest = hashlib.sha256()
    real = os.path.realpath(java)
    digest.update(("%s %d\n" % (real, os.stat(real).st_mtime_ns)).encode())
    jars = os.path.join(spark_home, "jars")
    for name in sorted(os.listdir(jars)) if os.path.isdir(jars) else ():
        st = os.stat(os.path.join(jars, name))
        digest.update(("%s %d %d\n" % (name, st.st_size, st.st_mtime_ns)).encode())
    digest.update(extra_class_path.encode())
    return digest.hexdigest()[:20]


def _read_pid(path: str) -> Optional[int]:
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


class ClassCache:
    """The archive of one (java, Spark) pair: which JVM options a new driver gets."""

    def __init__(self, key: str, directory: Optional[str] = None) -> None:
        self.directory = directory or cache_dir()
        self.archive = os.path.join(self.directory, key + ".jsa")
        self._failures = os.path.join(self.directory, key + ".failures")
        self._prefix = os.path.join(self.directory, key + ".")
        self.writing: Optional[str] = None   # the temporary archive this run's JVM writes

    def java_options(self) -> str:
        """Options for the driver JVM about to start ("" when no archive can be used)."""
        try:
            mapped = self._mapped()
            if mapped:
                return mapped
            if self._failure_count() >= _MAX_FAILURES or self._someone_writing():
                return ""
            self.writing = "%s%d.jsa.tmp" % (self._prefix, os.getpid())
            return "-XX:ArchiveClassesAtExit=%s %s" % (self.writing, _QUIET)
        except OSError:
            return ""   # only a cache: an unwritable home runs without it

    def mapping_options(self) -> str:
        """Options for a JVM that may use the archive but must not write one ("" when there
        is none yet): a long-running server (`serve`), which is stopped by a signal and
        killed when slow to stop, so an archive it wrote at exit could be cut short."""
        try:
            return self._mapped()
        except OSError:
            return ""

    def _mapped(self) -> str:
        """The options mapping the finished archive ("" when there is none); OSError when
        the directory is not this user's own."""
        # the driver JVM maps the archive in: only this user may put one here (another
        # user's directory, or a symlink, is refused: OSError, and no archive is used)
        private_dir(self.directory, "the class cache directory")
        self._promote_finished()
        if os.path.exists(self.archive):
            self._mark_used()
            return "-XX:SharedArchiveFile=%s %s" % (self.archive, _QUIET)
        return ""

    def started(self, jvm_pid: int) -> None:
        """The JVM writing self.writing runs as `jvm_pid`: its archive is complete once that
        process has ended."""
        if self.writing is None:
            return
        try:
            with open_private(self.writing + ".jvm", "w") as f:
                f.write(str(jvm_pid))
        except OSError:
            pass

    def _mark_used(self) -> None:
        """The archive was used now (its mtime): the eviction of others keeps it."""
        try:
            os.utime(self.archive)
            evict_unused(self.directory)
        except OSError:
            pass

    def _failure_count(self) -> int:
        try:
            return os.path.getsize(self._failures)
        except OSError:
            return 0

    def _count_failure(self) -> None:
        with open_private(self._failures, "a") as f:
            f.write("x")

    def _someone_writing(self) -> bool:
        for marker in glob.glob(glob.escape(self._prefix) + "*.jsa.tmp.jvm"):
            pid = _read_pid(marker)
            if pid is not None and process_alive(pid):
                return True
        return False

    def _promote_finished(self) -> None:
        """Temporary archives whose JVM has ended: the first complete one becomes the
        archive, the rest are removed. A JVM can end without writing one (killed, or a Java
        without a base archive): after _MAX_FAILURES of those, stop asking."""
        for marker in glob.glob(glob.escape(self._prefix) + "*.jsa.tmp.jvm"):
            pid = _read_pid(marker)
            if pid is not None and process_alive(pid):
                continue
            tmp = marker[:-len(".jvm")]
            try:
                size = os.path.getsize(tmp)
            except OSError:
                size = 0
            if size >= _MIN_ARCHIVE_BYTES and not os.path.exists(self.archive):
                os.replace(tmp, self.archive)
            elif size < _MIN_ARCHIVE_BYTES and not os.path.exists(self.archive):
                self._count_failure()
            for path in (tmp, marker):
                if os.path.exists(path):
                    os.remove(path)
        # a temporary without a pid marker: its run died before its JVM was up
        for tmp in glob.glob(glob.escape(self._prefix) + "*.jsa.tmp"):
            if not os.path.exists(tmp + ".jvm"):
                owner = _read_pid_from_name(tmp)
                if owner is None or not process_alive(owner):
                    os.remove(tmp)


def evict_unused(directory: str, keep: int = _KEEP_ARCHIVES,
                 unused_days: float = _UNUSED_DAYS) -> None:
    """Removes the archives (and their failure counts) beyond the `keep` last used, and
    those not used for `unused_days`. A JVM that has one mapped keeps its mapping."""
    archives = []
    for name in os.listdir(directory):
        if name.endswith(".jsa"):
            path = os.path.join(directory, name)
            try:
                archives.append((os.path.getmtime(path), path))
            except OSError:
                continue
    archives.sort(reverse=True)
    oldest_kept = time.time() - unused_days * 86400
    for rank, (used, path) in enumerate(archives):
        if rank >= keep or used < oldest_kept:
            for stale in (path, path[:-len(".jsa")] + ".failures"):
                try:
                    os.remove(stale)
                except OSError:
                    pass


def _read_pid_from_name(tmp: str) -> Optional[int]:
    try:
        return int(os.path.basename(tmp).split(".")[-3])
    except (IndexError, ValueError):
        return None


def with_class_cache(java_options: str, cache: Optional[ClassCache]) -> str:
    """`java_options` plus the archive's options, unless the user manages CDS already."""
    if cache is None or any(flag in java_options for flag in _OWNED_FLAGS):
        return java_options
    extra = cache.java_options()
    return (java_options + " " + extra).strip() if extra else java_options


def class_cache_for(java: Optional[str], spark_home: Optional[str],
                    extra_class_path: str = "") -> Optional[ClassCache]:
    """The cache for this Java and Spark, None when turned off or not determinable."""
    if os.environ.get(CLASS_CACHE_ENV, "1").strip().lower() in ("0", "false", "no", "off"):
        return None
    if not java or not spark_home:
        return None
    try:
        return ClassCache(archive_key(java, spark_home, extra_class_path))
    except OSError:
        return None
