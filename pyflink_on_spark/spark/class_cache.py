"""A class-data-sharing archive of the classes Spark's driver JVM loads (issue 14).

Measured on a 2-core machine with Java 17: the SparkSession of a local run took 5.7-6.0 s
to start and its first job 2.7-2.8 s; with a dynamic CDS archive of the classes a previous
run loaded, 3.3-3.5 s and 1.4-1.5 s. Most of a cold start is the JVM loading and verifying
tens of thousands of Spark classes from ~250 jars; an archive maps them in pre-parsed.

Java 17 has no self-maintaining archive (-XX:+AutoCreateSharedArchive is Java 19+), so:
- the first run of a class-path key only records the key as seen (KEY.seen); the second
  writes an archive at its JVM's exit (-XX:ArchiveClassesAtExit) into a temporary file
  named after the run, and records its JVM's pid beside it; the ones after map it. Why not
  the first: the dump is dear and pays only after several starts. Measured on the 2-core
  machine (a session start, range(3).count() and the end of the session, CPU-s of the
  whole process tree, 4 runs each at load 13-40): 21-25 without an archive, 61-68 writing
  one (the dump ~43 CPU-s, and the exit waits for it: 88-190 s wall at that load), 12-13
  mapping one. So an archive pays for its dump after ~4 starts that map it; a class path
  used once (a one-off connector's jars) paid the dump and never mapped it. Now a key used
  more than once pays one more start without the archive (~10 CPU-s, a quarter of a dump);
- a run promotes a temporary archive whose JVM has ended (the dump is complete) to its
  key's archive name, of any key in the directory, not only its own (a temporary of a key
  never started again stayed forever: seven of ~190 MB on one machine), and uses its own
  (-XX:SharedArchiveFile);
- the archive's name hashes what the JVM checks it against (the java binary and Spark's
  jars), so a new Java or Spark writes a new one; a JVM that still finds it unusable runs
  without it (-Xshare:auto), its CDS log lines off: they would go to the job's stdout;
- each new Spark install (a new virtualenv, an upgrade) or class path (a connector's
  package) has an archive of its own, ~150 MB each: a run marks the archive it uses as
  used (its mtime), and archives beyond the _KEEP_ARCHIVES last used, or not used for
  _UNUSED_DAYS, are removed (a machine found with 48 of them, 7 GB, from CI's fresh
  virtualenvs, before this); so are the seen and failure records of keys unused as long.
- a writer holds the key for WRITER_HOLD_S at most: while its JVM runs, other starts of the
  key run without an archive rather than write a second one, but a writer that lives long
  (an unbounded job, a notebook's session) dumps only when it exits, maybe days later. Seen
  on the test suite, whose session JVM lives for the whole run: started as its key's second
  (after a test's driver in one process, after the other worker's session in two xdist
  workers), it held the key for all of it, so every JVM the tests started ran without one
  (the tests whose drivers only map one took 35-67% less time once the session's JVM no
  longer held it: fresh-clone CIs of 407551f and 63d0341, test_runs_on_any_spark 257 -> 150
  s, test_bare_connect_server 108 -> 65 s, test_prestart 63 -> 21 s). After the hold, the
  next start of the key writes one too; the first complete one is kept, the other removed
  when its JVM ends.
PYFLINK_ON_SPARK_CLASS_CACHE=0 turns all of this off; =map maps an archive when there is one
and never records or writes one, for a process whose JVM lives long (a notebook), as `serve`'s
Connect server does; `map_only_in_this_process()` does the same for this process alone (a
test session, whose subprocesses start JVMs as users do).
"""
from __future__ import annotations

import fcntl
import glob
import hashlib
import os
import time
from typing import Optional

from pyflink_on_spark.codecs.files.staging import process_alive
from pyflink_on_spark.private_files import open_private, private_dir, user_cache_path

CLASS_CACHE_ENV = "PYFLINK_ON_SPARK_CLASS_CACHE"
_QUIET = "-Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off"
_MIN_ARCHIVE_BYTES = 1 << 20        # an archive of Spark's classes is ~150 MB
_MAX_FAILURES = 3
_KEEP_ARCHIVES = 4                   # e.g. two Spark installs, each with and without Kafka
_UNUSED_DAYS = 30
_OWNED_FLAGS = ("SharedArchiveFile", "ArchiveClassesAtExit", "-Xshare")
WRITER_HOLD_S = 600.0   # a short run's JVM exits (and dumps) well within it
_map_only_here = False  # map_only_in_this_process()


