"""A real Spark standalone cluster with nothing of this project on it, for the tests of
issue 38 ("runs on any Spark as it is: a cluster or a Connect server with nothing of ours
installed").

Two parts:

* ``bare_python()``: the interpreter of a virtualenv holding only a plain PySpark
  environment (pyspark, py4j, pyarrow, pandas, numpy and their pure dependencies) and
  none of pyflink_on_spark, cloudpickle, rocksdict, psycopg, confluent_kafka, grpc. It is
  made of symlinks to the distributions installed beside this interpreter (downloading
  pyspark's ~400 MB in CI is too slow) and cached under the user's cache directory.
* ``start_cluster()``: a master and workers started by the pip pyspark's own launcher
  (``bin/spark-class``), listening on the loopback only. Which Python the executors run is
  chosen by the client (PYSPARK_PYTHON / spark.pyspark.python): ``Cluster.env()`` makes a
  client's environment that picks the bare one.

Everything runs on this one machine: executors can read the checkout's files by path. A
client that ships paths instead of contents would pass here and fail on a real cluster.
"""
from __future__ import annotations

import atexit
import ctypes
import hashlib
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import PurePosixPath
from typing import Dict, List, Mapping, Optional, Tuple

from pyflink_on_spark.tests.server_installs import installed_once

CLIENT_TIMEOUT_S = 300        # a client process on the cluster: JVM, executors, the job

# The plain PySpark environment a cluster's executors have: what `pip install pyspark[sql]`
# brings. six is python-dateutil's dependency in its 2.x releases only.
BARE_DISTRIBUTIONS = ("pyspark", "py4j", "pyarrow", "pandas", "numpy",
                      "python-dateutil", "pytz", "tzdata")
OPTIONAL_BARE_DISTRIBUTIONS = ("six",)
BARE_MUST_IMPORT = ("pyspark", "py4j", "pyarrow", "pandas", "numpy")
# this project and the dependencies it adds to PySpark's: the bare Python must have none
BARE_MUST_NOT_IMPORT = ("pyflink_on_spark", "cloudpickle", "rocksdict", "psycopg",
                        "confluent_kafka", "grpc")
# bumped when the layout of the bare virtualenv changes: older caches are not reused
_BARE_LAYOUT_VERSION = "1"
_COMPLETE_STAMP = "BARE-PYTHON-COMPLETE"

START_TIMEOUT_S = 120.0
STOP_TIMEOUT_S = 20.0
LOOPBACK = "127.0.0.1"

# WARN, not ERROR: a worker that fails to register says why only at WARN
_LOG4J2_PROPERTIES = """rootLogger.level = WARN
rootLogger.appenderRef.stderr.ref = STDERR
appender.stderr.type = Console
appender.stderr.name = STDERR
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n
logger.nativeload.name = org.apache.hadoop.util.NativeCodeLoader
logger.nativeload.level = ERROR
"""

# The daemons do little; a small heap and the client compiler start them sooner on 2 cores.
_DAEMON_JAVA_OPTIONS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1"
_DAEMON_MEMORY = "512m"
# Every JVM a worker starts (the executors) inherits its environment: with the client compiler
# only, an application's executors start and run the tests' small jobs sooner (measured on
# the 2-core machine at load 4-5: 16-22 s against 23-29 s for one small job on the cluster,
# start to exit). A JIT mode changes no result; the clients' own options are left as a user
# sends them.
_EXECUTOR_JIT_OPTION = "-XX:TieredStopAtLevel=1"


# --- the bare Python -------------------------------------------------------------------

def _cache_root() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pyflink-on-spark-tests")


def _bare_distributions() -> List[metadata.Distribution]:
    """The installed distributions the bare Python links to, in BARE_DISTRIBUTIONS order."""
    found, missing = [], []
    for name in BARE_DISTRIBUTIONS + OPTIONAL_BARE_DISTRIBUTIONS:
        try:
            found.append(metadata.distribution(name))
        except metadata.PackageNotFoundError:
            if name in BARE_DISTRIBUTIONS:
                missing.append(name)
    if missing:
        raise RuntimeError(
            "The bare Python for the standalone-cluster tests is made of the packages "
            "installed for %s, which lacks %s: install them there (pip install %s)."
            % (sys.executable, ", ".join(missing), " ".join(missing)))
    return found


