"""The shim ships itself to executors that cannot import it: a job's functions reach the
executors pickled, and the shim's own classes are pickled by reference, so every Python worker
imports `pyflink_on_spark`. A cluster's executors (standalone, YARN, Kubernetes) or a Spark
Connect server run a Python of their own, a plain PySpark environment; without this every job
failed there with "No module named 'pyflink_on_spark'".

What goes: one zip of the shim's package and of the pure-Python packages it needs that PySpark
does not bring (cloudpickle: the shim uses the standalone package; PySpark bundles its own copy
under another name), with bytecode compiled beside each module (a zip cannot cache bytecode,
and compiling ~40k lines in every new Python worker cost it a second). It is built once per
content of those packages and kept in the user's cache. Spark's own mechanisms carry it:
`SparkContext.addPyFile` on a classic session, `SparkSession.addArtifacts(pyfile=True)` on
Spark Connect; both put it ahead of the workers' site-packages, so the driver's version wins
over an older one installed there.

When: a classic session ships unless its master is local and its workers run this very
interpreter (they import the installed package, with its bytecode); a Connect session ships
unless it is the server `pyflink-on-spark serve` started (its workers import this checkout).
Once per SparkContext or Connect session; never with PYFLINK_ON_SPARK_SHIP=0 (workers that
have the shim installed). Compiled dependencies (rocksdict, for
EmbeddedRocksDBStateBackend) are not in the zip: docs/deploy.md says what to install.
"""
from __future__ import annotations

import hashlib
import importlib
import os
import py_compile
import sys
import tempfile
import threading
import zipfile
from typing import Callable, Iterator, List, Optional, Tuple

from pyflink_on_spark.private_files import private_dir
from pyflink_on_spark.runtime.errors import JobExecutionError

# PYFLINK_ON_SPARK_SHIP=0: the workers have the shim installed (an image, a packed
# environment): nothing is shipped
SHIP_ENV = "PYFLINK_ON_SPARK_SHIP"
# the packages the zip carries, by import name
SHIPPED_PACKAGES = ("pyflink_on_spark", "cloudpickle")
# what executors never need: the shim's own tests and their data
_SKIPPED_DIRS = {"tests", "__pycache__"}
ZIP_PREFIX = "pyflink-on-spark-shipped-"

_lock = threading.Lock()
_shipped_to: List[object] = []     # the SparkContexts / Connect sessions that have the zip
_native_shipped_to: List[object] = []   # the SparkContexts whose workers have rocksdict


def _package_root(name: str) -> str:
    module = importlib.import_module(name)
    return os.path.dirname(os.path.abspath(module.__file__))


def _package_files(name: str) -> Iterator[Tuple[str, str]]:
    """(path on disk, path in the zip) of every file of the package but its tests."""
    root = _package_root(name)
    parent = os.path.dirname(root)
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        for file in sorted(files):
            if file.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(directory, file)
            yield path, os.path.relpath(path, parent).replace(os.sep, "/")


def fingerprint() -> str:
    """What the zip is built from: each file's path, size and modification time (an edited
    checkout gets a new zip), and the Python whose bytecode goes in."""
    digest = hashlib.sha256(sys.version.encode())
    for name in SHIPPED_PACKAGES:
        for path, arcname in _package_files(name):
            stat = os.stat(path)
            digest.update(("%s\0%d\0%d\n" % (arcname, stat.st_size, stat.st_mtime_ns)).encode())
    return digest.hexdigest()[:20]


def _cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pyflink-on-spark", "shipped")


def package_zip(cache_dir: Optional[str] = None) -> str:
    """The zip of SHIPPED_PACKAGES for this content, built when missing (in the cache, private
    to the user: it is code the workers run)."""
    directory = private_dir(cache_dir or _cache_dir(), "the shipped package cache")
    path = os.path.join(directory, "%s%s.zip" % (ZIP_PREFIX, fingerprint()))
    if os.path.isfile(path):
        return path
    for stale in os.listdir(directory):   # earlier contents of the checkout: not needed
        if stale.startswith(ZIP_PREFIX) and stale.endswith(".zip"):
            try:
                os.unlink(os.path.join(directory, stale))
            except OSError:
                pass
    _build_whole(path, _write_zip)
    return path


