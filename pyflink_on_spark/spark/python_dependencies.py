"""The job's Python dependencies (specs.stage.PythonDependencies) shipped with Spark's own
mechanisms, as PyFlink ships them to its Python workers:

* add_python_file: `SparkContext.addPyFile` (a .py file, a zip or egg as it is; a wheel
  under a .zip name, as Spark puts only those on the workers' path; a directory zipped
  first, so that what it holds imports, as PyFlink puts the directory on the path).
* add_python_archive(path, target): `SparkContext.addArchive("path#target")`: Spark unpacks
  it into `target` under SparkFiles' root on each worker; the tasks run with that root as
  their working directory, so `open("target/...")` works as in PyFlink's workers.
* set_python_requirements(file, cache_dir): the file (and the cache directory, zipped, as an
  archive) go to the workers, where each Python worker installs them once with pip into a
  directory under SparkFiles' root that goes on its sys.path (WorkerSetup.prepare).
* set_python_executable: the interpreter of the job's Python UDFs (PySpark's
  `SparkContext.pythonExec`, which each mapInArrow function carries), for this job only.

Spark Connect has no SparkContext: there these raise NotImplementedError.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from typing import Iterator, Optional, Tuple

from pyflink_on_spark.private_files import shared_temp_dir
from pyflink_on_spark.specs.stage import PythonDependencies

_SPARK_PY_FILES = (".py", ".zip", ".egg")
_ZIP_FORMATS = (".whl", ".jar")


@dataclass(frozen=True)
class WorkerSetup:
    """What each task does before running its operators (shipped with the stage function)."""
    chdir_to_files: bool = False                 # archives: work in SparkFiles' root
    requirements: Optional[str] = None           # requirements file name in SparkFiles
    requirements_cache: Optional[str] = None     # the cache archive's directory name
    # pyarrow options for S3-API stores, from the session's s3a settings (spark/object_storage.py)
    object_storage: Tuple[Tuple[str, object], ...] = ()
    # the job's python.executable (set_python_executable), None: PyFlink's default "python"
    python_executable: Optional[str] = None

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        """Runs the task with the requirements on sys.path and, when the job has archives,
        in SparkFiles' root (the previous working directory is restored after)."""
        if self.requirements is None and not self.chdir_to_files:
            yield
            return
        from pyspark import SparkFiles
        root = SparkFiles.getRootDirectory()
        if self.requirements is not None:
            target = install_requirements(root, self.requirements, self.requirements_cache)
            if target not in sys.path:
                sys.path.insert(0, target)
        if not self.chdir_to_files:
            yield
            return
        previous = os.getcwd()
        os.chdir(root)
        try:
            yield
        finally:
            os.chdir(previous)