def _top_level_entries(dist: metadata.Distribution) -> List[str]:
    """The absolute paths of `dist`'s entries directly in its site-packages directory
    (packages, modules, .libs directories, its .dist-info), from its RECORD. Scripts
    (paths starting with '..') stay out: the bare Python runs modules, not console
    scripts, and a __pycache__ holds other distributions' files too."""
    files = dist.files
    if files is None:
        raise RuntimeError(
            "%s %s has no RECORD of its files (%s), so the bare Python cannot link to "
            "it: reinstall it with pip." % (dist.metadata["Name"], dist.version,
                                             dist.locate_file("")))
    entries: Dict[str, None] = {}
    for file in files:
        path = PurePosixPath(str(file))
        if path.is_absolute() or not path.parts or path.parts[0] in ("..", "__pycache__"):
            continue
        parts = path.parts
        entries[str(dist.locate_file(parts[0]))] = None
    return [path for path in entries if os.path.lexists(path)]


def _bare_key(dists: List[metadata.Distribution]) -> str:
    described = [_BARE_LAYOUT_VERSION, sys.executable, sys.version] + [
        "%s==%s@%s" % (d.metadata["Name"], d.version, d.locate_file("")) for d in dists]
    return hashlib.sha256("\n".join(described).encode()).hexdigest()[:16]


def _python_of(venv: str) -> str:
    return os.path.join(venv, "bin", "python")


def _is_complete(venv: str) -> bool:
    """Built to the end here, and every link still points at an installed file (a package
    upgraded in place since changes the key; one removed leaves a dangling link)."""
    if not os.path.exists(os.path.join(venv, _COMPLETE_STAMP)) \
            or not os.path.exists(_python_of(venv)):
        return False
    with open(os.path.join(venv, _COMPLETE_STAMP)) as f:
        site_packages = os.path.join(venv, f.read().strip())
    try:
        names = os.listdir(site_packages)
    except OSError:
        return False
    return all(os.path.exists(os.path.join(site_packages, name)) for name in names)