def _build_whole(path: str, write: Callable[[str], None]) -> None:
    """`write` a file beside `path`, then rename it there: whole or not at all, as another
    run may read it at any moment."""
    fd, building = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".building")
    os.close(fd)
    try:
        write(building)
        os.replace(building, path)
    finally:
        if os.path.exists(building):
            os.unlink(building)


def _write_zip(path: str) -> None:
    with tempfile.TemporaryDirectory() as scratch, \
            zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        compiled = os.path.join(scratch, "module.pyc")
        for name in SHIPPED_PACKAGES:
            for source, arcname in _package_files(name):
                archive.write(source, arcname)
                if not source.endswith(".py"):
                    continue
                # beside the module, as zipimport looks for it; unchecked-hash bytecode needs
                # no timestamp to match, and a worker of another Python version (another
                # magic number) compiles the source instead
                try:
                    py_compile.compile(source, cfile=compiled, dfile=arcname, doraise=True,
                                       invalidation_mode=py_compile.PycInvalidationMode
                                       .UNCHECKED_HASH)
                except py_compile.PyCompileError:
                    continue
                archive.write(compiled, arcname[:-len(".py")] + ".pyc")


def shipping_turned_off() -> bool:
    return os.environ.get(SHIP_ENV, "1").strip().lower() in ("0", "false", "no", "off")


def needs_shipping(master: Optional[str], worker_python: Optional[str]) -> bool:
    """Whether a classic session's workers may lack the installed shim: any master but a
    local one, or a local one whose workers run another interpreter."""
    from pyflink_on_spark.spark.session import is_local_master, is_this_python
    return not (is_local_master(master) and is_this_python(worker_python))


def ship_package(session) -> Optional[str]:
    """Ships the zip to the session's workers if they need it, once per SparkContext or
    Connect session; the zip's path when it was shipped now."""
    from pyflink_on_spark.spark.session import is_connect
    if shipping_turned_off():
        return None
    if is_connect(session):
        if _serves_this_checkout(session):
            return None
        owner = session
    else:
        owner = session.sparkContext
        if not needs_shipping(owner.master, owner.pythonExec):
            return None
    with _lock:
        if _has(_shipped_to, owner):
            return None
        path = package_zip()
        if is_connect(session):
            session.addArtifacts(path, pyfile=True)
        else:
            owner.addPyFile(path)
        _remember(_shipped_to, owner)
    return path


def _has(shipped: List[object], owner) -> bool:
    return any(entry is owner for entry in shipped)


def _remember(shipped: List[object], owner) -> None:
    shipped.append(owner)
    del shipped[:-8]          # sessions long gone need no entry


# Where a native package shipped as an archive lands on the workers (under SparkFiles'
# root), and goes on the tasks' sys.path (stage_task.prepare_worker)
NATIVE_ARCHIVE_DIR = "pyflink_on_spark_native"


class ExecutorsCannotRunJob(JobExecutionError):
    """The executors lack a compiled package the job needs, and the driver's copy cannot go
    there (another Python version or platform): raised before any of the job's tasks runs."""


def job_uses_rocksdb(job) -> bool:
    from pyflink_on_spark.runtime.state.factory import uses_rocksdb
    return any(uses_rocksdb(stage.spec.config.state_backend) for stage in job.stages)


def _probe_workers(batches):
    """What a worker's Python is: its version, its platform, its rocksdict (or None)."""
    import sysconfig
    import pyarrow as pa
    for _ in batches:
        pass
    try:
        import rocksdict
        from importlib import metadata
        found = metadata.version("rocksdict") if hasattr(rocksdict, "Rdict") else ""
    except ImportError:
        found = None
    yield pa.RecordBatch.from_pydict({
        "python": ["%d.%d" % sys.version_info[:2]], "platform": [sysconfig.get_platform()],
        "rocksdict": [found]})


