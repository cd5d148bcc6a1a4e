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
have the shim installed).

The executors' Python: before a classic session ships, one task asks the executors' Python
itself (probe_workers, once per SparkContext) for its version, platform and compiled
packages. Another minor version than the driver's fails the job before any of its tasks
runs (PySpark would fail its first task: PYTHON_VERSION_MISMATCH), saying which Python to
name. Compiled packages a job's tasks import that PySpark's environment lacks (rocksdict for
EmbeddedRocksDBStateBackend, confluent-kafka for Kafka sinks, cassandra-driver and its
dependencies for CassandraSink, psycopg for JdbcSinks and the Table API's jdbc tables of
PostgreSQL: NATIVE_PACKAGES) go as an archive of the driver's installed
copy when the executors lack them and run the driver's platform; else the job fails before
it runs, naming what to install where. Spark Connect: neither (no SparkContext to run the
probe; the server's Python needs them). A DataStream job's compiled packages are those of
its stages (native_packages); a Table API query's those of the tables it reads
(table_native_packages: entry.py ships them before the query's Spark job runs).
"""
from __future__ import annotations

import ast
import fcntl
import hashlib
import importlib
import importlib.util
import os
import py_compile
import subprocess
import sys
import tempfile
import threading
import zipfile
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from pyflink_on_spark.private_files import private_dir
from pyflink_on_spark.runtime.errors import JobExecutionError

# PYFLINK_ON_SPARK_SHIP=0: the workers have the shim installed (an image, a packed
# environment): nothing is shipped
SHIP_ENV = "PYFLINK_ON_SPARK_SHIP"
# the packages the zip carries, by import name
SHIPPED_PACKAGES = ("pyflink_on_spark", "cloudpickle")
# pure-Python client libraries a connector's tasks import, in the zip when the driver has them
# installed (PyMySQL: JdbcSink with jdbc:mysql: / jdbc:mariadb: URLs; pika: RMQSource /
# RMQSink)
OPTIONAL_SHIPPED_PACKAGES = ("pymysql", "pika")
# what executors never need: the shim's own tests and their data
_SKIPPED_DIRS = {"tests", "__pycache__"}
ZIP_PREFIX = "pyflink-on-spark-shipped-"

_lock = threading.Lock()
_shipped_to: List[object] = []     # the SparkContexts / Connect sessions that have the zip


def shipped_packages() -> List[str]:
    """SHIPPED_PACKAGES and those of OPTIONAL_SHIPPED_PACKAGES installed here."""
    return list(SHIPPED_PACKAGES) + [name for name in OPTIONAL_SHIPPED_PACKAGES
                                     if importlib.util.find_spec(name) is not None]


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
    for name in shipped_packages():
        for path, arcname in _package_files(name):
            stat = os.stat(path)
            digest.update(("%s\0%d\0%d\n" % (arcname, stat.st_size, stat.st_mtime_ns)).encode())
    return digest.hexdigest()[:20]


def _cache_dir() -> str:
    from pyflink_on_spark.private_files import user_cache_path
    return user_cache_path("shipped")


def package_zip(cache_dir: Optional[str] = None) -> str:
    """The zip of SHIPPED_PACKAGES for this content, built when missing (in the cache, private
    to the user: it is code the workers run)."""
    directory = private_dir(cache_dir or _cache_dir(), "the shipped package cache")
    path = os.path.join(directory, "%s%s.zip" % (ZIP_PREFIX, fingerprint()))
    for _ in range(5):   # another version's clean-up may remove it before it is held
        if not os.path.isfile(path):
            _remove_unused_zips(directory)
            _build_whole(path, _write_zip)
        if _hold(path):
            return path
    raise RuntimeError("pyflink_on_spark: the shipped package %s kept disappearing (another "
                       "process removes files in %s)" % (path, directory))


# zip path -> an open descriptor holding a shared lock on it for this process's life: Spark's
# file server hands the zip to every executor that starts, for as long as the job runs (an
# executor restarted months into an unbounded job fetches it again). Another installation
# or version of the shim on this machine (a second virtualenv, CI beside a developer's run)
# has another zip, and removes only zips no live process holds.
_held: Dict[str, int] = {}


def _hold(path: str) -> bool:
    """Whether this process now holds the zip at `path` (False: it was removed meanwhile)."""
    if path in _held:
        return True
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    fcntl.flock(fd, fcntl.LOCK_SH)
    try:
        same = os.stat(path).st_ino == os.fstat(fd).st_ino   # not removed before the lock
    except FileNotFoundError:
        same = False
    if not same:
        os.close(fd)
        return False
    _held[path] = fd
    return True


def _remove_unused_zips(directory: str) -> None:
    """Zips of other contents (earlier versions of the checkout, other installations) that no
    live process holds."""
    for stale in os.listdir(directory):
        if not (stale.startswith(ZIP_PREFIX) and stale.endswith(".zip")):
            continue
        path = os.path.join(directory, stale)
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(path)   # under the lock: no one can take it before it is gone
        except OSError:
            pass              # in use by a running driver
        finally:
            os.close(fd)


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
        for name in shipped_packages():
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
    Connect session; the zip's path when it was shipped now. On a classic session, first
    ExecutorsCannotRunJob unless the executors run the driver's minor Python version."""
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
        # before the job's first task: PySpark's own check fails that task instead
        executors_python(owner)
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


# --- compiled packages, and the executors' Python --------------------------------------

class ExecutorsCannotRunJob(JobExecutionError):
    """The executors' Python cannot run the job: another minor version than the driver's
    (PySpark refuses it), or it lacks a compiled package the job needs whose driver's copy
    cannot go there. Raised before any of the job's tasks runs."""


@dataclass(frozen=True)
class NativePackage:
    """A compiled package that parts of a job import in the executors' Python workers and a
    plain PySpark environment lacks. Shipped as it is installed (its modules, the shared
    libraries its wheel bundles beside them, e.g. confluent_kafka.libs/librdkafka)."""
    distribution: str        # its name for pip and importlib.metadata
    needed_by: str           # what of the job needs it, for the error
    alternative: str         # what else the job can do, for the error
    any_version: bool        # another version on the executors does as well as the driver's


# rocksdict: the driver's version (its RocksDB writes the checkpoints a later run restores)
ROCKSDICT = NativePackage("rocksdict", "EmbeddedRocksDBStateBackend",
                          ", or use HashMapStateBackend", any_version=False)
# confluent-kafka: the sinks' producers (runtime/operators/kafka_sink.py); KafkaSource reads
# with Spark's own Kafka reader and lists offsets on the driver. Any release speaks Kafka.
CONFLUENT_KAFKA = NativePackage("confluent-kafka", "KafkaSink / FlinkKafkaProducer", "",
                                any_version=True)
# cassandra-driver and what it imports (geomet; Deprecated, which needs the compiled wrapt):
# CassandraSink's writes (codecs/cassandra/writer.py). Any release speaks CQL.
CASSANDRA_DRIVER = tuple(NativePackage(name, "CassandraSink", "", any_version=True)
                         for name in ("cassandra-driver", "geomet", "Deprecated", "wrapt"))
# psycopg 3 with its compiled libpq build, which must be psycopg's own version, and
# typing-extensions, which psycopg imports: JdbcSink with jdbc:postgresql: URLs
# (codecs/jdbc/drivers.py), and jdbc tables (table/jdbc_tables.py: their scans read through
# psycopg in the tasks, their INSERTs write through the JdbcSink's writer)
_PSYCOPG_USERS = "JdbcSink or a jdbc table with a jdbc:postgresql: URL"
PSYCOPG = (NativePackage("psycopg", _PSYCOPG_USERS, "", any_version=False),
           NativePackage("psycopg-binary", _PSYCOPG_USERS, "", any_version=False),
           NativePackage("typing-extensions", _PSYCOPG_USERS, "", any_version=True))
NATIVE_PACKAGES = (ROCKSDICT, CONFLUENT_KAFKA) + CASSANDRA_DRIVER + PSYCOPG


def job_uses_rocksdb(job) -> bool:
    from pyflink_on_spark.runtime.state.factory import uses_rocksdb
    return any(uses_rocksdb(stage.spec.config.state_backend) for stage in job.stages)


def job_writes_kafka(job) -> bool:
    from pyflink_on_spark.specs.sinks import KafkaSinkSpec, KafkaTransactionalSinkSpec
    return any(isinstance(op.op, (KafkaSinkSpec, KafkaTransactionalSinkSpec))
               for stage in job.stages for op in stage.spec.operators)


def job_writes_cassandra(job) -> bool:
    from pyflink_on_spark.specs.sinks import CassandraSinkSpec
    return any(isinstance(op.op, CassandraSinkSpec)
               for stage in job.stages for op in stage.spec.operators)


def job_writes_postgresql(job) -> bool:
    from pyflink_on_spark.specs.sinks import JdbcSinkSpec
    return any(isinstance(op.op, JdbcSinkSpec) and op.op.url.startswith("jdbc:postgresql:")
               for stage in job.stages for op in stage.spec.operators)


def job_reads_postgresql(job) -> bool:
    """A stage reads a table (to_data_stream, an INSERT into a jdbc table) that reads a jdbc
    table of PostgreSQL."""
    from pyflink_on_spark.specs.sources import TableSourceSpec
    return any(stage.source is not None and isinstance(stage.source.frame, TableSourceSpec)
               and table_reads_postgresql(stage.source.frame.table) for stage in job.stages)


def table_reads_postgresql(description) -> bool:
    """A table description (specs/tables.py) reads a jdbc table of PostgreSQL: a scan whose
    tasks read through psycopg (its rows say so: table/jdbc_tables.py ScanRows), among the
    tables it reads in the end; for a table made from a DataStream, among the tables its
    graph's sources read."""
    from pyflink_on_spark.spark.table_feeds import leaves, stream_sources
    from pyflink_on_spark.specs.sources import TableSourceSpec
    from pyflink_on_spark.specs.tables import GeneratedTable, StreamTable
    for leaf in leaves(description):
        if isinstance(leaf, GeneratedTable) and getattr(leaf.rows, "reads_postgresql", False):
            return True
        if isinstance(leaf, StreamTable) and any(
                isinstance(node.source, TableSourceSpec) and
                table_reads_postgresql(node.source.table) for node in stream_sources(leaf)):
            return True
    return False


def native_packages(job) -> List[NativePackage]:
    """The compiled packages the job's tasks import."""
    return [package for package, used in ((ROCKSDICT, job_uses_rocksdb(job)),
                                          (CONFLUENT_KAFKA, job_writes_kafka(job))) if used] \
        + (list(CASSANDRA_DRIVER) if job_writes_cassandra(job) else []) \
        + (list(PSYCOPG) if job_writes_postgresql(job) or job_reads_postgresql(job) else [])


def table_native_packages(descriptions) -> List[NativePackage]:
    """The compiled packages the tasks of a Table API query over `descriptions` import."""
    return list(PSYCOPG) if any(table_reads_postgresql(d) for d in descriptions) else []


# Run by the executors' Python itself, not a PySpark worker: a worker of another minor
# version than the driver's fails before it runs anything (PYTHON_VERSION_MISMATCH), and
# its version is what is asked. Kept to what `python -c` has loaded anyway (site imports
# os and sysconfig): importlib.metadata and json took 60 of its 90 ms. A distribution's
# version is in its .dist-info directory's name (normalised: lower case, "_" for "-").
# Python 2 answers too.
_PROBE = r"""
import os, sys, sysconfig
found = {}
for name in sys.argv[1:]:
    found[name] = None
    prefix = name.replace("-", "_").lower() + "-"
    for entry in sys.path:
        try:
            hits = [n for n in os.listdir(entry or ".")
                    if n.lower().startswith(prefix) and n.endswith(".dist-info")]
        except OSError:
            continue
        if hits:
            found[name] = hits[0][len(prefix):-len(".dist-info")]
            break
print(repr({"python": "%d.%d" % tuple(sys.version_info[:2]),
            "platform": sysconfig.get_platform(), "packages": found}))
"""


def probe_workers(context) -> dict:
    """What the executors' Python is: {"python": "3.11", "platform": "linux-x86_64",
    "packages": {distribution: version or None}} of NATIVE_PACKAGES. `context.pythonExec`
    run as an executor runs it for its Python workers (the same command, environment and
    directory): through one task of a JVM RDD piping through it (a cluster's executors run
    one Python); a local master's executors are this machine, where it runs from here (0.02
    s; as a Spark job it was the new context's first one, 0.4-0.5 s)."""
    from pyflink_on_spark.spark.session import is_local_master
    command = [context.pythonExec, "-c", _PROBE] + [p.distribution for p in NATIVE_PACKAGES]
    try:
        if is_local_master(context.master):
            # Spark adds spark.executorEnv.* (context.environment) to its workers' environment
            output = subprocess.run(command, capture_output=True, text=True, check=True,
                                    stdin=subprocess.DEVNULL, timeout=120,
                                    env=dict(os.environ, **context.environment)).stdout
        else:
            context.setLocalProperty("spark.job.description",
                                     "pyflink-on-spark: which Python the executors run")
            try:   # no input rows: the process gets an empty stdin, closed at once
                output = "\n".join(context._jsc.parallelize([], 1).pipe(command).collect())
            finally:
                context.setLocalProperty("spark.job.description", None)
    except Exception as e:
        if isinstance(e, subprocess.CalledProcessError):   # its error's last line says why
            cause = "exit status %d %s" % (e.returncode, (e.stderr.strip().splitlines()
                                                          or [""])[-1])
        else:   # Spark's "Job aborted ...: java.io.IOException: Cannot run program ..."
            cause = str(getattr(getattr(e, "java_exception", None), "getMessage",
                                lambda: str(e))()).strip().splitlines()[0]
        raise ExecutorsCannotRunJob(
            "The executors could not run their Python %r (PYSPARK_PYTHON / "
            "spark.pyspark.python), asked which version it is: %s. Name a Python %s that "
            "exists on every executor." % (context.pythonExec, cause.strip()[:600],
                                           _driver_python()[0])) from None
    last = (output.strip().splitlines() or [""])[-1]
    try:
        return ast.literal_eval(last)
    except (ValueError, SyntaxError):   # a wrapper that printed something else
        raise ExecutorsCannotRunJob(
            "The executors' Python %r, asked which version it is, answered %r: name a "
            "Python %s with PYSPARK_PYTHON or --conf spark.pyspark.python."
            % (context.pythonExec, last[:300], _driver_python()[0])) from None


_probed: List[Tuple[object, str, dict]] = []   # (SparkContext, pythonExec, its answer)


def executors_python(context) -> dict:
    """probe_workers' answer, once per SparkContext and executors' Python; raises
    ExecutorsCannotRunJob when that Python's minor version is not the driver's."""
    with _lock:
        found = next((answer for owner, python, answer in _probed
                      if owner is context and python == context.pythonExec), None)
        if found is None:
            found = probe_workers(context)
            _probed.append((context, context.pythonExec, found))
            del _probed[:-8]          # sessions long gone need no entry
    python = _driver_python()[0]
    if found["python"] != python:
        raise ExecutorsCannotRunJob(
            "The executors' Python (%s) is Python %s, the driver's (%s) Python %s: PySpark "
            "runs a job's functions only in the same minor version. Name a Python %s on the "
            "executors with PYSPARK_PYTHON or --conf spark.pyspark.python."
            % (context.pythonExec, found["python"], sys.executable, python, python))
    return found


def _driver_python() -> Tuple[str, str]:
    import sysconfig
    return "%d.%d" % sys.version_info[:2], sysconfig.get_platform()


def _installed_version(distribution: str) -> Optional[str]:
    from importlib import metadata
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


# SparkContext -> the native packages its archives hold so far, in the order shipped
_native_shipped: List[Tuple[object, List[NativePackage]]] = []


def ship_native_packages(session, job=None, tables=()) -> Optional[str]:
    """The compiled packages a DataStream `job` needs (native_packages), or a Table API
    query reading the table descriptions `tables` (table_native_packages), on the executors
    of a classic session whose workers may not be the driver's Python: nothing for a package they have
    (the driver's version, or any for a package that takes any); else the driver's copy as
    an archive (unpacked by Spark on each worker) when their platform is the driver's; else
    ExecutorsCannotRunJob, naming what to install where. Each package once per
    SparkContext. The archive's path when one was shipped now."""
    from pyflink_on_spark.spark.session import is_connect
    if is_connect(session) or shipping_turned_off():
        return None
    context = session.sparkContext
    if not needs_shipping(context.master, context.pythonExec):
        return None
    needed = (native_packages(job) if job is not None else []) + \
        table_native_packages(tables)
    if not needed:
        return None
    workers = executors_python(context)
    with _lock:
        shipped = next((packages for owner, packages in _native_shipped
                        if owner is context), [])
        missing = [p for p in needed if p not in shipped and not _executors_have(p, workers)]
        if not missing:
            return None
        platform = _driver_python()[1]
        unshippable = [p for p in missing
                       if workers["platform"] != platform or _installed_version(
                           p.distribution) is None]
        if unshippable:
            raise ExecutorsCannotRunJob(" ".join(
                _cannot_ship(p, context.pythonExec, workers) for p in unshippable))
        packages = shipped + missing
        path = _native_zip(packages)
        # each archive holds all shipped so far, in a directory of its own (numbered by
        # how many packages came before it): the highest number is all a task needs
        context.addArchive("%s#%s-%d" % (path, NATIVE_ARCHIVE_DIR, len(shipped)))
        _native_shipped[:] = [(o, p) for o, p in _native_shipped if o is not context][-7:]
        _native_shipped.append((context, packages))
    return path


def _executors_have(package: NativePackage, workers: dict) -> bool:
    theirs = workers["packages"].get(package.distribution)
    return theirs is not None and (package.any_version
                                   or theirs == _installed_version(package.distribution))


def _cannot_ship(package: NativePackage, python: str, workers: dict) -> str:
    ours = _installed_version(package.distribution)
    theirs = workers["packages"].get(package.distribution)
    if ours is None:
        why = "The driver has none to ship"
    else:
        why = "The driver's copy (%s) is built for %s and cannot go there" % (
            ours, " on ".join(_driver_python()))
    return ("%s needs %s in the executors' Python (%s: Python %s on %s), which %s. %s: "
            "install it in the executors' Python (pip install %s), or ship an environment "
            "that has it (--archives, docs/deploy.md)%s." % (
                package.needed_by, package.distribution, python, workers["python"],
                workers["platform"], "has %s %s" % (package.distribution, theirs) if theirs
                else "cannot import it", why,
                package.distribution + ("==" + ours if ours else ""), package.alternative))


# Where the native packages' archives land on the workers: "<this>-<n>" under SparkFiles'
# root; the newest (highest n) goes on the tasks' sys.path (stage_task.prepare_worker)
NATIVE_ARCHIVE_DIR = "pyflink_on_spark_native"


def _native_zip(packages: List[NativePackage]) -> str:
    """A zip of installed distributions as pip installed them (the files of their RECORD:
    modules, compiled extensions, the shared libraries their wheels bundle in a directory
    beside the package, found there through the extensions' relative RPATH), in the
    cache."""
    from importlib import metadata
    described = ["%s==%s" % (p.distribution, metadata.version(p.distribution))
                 for p in packages]
    digest = hashlib.sha256("\n".join(described + list(_driver_python())).encode())
    directory = private_dir(_cache_dir(), "the shipped package cache")
    path = os.path.join(directory, "native-%s-%s.zip" % (
        "-".join(d.replace("==", "-") for d in described), digest.hexdigest()[:12]))
    if os.path.isfile(path):
        return path

    def write(building: str) -> None:
        with zipfile.ZipFile(building, "w", zipfile.ZIP_DEFLATED) as archive:
            for package in packages:
                distribution = metadata.distribution(package.distribution)
                for file in distribution.files or ():
                    parts = file.parts
                    if not parts or parts[0] == ".." or os.path.isabs(str(file)):
                        continue     # its scripts, installed elsewhere
                    source = str(distribution.locate_file(file))
                    if os.path.isfile(source):
                        archive.write(source, "/".join(parts))
    _build_whole(path, write)
    return path


def use_native_packages() -> None:
    """In a task: the newest archive of native packages shipped, if any, on sys.path ahead of
    the executors' site-packages (stage_task.prepare_worker; a jdbc table's scan, which runs
    in a task of Spark SQL's own)."""
    native = native_archive_path()
    if native is not None and native not in sys.path:
        sys.path.insert(1, native)


def native_archive_path() -> Optional[str]:
    """In a task: the directory of the newest archive of native packages shipped, if any."""
    try:
        from pyspark.files import SparkFiles
        root = SparkFiles.getRootDirectory()
        names = os.listdir(root)
    except Exception:   # not in a Spark worker (the direct runner, tests)
        return None
    prefix = NATIVE_ARCHIVE_DIR + "-"
    numbered = [(int(name[len(prefix):]), name) for name in names
                if name.startswith(prefix) and name[len(prefix):].isdigit()]
    if not numbered:
        return None
    path = os.path.join(root, max(numbered)[1])
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