def clean_python_environment(base: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """`base` (os.environ by default) without the variables that add to a Python's import
    path or change how it starts (PYTHONPATH, PYTHONHOME, PYTHONUSERBASE, ...)."""
    base = os.environ if base is None else base
    return {k: v for k, v in base.items() if not k.startswith("PYTHON")}


_PROBE = r"""
import importlib, json, site, sys
result = {"executable": sys.executable, "prefix": sys.prefix, "path": sys.path,
          "user_site": bool(site.ENABLE_USER_SITE), "imports": {}}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
        result["imports"][name] = None
    except Exception as e:
        result["imports"][name] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(result))
"""


def probe_python(python: str, modules: Tuple[str, ...]) -> dict:
    """What `python` sees when started with no PYTHON* variables, in an empty directory:
    its executable, prefix, sys.path, whether a user site is enabled, and for each module
    None (imported) or the error of importing it."""
    with tempfile.TemporaryDirectory(prefix="bare-python-probe-") as cwd:
        done = subprocess.run([python, "-c", _PROBE, *modules], capture_output=True,
                              text=True, cwd=cwd, env=clean_python_environment(),
                              timeout=120)
    if done.returncode != 0:
        raise RuntimeError("Running %s failed (exit %d):\n%s"
                           % (python, done.returncode, (done.stdout + done.stderr)[-3000:]))
    return json.loads(done.stdout.strip().splitlines()[-1])


def _verify_bare(venv: str) -> None:
    """Raises unless the Python of `venv` imports PySpark's environment and nothing of
    ours, and sees neither this interpreter's site-packages nor a user site."""
    import site
    found = probe_python(_python_of(venv), BARE_MUST_IMPORT + BARE_MUST_NOT_IMPORT)
    problems = []
    for name in BARE_MUST_IMPORT:
        if found["imports"][name] is not None:
            problems.append("cannot import %s: %s" % (name, found["imports"][name]))
    for name in BARE_MUST_NOT_IMPORT:
        if found["imports"][name] is None:
            problems.append("imports %s, which it must not have" % name)
    ours = [os.path.realpath(p) for p in site.getsitepackages() + [site.getusersitepackages()]]
    leaked = [p for p in found["path"] if p and os.path.realpath(p) in ours]
    if leaked:
        problems.append("has this interpreter's site-packages on its sys.path: %s" % leaked)
    if found["user_site"]:
        problems.append("has the user site enabled (include-system-site-packages is not "
                        "false in its pyvenv.cfg?)")
    if problems:
        raise RuntimeError("The bare Python built in %s is not bare:\n  %s\nIts sys.path: %s"
                           % (venv, "\n  ".join(problems), found["path"]))


def _build_bare(venv: str, dists: List[metadata.Distribution]) -> None:
    created = subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv],
                             capture_output=True, text=True)
    if created.returncode != 0:
        raise RuntimeError("python -m venv --without-pip %s failed:\n%s"
                           % (venv, created.stdout + created.stderr))
    site_packages = subprocess.run(
        [_python_of(venv), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True, text=True, check=True, env=clean_python_environment(),
        cwd=venv).stdout.strip()
    os.makedirs(site_packages, exist_ok=True)
    linked: Dict[str, str] = {}
    for dist in dists:
        for source in _top_level_entries(dist):
            name = os.path.basename(source)
            if name in linked:
                if linked[name] != source:
                    raise RuntimeError("Two distributions install %s: %s and %s"
                                       % (name, linked[name], source))
                continue   # a directory two of these distributions share
            os.symlink(source, os.path.join(site_packages, name))
            linked[name] = source
    _verify_bare(venv)
    # relative: the venv is renamed into place once built
    with open(os.path.join(venv, _COMPLETE_STAMP), "w") as f:
        f.write(os.path.relpath(site_packages, venv) + "\n")


def _remove_abandoned_builds(root: str, max_age_s: float = 3600.0) -> None:
    """Half-built virtualenvs of runs that died while building (an hour old: one being
    built right now elsewhere is left alone)."""
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        path = os.path.join(root, name)
        if name.startswith(".building-") or name.startswith(".removing-"):
            try:
                if time.time() - os.lstat(path).st_mtime > max_age_s:
                    shutil.rmtree(path, ignore_errors=True)
            except OSError:
                pass


@installed_once("bare python")
def bare_python() -> str:
    """The path of the interpreter of a virtualenv that has only a plain PySpark
    environment (BARE_DISTRIBUTIONS, linked from this interpreter's installation) and none
    of BARE_MUST_NOT_IMPORT. Built once per interpreter and set of versions, then reused:
    ~/.cache/pyflink-on-spark-tests/bare-python-<hash>."""
    dists = _bare_distributions()
    root = _cache_root()
    venv = os.path.join(root, "bare-python-" + _bare_key(dists))
    if _is_complete(venv):
        return _python_of(venv)
    os.makedirs(root, exist_ok=True)
    _remove_abandoned_builds(root)
    building = tempfile.mkdtemp(prefix=".building-", dir=root)
    try:
        # a virtualenv is found from its python's location (pyvenv.cfg beside bin/), and
        # its links point at absolute paths: it works renamed
        _build_bare(building, dists)
        if _is_complete(venv):      # another run built it meanwhile, and may be using it
            return _python_of(venv)
        if os.path.lexists(venv):   # a stale or broken one: out of the way first
            trash = tempfile.mkdtemp(prefix=".removing-", dir=root)
            try:
                os.rename(venv, os.path.join(trash, "old"))
            except OSError:
                pass   # another process just replaced it
            shutil.rmtree(trash, ignore_errors=True)
        try:
            os.rename(building, venv)
        except OSError:
            if not _is_complete(venv):   # not a concurrent build that won the race
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)
    if not _is_complete(venv):
        raise RuntimeError("The bare Python in %s was built but does not check out "
                           "complete; remove that directory and run again." % venv)
    return _python_of(venv)


# --- the cluster -----------------------------------------------------------------------

def spark_home() -> str:
    """The installed pyspark package: pip's pyspark carries Spark's jars and bin/ scripts."""
    import pyspark
    home = os.path.dirname(os.path.abspath(pyspark.__file__))
    if not os.path.exists(os.path.join(home, "bin", "spark-class")):
        raise RuntimeError("%s has no bin/spark-class: the standalone cluster needs "
                           "pyspark installed from PyPI (with its jars)." % home)
    return home