def cache_dir() -> str:
    return user_cache_path("class-cache")


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

    def __init__(self, key: str, directory: Optional[str] = None,
                 map_only: bool = False) -> None:
        self.directory = directory or cache_dir()
        self.map_only = map_only   # maps an archive, never records a sight or writes one
        self.archive = os.path.join(self.directory, key + ".jsa")
        self._failures = os.path.join(self.directory, key + ".failures")
        self._seen = os.path.join(self.directory, key + ".seen")
        self._prefix = os.path.join(self.directory, key + ".")
        self.writing: Optional[str] = None   # the temporary archive this run's JVM writes

    def java_options(self) -> str:
        """Options for the driver JVM about to start ("" when no archive can be used)."""
        try:
            mapped = self._mapped()
            if mapped or self.map_only:
                return mapped
            if self._failure_count() >= _MAX_FAILURES or self._someone_writing():
                return ""
            if not self._seen_before():
                return ""   # first sight: a key used once never pays the dump
            return self._claim_writing()
        except OSError:
            return ""   # only a cache: an unwritable home runs without it

    def wants_archive(self) -> bool:
        """Whether a start of this key would still try to write its archive: none yet, none
        being written, and not given up on (_MAX_FAILURES)."""
        try:
            private_dir(self.directory, "the class cache directory")
            promote_finished(self.directory)
            return not (os.path.exists(self.archive) or self._someone_writing()
                        or self._failure_count() >= _MAX_FAILURES)
        except OSError:
            return False

    def expect_many_starts(self) -> None:
        """The caller knows this key will start many JVMs (a test run): its next start writes
        the archive, without the first-sight rule's wait for a second start."""
        try:
            with open_private(self._seen, "w"):
                pass
        except OSError:
            pass

    def _claim_writing(self) -> str:
        """This run's JVM writes the archive, unless another start claimed it first. The
        claim is its marker, naming this process until started() names the JVM: two drivers
        starting at once (tests in two processes) both wrote one when the marker waited for
        the JVM to be up (~10-20 s), one dump (~43 CPU-s) of the two thrown away."""
        directory = os.open(self.directory, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            fcntl.flock(directory, fcntl.LOCK_EX)   # (released as it closes)
            if self._someone_writing():
                return ""
            writing = "%s%d.jsa.tmp" % (self._prefix, os.getpid())
            with open_private(writing + ".jvm", "w") as f:
                f.write(str(os.getpid()))
        finally:
            os.close(directory)
        self.writing = writing
        return "-XX:ArchiveClassesAtExit=%s %s" % (self.writing, _QUIET)

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
        promote_finished(self.directory)
        if os.path.exists(self.archive):
            self._mark_used()
            return "-XX:SharedArchiveFile=%s %s" % (self.archive, _QUIET)
        evict_unused(self.directory)
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

    def _someone_writing(self) -> bool:
        """Whether a live JVM started within WRITER_HOLD_S writes this key's archive (its
        marker is written as it starts)."""
        for marker in glob.glob(glob.escape(self._prefix) + "*.jsa.tmp.jvm"):
            pid = _read_pid(marker)
            try:
                held = time.time() - os.path.getmtime(marker) < WRITER_HOLD_S
            except OSError:
                continue
            if held and pid is not None and process_alive(pid):
                return True
        return False

    def _seen_before(self) -> bool:
        """Whether a run saw this key before (its record is kept fresh); records it if not."""
        if os.path.exists(self._seen):
            os.utime(self._seen)
            return True
        with open_private(self._seen, "w"):
            pass
        return False


def _count_failure(directory: str, key: str) -> None:
    with open_private(os.path.join(directory, key + ".failures"), "a") as f:
        f.write("x")


def promote_finished(directory: str) -> None:
    """Temporary archives, of every key, whose JVM has ended: the first complete one of a key
    becomes its archive, the rest are removed. A JVM can end without writing one (killed, or
    a Java without a base archive): that counts as a failure of its key, and after
    _MAX_FAILURES of those, no more attempts."""
    for name in os.listdir(directory):
        if not name.endswith(".jsa.tmp.jvm"):
            continue
        marker = os.path.join(directory, name)
        pid = _read_pid(marker)
        if pid is not None and process_alive(pid):
            continue                       # still running (or still dumping)
        key = name.split(".")[0]
        archive = os.path.join(directory, key + ".jsa")
        tmp = marker[:-len(".jvm")]
        try:
            size = os.path.getsize(tmp)
        except OSError:
            size = 0
        try:
            if not os.path.exists(archive):
                if size >= _MIN_ARCHIVE_BYTES:
                    os.replace(tmp, archive)
                else:
                    _count_failure(directory, key)
            for path in (tmp, marker):
                if os.path.exists(path):
                    os.remove(path)
        except OSError:
            continue   # another run promoted or removed it at the same time
    # a temporary without a pid marker: its run died before its JVM was up
    for name in os.listdir(directory):
        tmp = os.path.join(directory, name)
        if name.endswith(".jsa.tmp") and not os.path.exists(tmp + ".jvm"):
            owner = _read_pid_from_name(tmp)
            if owner is None or not process_alive(owner):
                try:
                    os.remove(tmp)
                except OSError:
                    pass


def evict_unused(directory: str, keep: int = _KEEP_ARCHIVES,
                 unused_days: float = _UNUSED_DAYS) -> None:
    """Removes the archives (and their failure counts) beyond the `keep` last used, and
    those not used for `unused_days`, and the seen and failure records of keys not started
    for `unused_days`. A JVM that has one mapped keeps its mapping."""
    archives = []
    oldest_kept = time.time() - unused_days * 86400
    for name in os.listdir(directory):
        path = os.path.join(directory, name)
        try:
            if name.endswith(".jsa"):
                archives.append((os.path.getmtime(path), path))
            elif name.endswith((".seen", ".failures")) and os.path.getmtime(path) < oldest_kept:
                os.remove(path)
        except OSError:
            continue
    archives.sort(reverse=True)
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


def map_only_in_this_process() -> None:
    """JVMs this process starts map an archive and never write one (as with
    PYFLINK_ON_SPARK_CLASS_CACHE=map, which subprocesses would inherit)."""
    global _map_only_here
    _map_only_here = True


def class_cache_for(java: Optional[str], spark_home: Optional[str],
                    extra_class_path: str = "") -> Optional[ClassCache]:
    """The cache for this Java and Spark, None when turned off or not determinable."""
    mode = os.environ.get(CLASS_CACHE_ENV, "1").strip().lower()
    if mode in ("0", "false", "no", "off"):
        return None
    if not java or not spark_home:
        return None
    try:
        return ClassCache(archive_key(java, spark_home, extra_class_path),
                          map_only=mode == "map" or _map_only_here)
    except OSError:
        return None