def install_requirements(root: str, requirements: str, cache: Optional[str]) -> str:
    """pip-installs the requirements file once per worker machine (a file lock makes other
    Python workers wait for the first); the directory they are installed into."""
    import fcntl
    target = os.path.join(root, "python-requirements-" + requirements)
    if os.path.isdir(target):
        return target
    with open(target + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.isdir(target):
            return target
        staging = target + ".installing"
        shutil.rmtree(staging, ignore_errors=True)
        command = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check",
                   "--no-warn-script-location", "--target", staging,
                   "-r", os.path.join(root, requirements)]
        if cache is not None:
            command += ["--no-index", "--find-links", os.path.join(root, cache)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError("set_python_requirements: installing the requirements on a "
                               "Spark worker failed (%s):\n%s%s" % (
                                   " ".join(command), done.stdout, done.stderr))
        os.rename(staging, target)
    return target


def ship_dependencies(session, python: PythonDependencies) -> Tuple[WorkerSetup, Optional[str]]:
    """Registers the files with the session's SparkContext; the tasks' WorkerSetup and the
    interpreter the job's workers must run (None: the session's)."""
    if not python:
        return WorkerSetup(), None
    try:
        context = session.sparkContext
    except Exception:  # Spark Connect: no SparkContext on the client
        raise NotImplementedError(
            "add_python_file / add_python_archive / set_python_requirements / "
            "set_python_executable are not supported on Spark Connect: add the files with "
            "SparkSession.addArtifacts before running the job") from None
    for path in python.files:
        context.addPyFile(_py_file(_existing(path, "add_python_file")))
    for path, target in python.archives:
        archive = _existing(path, "add_python_archive")
        context.addArchive("%s#%s" % (archive, target or os.path.basename(archive)))
    setup = WorkerSetup(chdir_to_files=bool(python.archives))
    if python.requirements is not None:
        requirements, cache = python.requirements
        shipped = _stable_copy(_existing(requirements, "set_python_requirements"),
                               "requirements", ".txt")
        context.addFile(shipped)
        cache_name = None
        if cache:
            cache_zip = _zipped(_existing(cache, "set_python_requirements"), "pip-cache")
            cache_name = os.path.splitext(os.path.basename(cache_zip))[0]
            context.addArchive("%s#%s" % (cache_zip, cache_name))
        setup = WorkerSetup(setup.chdir_to_files, os.path.basename(shipped), cache_name)
    return setup, python.executable


@contextlib.contextmanager
def worker_python(session, executable: Optional[str]) -> Iterator[None]:
    """While the job's stage functions are made, they carry `executable` as their
    interpreter (SparkContext.pythonExec); the session's own afterwards."""
    if executable is None:
        yield
        return
    context = session.sparkContext
    _require_daemon_module(context, executable)
    previous = context.pythonExec
    context.pythonExec = executable
    try:
        yield
    finally:
        context.pythonExec = previous


_importable: dict = {}   # (executable, module) -> whether that Python imports the module


def _require_daemon_module(context, executable: str) -> None:
    """set_python_executable(X) on a local Spark whose workers' daemon is this package's
    (session.py LOCAL_WORKER_DAEMON): X must import it, or its workers would fail to start
    with a Java stack trace; say so before the job runs."""
    import subprocess
    from pyflink_on_spark.spark.session import DAEMON_MODULE_KEY, is_this_python
    module = context.getConf().get(DAEMON_MODULE_KEY, None)
    if not module or not module.startswith("pyflink_on_spark.") or is_this_python(executable):
        return
    key = (executable, module)
    if key not in _importable:
        try:
            _importable[key] = subprocess.run(
                [executable, "-c", "import importlib.util, sys; sys.exit(importlib.util."
                 "find_spec(%r) is None)" % module], capture_output=True,
                timeout=60).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            _importable[key] = False
    if not _importable[key]:
        raise RuntimeError(
            "set_python_executable(%r): that Python cannot import %s, which runs the job's "
            "Python workers on a local Spark; install pyflink-on-spark into it (or run with "
            "--conf %s=pyspark.daemon)" % (executable, module, DAEMON_MODULE_KEY))


def _existing(path: str, api: str) -> str:
    local = path[len("file://"):] if path.startswith("file://") else path
    if not os.path.exists(local):
        raise FileNotFoundError("%s: %s does not exist" % (api, path))
    return os.path.abspath(local)


def _py_file(path: str) -> str:
    """A path Spark's addPyFile puts on the workers' sys.path."""
    if os.path.isdir(path):
        return _zipped(path, os.path.basename(os.path.normpath(path)))
    if path.lower().endswith(_SPARK_PY_FILES):
        return path
    if path.lower().endswith(_ZIP_FORMATS):
        return _stable_copy(path, os.path.splitext(os.path.basename(path))[0], ".zip")
    raise ValueError("add_python_file(%r): not a .py file, a zip, egg or wheel, or a "
                     "directory" % path)


def _digest(path: str) -> str:
    digest = hashlib.sha256()
    if os.path.isdir(path):
        for base, dirs, files in sorted(os.walk(path)):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(base, name)
                digest.update(os.path.relpath(full, path).encode())
                with open(full, "rb") as f:
                    digest.update(f.read())
    else:
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()[:12]


def _shipping_dir() -> str:
    """Where made-up files live: one stable path per content (Spark refuses a file name
    registered twice with different paths, and accepts the same path again). They go on the
    workers' sys.path, and a file already there is reused: the directory is the user's own,
    0700, and refused when another user made it (shared_temp_dir)."""
    return shared_temp_dir("pyflink-on-spark-shipped")


def _stable_copy(path: str, stem: str, suffix: str) -> str:
    target = os.path.join(_shipping_dir(), "%s-%s%s" % (stem, _digest(path), suffix))
    if not os.path.exists(target):
        shutil.copyfile(path, target + ".tmp")
        os.replace(target + ".tmp", target)
    return target


def _zipped(directory: str, stem: str) -> str:
    """The directory's contents as a zip (entries relative to the directory)."""
    target = os.path.join(_shipping_dir(), "%s-%s.zip" % (stem, _digest(directory)))
    if not os.path.exists(target):
        with zipfile.ZipFile(target + ".tmp", "w", zipfile.ZIP_DEFLATED) as archive:
            for base, dirs, files in os.walk(directory):
                dirs.sort()
                for name in sorted(files):
                    full = os.path.join(base, name)
                    archive.write(full, os.path.relpath(full, directory))
        os.replace(target + ".tmp", target)
    return target