def class_sharing_options() -> str:
    """JVM options that map the class-data-sharing archive the shim's local sessions wrote
    for the installed pyspark's jars (spark/class_cache.py), "" when there is none (on CI,
    a job of the suite's controller writes it as the run starts: class_cache_prime.py). For the tests' plain PySpark drivers (a
    script's SparkSession, spark-submit, pyspark's own local Connect server): JVM options
    only, which start them quicker (half the JVM's CPU) and tell them nothing of the shim;
    they never write one."""
    from pyflink_on_spark.spark.class_cache import class_cache_for
    from pyflink_on_spark.spark.session import java_binary
    cache = class_cache_for(java_binary(), spark_home())
    return cache.mapping_options() if cache is not None else ""


def with_class_sharing(env: Dict[str, str]) -> Dict[str, str]:
    """`env` for a process whose pyspark launches a driver JVM of its own (pyspark reads
    PYSPARK_SUBMIT_ARGS for that launch): its driver maps class_sharing_options()."""
    options = class_sharing_options()
    if options:
        env["PYSPARK_SUBMIT_ARGS"] = "--driver-java-options %s pyspark-shell" % shlex.quote(
            options)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


_PR_SET_PDEATHSIG = 1


def _ends_with_parent():
    """A function for the child to run before exec (None off Linux) that has it sent
    SIGTERM when the thread that started it ends, so that a test run killed outright (no
    finalizers, no atexit) leaves no daemon behind; bin/spark-class execs the JVM, which
    keeps the setting. prctl is looked up here, in the parent: between fork and exec the
    child of a process with threads (py4j's, the JVM gateway's) must not take locks, and
    loading a library does."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _daemon_environment(conf_dir: str) -> Dict[str, str]:
    """The environment of the master and workers, and so of the executors the workers
    start: nothing that would give an executor this checkout or this virtualenv (no
    PYTHONPATH, which Spark adds to its Python workers' own; no virtualenv bin/ on PATH,
    where an executor looks for `python3` when the client names none), no Spark or
    project settings of the caller's."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "PYSPARK_", "SPARK_", "PYFLINK_ON_SPARK_"))
           and k != "VIRTUAL_ENV"}
    venv_bin = os.path.realpath(os.path.join(sys.prefix, "bin"))
    env["PATH"] = os.pathsep.join(
        p for p in os.environ.get("PATH", "").split(os.pathsep)
        if p and os.path.realpath(p) != venv_bin)
    env.update(SPARK_HOME=spark_home(), SPARK_CONF_DIR=conf_dir,
               # the daemons' web UIs bind SPARK_LOCAL_IP, else every interface
               SPARK_LOCAL_IP=LOOPBACK,
               SPARK_DAEMON_JAVA_OPTS=_DAEMON_JAVA_OPTIONS,
               SPARK_DAEMON_MEMORY=_DAEMON_MEMORY,
               JAVA_TOOL_OPTIONS=_EXECUTOR_JIT_OPTION)
    return env


@dataclass
class _Daemon:
    name: str
    process: subprocess.Popen
    log_path: str


def _tail(path: str, lines: int = 40) -> str:
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError as e:
        return "(no log: %s)" % e


def _group_members(pgid: int) -> List[int]:
    """The live (not zombie) processes of process group `pgid`."""
    if not os.path.isdir("/proc"):
        try:
            os.killpg(pgid, 0)
            return [pgid]
        except ProcessLookupError:
            return []
    from pyflink_on_spark.tests.processes import process_table
    return [p.pid for p in process_table() if p.group == pgid and p.state != "Z"]


def _processes_inside(root: str) -> List[int]:
    """Live processes whose working directory is in `root`: the executors' Python workers
    (pyspark's daemon makes a process group of its own, so killing the workers' groups
    does not reach them; they run in the executors' directories under the work dir)."""
    if not os.path.isdir("/proc"):
        return []
    root = os.path.realpath(root) + os.sep
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cwd = os.readlink("/proc/%s/cwd" % entry)
            with open("/proc/%s/stat" % entry) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if (cwd + os.sep).startswith(root) and state != "Z":
            found.append(int(entry))
    return found


_CLUSTER_PREFIX = "pyflink-on-spark-cluster-"


