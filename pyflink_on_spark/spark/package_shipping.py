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
from typing import Iterator, List, Optional, Tuple

from pyflink_on_spark.private_files import private_dir

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
    fd, building = tempfile.mkstemp(dir=directory, suffix=".building")
    os.close(fd)
    try:
        _write_zip(building)
        os.replace(building, path)   # whole or not at all: another run may read it now
    finally:
        if os.path.exists(building):
            os.unlink(building)
    return path


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


def needs_shipping(master: Optional[str], worker_python: Optional[str]) -> bool:
    """Whether a classic session's workers may lack the installed shim: any master but a
    local one, or a local one whose workers run another interpreter."""
    from pyflink_on_spark.spark.session import is_local_master, is_this_python
    return not (is_local_master(master) and is_this_python(worker_python))


def ship_package(session) -> Optional[str]:
    """Ships the zip to the session's workers if they need it, once per SparkContext or
    Connect session; the zip's path when it was shipped now."""
    from pyflink_on_spark.spark.session import is_connect
    if os.environ.get(SHIP_ENV, "1").strip().lower() in ("0", "false", "no", "off"):
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
        if any(shipped is owner for shipped in _shipped_to):
            return None
        path = package_zip()
        if is_connect(session):
            session.addArtifacts(path, pyfile=True)
        else:
            owner.addPyFile(path)
        _shipped_to.append(owner)
        del _shipped_to[:-8]          # sessions long gone need no entry
    return path


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