def probe_workers(session) -> dict:
    """One task's answer to _probe_workers (a cluster's executors run one Python)."""
    row = session.range(0, 1, 1, 1).mapInArrow(
        _probe_workers, "python string, platform string, rocksdict string").collect()[0]
    return {"python": row["python"], "platform": row["platform"],
            "rocksdict": row["rocksdict"]}


def _driver_python() -> Tuple[str, str]:
    import sysconfig
    return "%d.%d" % sys.version_info[:2], sysconfig.get_platform()


def ship_native_packages(session, job) -> Optional[str]:
    """For a job whose keyed state lives in RocksDB, on a classic session whose workers may
    lack the shim: rocksdict on the workers. Nothing when they have the driver's version; the
    driver's copy as an archive (unpacked by Spark on each worker) when their Python version
    and platform are the driver's; else ExecutorsCannotRunJob, naming what to install where.
    Once per SparkContext. The archive's path when it was shipped now."""
    from pyflink_on_spark.spark.session import is_connect
    if is_connect(session) or not job_uses_rocksdb(job) or shipping_turned_off():
        return None
    context = session.sparkContext
    if not needs_shipping(context.master, context.pythonExec):
        return None
    with _lock:
        if _has(_native_shipped_to, context):
            return None
        from importlib import metadata
        wanted = metadata.version("rocksdict")
        workers = probe_workers(session)
        if workers["rocksdict"] == wanted:
            _remember(_native_shipped_to, context)
            return None
        python, platform = _driver_python()
        if (workers["python"], workers["platform"]) != (python, platform):
            raise ExecutorsCannotRunJob(
                "EmbeddedRocksDBStateBackend needs rocksdict %s in the executors' Python "
                "(%s: Python %s on %s), which %s. The driver's copy is built for Python %s on "
                "%s and cannot go there: install it in the executors' Python (pip install "
                "rocksdict==%s), or ship an environment that has it (--archives, "
                "docs/deploy.md), or use HashMapStateBackend."
                % (wanted, context.pythonExec, workers["python"], workers["platform"],
                   "has rocksdict %s" % workers["rocksdict"] if workers["rocksdict"]
                   else "cannot import it", python, platform, wanted))
        path = _native_zip("rocksdict")
        context.addArchive("%s#%s" % (path, NATIVE_ARCHIVE_DIR))
        _remember(_native_shipped_to, context)
    return path



def _native_zip(name: str) -> str:
    """A zip of an installed package as it is (compiled modules too), in the cache."""
    from importlib import metadata
    directory = private_dir(_cache_dir(), "the shipped package cache")
    path = os.path.join(directory, "native-%s-%s-%s.zip" % (
        name, metadata.version(name), "-".join(_driver_python()).replace("/", "_")))
    if os.path.isfile(path):
        return path
    def write(building: str) -> None:
        with zipfile.ZipFile(building, "w", zipfile.ZIP_DEFLATED) as archive:
            for source, arcname in _package_files(name):
                archive.write(source, arcname)
    _build_whole(path, write)
    return path


def native_archive_path() -> Optional[str]:
    """In a task: the directory of the native packages shipped as an archive, if any."""
    try:
        from pyspark.files import SparkFiles
        root = SparkFiles.getRootDirectory()
    except Exception:   # not in a Spark worker (the direct runner, tests)
        return None
    path = os.path.join(root, NATIVE_ARCHIVE_DIR)
    return path if os.path.isdir(path) else None


def _serves_this_checkout(session) -> bool:
    """The Connect server is the one `pyflink-on-spark serve` started from this installation
    (its Python workers import it from here)."""
    from pyflink_on_spark.spark.connect_server import is_loopback, served
    info = served()
    builder = getattr(getattr(session, "client", None), "_builder", None)
    if info is None or builder is None:
        return False
    host, _, port = str(getattr(builder, "endpoint", "")).rpartition(":")
    return is_loopback(host) and port == str(info.port)