def _remove_abandoned_clusters(min_age_s: float = 60.0) -> None:
    """Directories of clusters whose test run was killed outright (their daemons ended with
    it, see _ends_with_parent; nothing removed their files): no process works in them any
    more. A minute old at least: one made right now has no daemon started yet."""
    if not os.path.isdir("/proc"):
        return
    base = tempfile.gettempdir()
    for name in os.listdir(base):
        path = os.path.join(base, name)
        if not name.startswith(_CLUSTER_PREFIX) or os.path.islink(path):
            continue
        try:
            if time.time() - os.lstat(path).st_mtime < min_age_s:
                continue
        except OSError:
            continue
        if not _processes_inside(path):
            shutil.rmtree(path, ignore_errors=True)


def _end(pids_of, send, timeout_s: float) -> None:
    """SIGTERM to what `send` reaches, wait up to `timeout_s` for `pids_of()` to be empty,
    then SIGKILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        send(sig)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not pids_of():
                return
            time.sleep(0.1)
    if pids_of():
        raise RuntimeError("Processes %s outlived SIGKILL" % pids_of())


@dataclass
class Cluster:
    """A running standalone cluster: `master_url` for clients, `env()` for a client
    process whose executors run `bare_python`, `stop()` to end it."""
    master_url: str
    web_ui_url: str
    bare_python: str
    root: str                     # logs, configuration and work directories
    work_dirs: List[str]          # one per worker: its executors run in there
    _daemons: List[_Daemon] = field(default_factory=list, repr=False)
    _stopped: bool = field(default=False, repr=False)
    _workers_deadline: Tuple[int, float] = field(default=(0, 0.0), repr=False)

    def wait_for_workers(self) -> None:
        """Returns once the master lists all workers alive; raises with the daemons' logs if
        one exits or START_TIMEOUT_S (from the cluster's start) passes first."""
        try:
            workers, deadline = self._workers_deadline
            _wait_for(self, "%d workers alive" % workers, _workers_alive(workers), deadline)
        except BaseException:
            self.stop()
            raise

    def env(self, base_env: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
        """An environment for a client process (base_env: os.environ by default) whose
        jobs run on this cluster with the bare Python in the executors.

        PYTHONPATH is left out: the client must import this project by being installed
        or from its working directory, so that nothing of ours reaches the executors
        through the environment, only through what the client ships. SPARK_REMOTE is left
        out too: the client would send its jobs to that Connect server instead."""
        env = dict(os.environ if base_env is None else base_env)
        env.pop("PYTHONPATH", None)
        env.pop("SPARK_REMOTE", None)
        conf_lines = [line for line in env.get("PYFLINK_ON_SPARK_CONF", "").splitlines()
                      if line.strip() and not line.strip().startswith("spark.driver.host=")]
        # executors connect back to the driver: by default at the machine's address, where
        # nothing of the driver listens once its endpoints are on the loopback
        conf_lines.append("spark.driver.host=%s" % LOOPBACK)
        # the client's driver JVM: the client compiler only, as the executors (above) and a
        # local session's driver (spark/jit.py) have it. jit.py leaves a driver on a cluster
        # its full JIT, for a user's long job; a test's client lives a minute or two, which
        # C2's compilations do not pay back (test_runs_on_any_spark.py, back to back at
        # load 2: 267 -> 226 CPU-s, 162 -> 150 s). A JIT mode changes no result; a client's
        # own driver options are left as they are.
        if not any(line.strip().startswith("spark.driver.extraJavaOptions=")
                   for line in conf_lines):
            conf_lines.append("spark.driver.extraJavaOptions=%s" % _EXECUTOR_JIT_OPTION)
        env.update(PYSPARK_PYTHON=self.bare_python, PYSPARK_DRIVER_PYTHON=sys.executable,
                   PYFLINK_ON_SPARK_CONF="\n".join(conf_lines),
                   PYFLINK_ON_SPARK_MASTER=self.master_url,
                   # the driver's endpoints and UI bind the loopback, as the cluster's do
                   SPARK_LOCAL_IP=LOOPBACK)
        return env

    def master_state(self) -> dict:
        """The master's JSON status page (workers, applications)."""
        with urllib.request.urlopen(self.web_ui_url + "/json", timeout=5) as response:
            return json.load(response)

    def alive_workers(self) -> int:
        """How many workers the master lists as ALIVE."""
        return sum(1 for w in self.master_state().get("workers", ())
                   if w.get("state") == "ALIVE")

    def run_client(self, args: List[str], out_dir: str, cwd: str,
                   env: Optional[Mapping[str, str]] = None,
                   timeout_s: float = CLIENT_TIMEOUT_S) -> Tuple[int, str, str]:
        """Runs a client process (its environment: `env`, else self.env()); its exit code,
        stdout and stderr. Output goes to files: waiting for the end of a pipe would wait for
        every process holding it (executors' children)."""
        out_path = os.path.join(out_dir, "client.out")
        err_path = os.path.join(out_dir, "client.err")
        with open(out_path, "w") as out, open(err_path, "w") as err:
            client = subprocess.Popen(args, env=dict(env) if env is not None else self.env(),
                                      cwd=cwd, stdout=out, stderr=err,
                                      stdin=subprocess.DEVNULL)
            try:
                code = client.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                client.kill()
                client.wait()
                raise AssertionError("The client ran over %d s:\n%s\n%s\n%s" % (
                    timeout_s, _tail(err_path, 60), self.log_tails(),
                    self.executor_log_tails()))
        with open(out_path) as out, open(err_path) as err:
            return code, out.read(), err.read()

    def log_tails(self, lines: int = 40) -> str:
        return "\n".join("--- %s (%s) ---\n%s" % (d.name, d.log_path, _tail(d.log_path, lines))
                         for d in self._daemons)

    def executor_log_tails(self, lines: int = 40) -> str:
        """The end of every executor's stderr (<work dir>/<app id>/<executor id>/stderr):
        where a Python worker's traceback lands."""
        tails = []
        for work_dir in self.work_dirs:
            for app in sorted(os.listdir(work_dir)) if os.path.isdir(work_dir) else ():
                app_dir = os.path.join(work_dir, app)
                for executor in sorted(os.listdir(app_dir)) if os.path.isdir(app_dir) else ():
                    path = os.path.join(app_dir, executor, "stderr")
                    if os.path.exists(path):
                        tails.append("--- %s ---\n%s" % (path, _tail(path, lines)))
        return "\n".join(tails) or "(no executor has run yet)"

    def stop(self) -> None:
        """Ends the workers (their executors with them), then the master, then any Python
        worker left in the executors' directories, and removes the cluster's files."""
        if self._stopped:
            return
        self._stopped = True
        failures = []
        for daemon in reversed(self._daemons):    # workers first: no re-registering
            pgid = daemon.process.pid             # start_new_session: pgid == pid

            def send(sig, pgid=pgid):
                try:
                    os.killpg(pgid, sig)
                except ProcessLookupError:
                    pass

            def members(daemon=daemon, pgid=pgid):
                daemon.process.poll()             # reaps the leader once it exits
                return _group_members(pgid)

            try:
                _end(members, send, STOP_TIMEOUT_S)
            except RuntimeError as e:
                failures.append("%s: %s" % (daemon.name, e))

        def send_left(sig):
            for pid in _processes_inside(self.root):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass

        try:
            _end(lambda: _processes_inside(self.root), send_left, STOP_TIMEOUT_S)
        except RuntimeError as e:
            failures.append("Python workers: %s" % e)
        shutil.rmtree(self.root, ignore_errors=True)
        if failures:
            raise RuntimeError("The standalone cluster did not stop cleanly:\n  "
                               + "\n  ".join(failures))


def _start(name: str, args: List[str], env: Dict[str, str], cwd: str) -> _Daemon:
    log_path = os.path.join(cwd, "%s.log" % name)
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [os.path.join(env["SPARK_HOME"], "bin", "spark-class"), *args],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, cwd=cwd,
            # its own process group: stop() ends the JVM and whatever it started together
            start_new_session=True, preexec_fn=_ends_with_parent())
    return _Daemon(name, process, log_path)


def _wait_for(cluster: Cluster, what: str, ready, deadline: float) -> None:
    """Polls the master's JSON until `ready(state)` says None (else what is missing),
    failing at once when a daemon exits and at `deadline` with the daemons' logs."""
    seen: Optional[str] = None
    while time.monotonic() < deadline:
        exited = [d for d in cluster._daemons if d.process.poll() is not None]
        if exited:
            raise RuntimeError(
                "The standalone cluster's %s exited (code %s) while starting:\n%s"
                % (exited[0].name, exited[0].process.returncode, cluster.log_tails()))
        try:
            seen = ready(cluster.master_state())
            if seen is None:
                return
        except (OSError, ValueError) as e:   # the master's UI is not up yet
            seen = "the master's UI at %s does not answer: %s" % (cluster.web_ui_url, e)
        time.sleep(0.2)
    raise RuntimeError("The standalone cluster did not have %s within %d s (last seen: %s). "
                       "Its daemons' logs:\n%s"
                       % (what, START_TIMEOUT_S, seen, cluster.log_tails()))


def _master_alive(state: dict) -> Optional[str]:
    return None if state.get("status") == "ALIVE" else "status %s" % state.get("status")


def _workers_alive(workers: int):
    def ready(state: dict) -> Optional[str]:
        alive = sum(1 for w in state.get("workers", ()) if w.get("state") == "ALIVE")
        return None if alive == workers else "%d of %d workers alive" % (alive, workers)
    return ready


def start_cluster(workers: int = 2, wait_for_workers: bool = True) -> Cluster:
    """A Spark standalone master and `workers` workers (1 core, 2 GB each) on the loopback,
    started from the installed pyspark's bin/spark-class; returns once the master lists all
    workers alive (with wait_for_workers=False, once the master is up and the workers are
    starting: a client can start its driver meanwhile, then call wait_for_workers()). Their
    logs, configuration and work directories are in a temporary directory, removed by stop().

    On Linux the daemons get SIGTERM when the thread that called this ends (so that a
    killed test run leaves none behind): call it from a thread that outlives the cluster,
    e.g. the main thread, as pytest's fixtures run."""
    python = bare_python()
    _remove_abandoned_clusters()
    root = tempfile.mkdtemp(prefix=_CLUSTER_PREFIX)
    conf_dir = os.path.join(root, "conf")
    os.makedirs(conf_dir)
    # SPARK_CONF_DIR is on the class path of the daemons and of the executors the workers
    # start (they inherit the worker's environment): its log4j2.properties quiets them all
    with open(os.path.join(conf_dir, "log4j2.properties"), "w") as f:
        f.write(_LOG4J2_PROPERTIES)
    # read by the master and workers: the master's REST submission server would take the
    # fixed port 6066 (a second cluster on the machine moves on to the next one), and the
    # tests submit through the master's own port only
    with open(os.path.join(conf_dir, "spark-defaults.conf"), "w") as f:
        f.write("spark.master.rest.enabled false\n")
    env = _daemon_environment(conf_dir)
    port, ui_port = free_port(), free_port()
    cluster = Cluster(master_url="spark://%s:%d" % (LOOPBACK, port),
                      web_ui_url="http://%s:%d" % (LOOPBACK, ui_port),
                      bare_python=python, root=root, work_dirs=[])
    atexit.register(cluster.stop)   # a session that ends without its fixture's teardown
    deadline = time.monotonic() + START_TIMEOUT_S
    try:
        cluster._daemons.append(_start(
            "master", ["org.apache.spark.deploy.master.Master", "--host", LOOPBACK,
                       "--port", str(port), "--webui-port", str(ui_port)], env, root))
        # workers only once the master is up: a worker that finds no master retries only
        # after a random 5-15 s (measured: 3 of 6 starts racing the master took 13.7-15.4 s;
        # waiting, 5.5-6.5 s)
        _wait_for(cluster, "its master up", _master_alive, deadline)
        for i in range(workers):
            work_dir = os.path.join(root, "worker-%d" % i)
            os.makedirs(work_dir)
            cluster.work_dirs.append(work_dir)
            cluster._daemons.append(_start(
                "worker-%d" % i,
                ["org.apache.spark.deploy.worker.Worker", cluster.master_url,
                 "--host", LOOPBACK, "--cores", "1", "--memory", "2g",
                 "--webui-port", "0", "--work-dir", work_dir], env, root))
        cluster._workers_deadline = (workers, deadline)
        if wait_for_workers:
            cluster.wait_for_workers()
    except BaseException:
        cluster.stop()
        raise
    return cluster
