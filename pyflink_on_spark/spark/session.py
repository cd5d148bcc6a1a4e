"""The one SparkSession of this process: started once, quiet, reused by every execute().

Set-up facts measured on this machine: workers must run this interpreter (PYSPARK_PYTHON),
adaptive execution must not coalesce partitions (a partition is a Flink subtask), and the
default 200 shuffle partitions are pointless here (every exchange names its own count).
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from typing import Dict, Iterator, Optional

from pyflink_on_spark.private_files import open_private, private_dir
from pyflink_on_spark.spark.class_cache import class_cache_for, with_class_cache
from pyflink_on_spark.spark.gateway import start_gateway
from pyflink_on_spark.spark.jit import with_jit_mode
from pyflink_on_spark.spark.start_warmup import start_warmup
from pyflink_on_spark.spark.temp_dirs import remove_left_behind, untouched_for

_lock = threading.Lock()
_session = None
_owned = False                  # True: this module started the session (it may restart it)
_packages: Dict[str, None] = {}  # Maven coordinates connectors need (spark.jars.packages)
_excludes: Dict[str, None] = {}  # group:artifact left out of their resolution
_unbounded_job = False          # an unbounded job asked for the session (spark/jit.py)

# Read when no run options say otherwise (the CLI passes --master, --conf, --verbose as
# spark/run_options.py RunOptions).
MASTER_ENV = "PYFLINK_ON_SPARK_MASTER"
DEFAULT_MASTER = "local[*,4]"
CONF_ENV = "PYFLINK_ON_SPARK_CONF"        # "k1=v1\nk2=v2"
VERBOSE_ENV = "PYFLINK_ON_SPARK_VERBOSE"
REMOTE_ENV = "SPARK_REMOTE"               # pyspark's own: a Spark Connect URL (sc://host:port)

_LOG4J = """rootLogger.level = {level}
rootLogger.appenderRef.stderr.ref = STDERR
appender.stderr.type = Console
appender.stderr.name = STDERR
appender.stderr.target = SYSTEM_ERR
appender.stderr.layout.type = PatternLayout
appender.stderr.layout.pattern = %d{{yy/MM/dd HH:mm:ss}} %p %c{{1}}: %m%n
logger.executor.name = org.apache.spark.executor.Executor
logger.executor.level = {task_level}
logger.tsm.name = org.apache.spark.scheduler.TaskSetManager
logger.tsm.level = {task_level}
logger.python.name = org.apache.spark.api.python
logger.python.level = {task_level}
logger.nativeload.name = org.apache.hadoop.util.NativeCodeLoader
logger.nativeload.level = ERROR
logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer
logger.gateway.level = {level}
logger.microbatch.name = org.apache.spark.sql.execution.streaming.runtime.MicroBatchExecution
logger.microbatch.level = {task_level}
"""
# MicroBatchExecution logs a failed streaming query's error, a Python traceback twice over
# (~140 lines), which the shim raises to the program anyway (streaming/executor.py): off,
# as task failures are
# Spark treats PySpark's gateway as a shell: when the gateway's logger level (else WARN)
# differs from the root's, it prints "Setting default log level to ..." and a hint on
# stderr at every start (Logging.initializeLogging). The gateway's own logger at the root's
# level keeps a run's stderr to what the job prints.


class JavaNotFoundError(RuntimeError):
    pass


class ConnectDependencyError(RuntimeError):
    pass


def java_binary() -> Optional[str]:
    """The java Spark's scripts start: JAVA_HOME's, else the one on PATH."""
    return os.path.join(os.environ["JAVA_HOME"], "bin", "java") \
        if os.environ.get("JAVA_HOME") else shutil.which("java")


def check_java() -> None:
    """One clear line when Java is missing or too old (Spark 4 needs Java 17)."""
    java = java_binary()
    if not java or not os.path.exists(java):
        raise JavaNotFoundError("Java 17 is needed to run pyflink_on_spark (Spark 4): no "
                                "'java' found on PATH or in JAVA_HOME.")
    if _java_known_good(java):
        return
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True,
                             timeout=30).stderr
    except (OSError, subprocess.SubprocessError) as e:
        raise JavaNotFoundError("Java 17 is needed to run pyflink_on_spark: running %s "
                                "failed (%s)." % (java, e))
    match = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    major = int(match.group(1)) if match else 0
    if major == 1 and match.group(2):
        major = int(match.group(2))
    if major < 17:
        raise JavaNotFoundError("Java 17 is needed to run pyflink_on_spark (Spark 4); found "
                                "%s." % (out.strip().splitlines()[0] if out else java))
    _remember_java(java)


def _java_stamp(java: str) -> str:
    """The java binary behind `java` (symlinks resolved) and its modification time: a
    different or updated Java is checked again."""
    real = os.path.realpath(java)
    return "%s %d" % (real, os.stat(real).st_mtime_ns)


def _java_check_file() -> str:
    from pyflink_on_spark.private_files import user_cache_path
    return user_cache_path("java-ok")


def _java_known_good(java: str) -> bool:
    """`java -version` passed before for this very binary (it costs a JVM start per run)."""
    try:
        with open(_java_check_file()) as f:
            return f.read() == _java_stamp(java)
    except OSError:
        return False


def _remember_java(java: str) -> None:
    try:
        private_dir(os.path.dirname(_java_check_file()), "the cache directory")
        with open_private(_java_check_file(), "w") as f:
            f.write(_java_stamp(java))
    except OSError:
        pass   # only a cache (a symlink or another user's file there: none is kept)


def _extra_conf() -> Dict[str, str]:
    from pyflink_on_spark.spark.run_options import run_options
    conf = {}
    for line in os.environ.get(CONF_ENV, "").splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            conf[key.strip()] = value.strip()
    for key, value in run_options().conf:
        conf[key.strip()] = value.strip()
    return conf


_CONF_PREFIX = "pyflink-on-spark-conf-"


def _quiet_logging(verbose: bool) -> Optional[str]:
    """A log4j2 configuration directory for the JVM about to start (None: the user's own
    SPARK_CONF_DIR). The JVM reads it once at start-up: remove it then (_forget_conf_dir).
    It is named by a system property (log_config_option), not made SPARK_CONF_DIR: Spark
    puts SPARK_CONF_DIR on the JVM's class path, and a class path that differs per run
    makes the class-data-sharing archive (class_cache.py) unusable."""
    if os.environ.get("SPARK_CONF_DIR"):
        return None
    _remove_stale_conf_dirs()
    conf_dir = tempfile.mkdtemp(prefix=_CONF_PREFIX)
    write_log_config(conf_dir, verbose)
    return conf_dir


def log_config_option(java_options: str, conf_dir: Optional[str]) -> str:
    if conf_dir is None or "log4j2.configurationFile" in java_options:
        return java_options
    return ("%s -Dlog4j2.configurationFile=%s" % (
        java_options, os.path.join(conf_dir, "log4j2.properties"))).strip()


def write_log_config(conf_dir: str, verbose: bool) -> None:
    """Spark's log4j2 configuration in `conf_dir`: errors only (warnings with verbose)."""
    with open(os.path.join(conf_dir, "log4j2.properties"), "w") as f:
        f.write(_LOG4J.format(level="WARN" if verbose else "ERROR",
                              task_level="WARN" if verbose else "OFF"))


def _forget_conf_dir(conf_dir: Optional[str]) -> None:
    if conf_dir is None:
        return
    shutil.rmtree(conf_dir, ignore_errors=True)


def _remove_stale_conf_dirs(max_age_s: float = 3600.0) -> None:
    """Configuration directories of runs that died while starting (older than an hour: a
    session starting right now elsewhere still needs its own)."""
    remove_left_behind(_CONF_PREFIX, lambda entry: untouched_for(entry, max_age_s))


def quiet_py4j_logging() -> None:
    """Py4J (PySpark's bridge to the JVM) logs at INFO through Python's logging, e.g.
    "Closing down clientserver connection" at exit: a program that logs at INFO to stdout
    would print those lines, which PyFlink's client does not. Its loggers are raised to
    WARNING unless the program set a level on them itself."""
    import logging
    for name in ("py4j", "py4j.clientserver", "py4j.java_gateway"):
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)


def remote_url() -> Optional[str]:
    """The Spark Connect server jobs run on (--remote, else SPARK_REMOTE), None: a classic
    SparkSession in this process."""
    from pyflink_on_spark.spark.run_options import run_options
    return run_options().remote or os.environ.get(REMOTE_ENV) or None


def is_connect(session) -> bool:
    """A Spark Connect session: no SparkContext, no JVM in this process."""
    return type(session).__module__.startswith("pyspark.sql.connect")


def activate_in_thread(session) -> None:
    """Makes `session` the active one of this thread's JVM thread. Py4J gives every Python
    thread a JVM thread of its own, where no session is active; pyspark then looks for one
    through SparkSession.builder.getOrCreate() at each UDF it makes (a job's every stage),
    and that tries `import pyspark_connect` each time, in vain: 20-25 ms of a job's plan
    (py-spy on the driver). A job's stages are planned in a thread of their own (executor.py
    _run_stages)."""
    if is_connect(session):
        return
    from pyspark.sql import SparkSession
    SparkSession._get_j_spark_session_class(session._jvm).setActiveSession(
        session._jsparkSession)


def _alive(session) -> bool:
    if is_connect(session):
        return not session.is_stopped
    return not session.sparkContext._jsc.sc().isStopped()


def require_package(coordinates: str, excludes=()) -> None:
    """A Spark package the next session start resolves (spark.jars.packages, merged with
    the user's own): connectors call this before get_session()."""
    _packages[coordinates] = None
    for exclude in excludes:
        _excludes[exclude] = None


def owns_session() -> bool:
    return _owned


def _merge_list(conf: Dict[str, str], key: str, items) -> None:
    merged = [p for p in conf.get(key, "").split(",") if p.strip()]
    merged += [p for p in items if p not in merged]
    if merged:
        conf[key] = ",".join(merged)


def get_session():
    """The process's SparkSession (created on first use)."""
    global _session, _owned
    quiet_py4j_logging()
    with _lock:
        if _session is not None and _alive(_session):
            _cancel_on_ctrl_c(_session)
            return _session
        remote = remote_url()
        if remote:
            _session = _connect(remote)
            return _session
        from pyspark.sql import SparkSession
        active = SparkSession.getActiveSession()
        if active is not None:  # e.g. under spark-submit or inside a notebook
            _session = _configure(active)
            _owned = False
            return _session
        from pyflink_on_spark.spark.run_options import run_options
        options = run_options()
        verbose = options.verbose or bool(os.environ.get(VERBOSE_ENV))
        conf = _extra_conf()
        if conf.get("spark.api.mode", "").lower() != "connect":
            check_java()  # (api mode connect: pyspark starts a local server and says why not)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        conf_dir = _quiet_logging(verbose)
        builder = SparkSession.builder.appName("pyflink-on-spark")
        master = options.master or os.environ.get(MASTER_ENV)
        if master:
            builder = builder.master(master)
        elif not os.environ.get("SPARK_HOME_SUBMIT") and "spark.master" not in conf:
            # local[*,4]: retry a failed task up to 4 times, as a cluster does (plain
            # local[N] fails the job at the first lost task; spark.task.maxFailures is
            # ignored in local mode)
            master = DEFAULT_MASTER
            builder = builder.master(master)
        local = local_master_settings(master or conf.get("spark.master"), worker_socket_dir)
        defaults = {**local_defaults(), **local, **conf}
        if DAEMON_MODULE_KEY not in conf and not is_this_python(
                conf.get("spark.pyspark.python")):
            defaults.pop(DAEMON_MODULE_KEY, None)
        from pyspark import __version__ as spark_version
        from pyflink_on_spark.spark import resolved_packages
        resolved = resolved_packages.known_jars(list(_packages), list(_excludes), conf,
                                                spark_version)
        jars_before = defaults.get("spark.jars", "")
        if resolved is not None:    # what Ivy gave before, still there: no Ivy run
            _merge_list(defaults, "spark.jars", resolved)
        else:
            _merge_list(defaults, "spark.jars.packages", _packages)
            _merge_list(defaults, "spark.jars.excludes", _excludes)
        if options.ui:
            defaults["spark.ui.enabled"] = "true"   # off by default: faster start
        cache = driver_class_cache(defaults)
        java_options = log_config_option(defaults.get("spark.driver.extraJavaOptions", ""),
                                          conf_dir)
        java_options = with_class_cache(java_options, cache)
        java_options = with_jit_mode(java_options, master or conf.get("spark.master"),
                                     long_running=_unbounded_job)
        if java_options:
            defaults["spark.driver.extraJavaOptions"] = java_options
        for key, value in defaults.items():
            builder = builder.config(key, value)
        started = threading.Event()
        if conf.get("spark.api.mode", "").lower() != "connect":
            start_warmup(started)   # pandas and JVM singletons, while the JVM starts
        try:
            with loopback_ui(master or conf.get("spark.master")):
                if conf.get("spark.api.mode", "").lower() != "connect":
                    start_gateway(builder._options, quiet=not verbose)
                session = builder.getOrCreate()
        finally:
            started.set()
            _forget_conf_dir(conf_dir)
        if cache is not None and not is_connect(session):
            cache.started(session.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
            _note_archive_writer(cache)
        if not is_connect(session):
            session.sparkContext.setLogLevel("WARN" if verbose else "ERROR")
            if resolved is None and _packages and not conf.get("spark.jars.packages"):
                resolved_packages.remember(
                    list(_packages), list(_excludes), jars_before,
                    session.sparkContext.getConf().get("spark.jars", ""), spark_version)
            if options.ui and session.sparkContext.uiWebUrl:
                print("Spark UI: %s" % session.sparkContext.uiWebUrl, file=sys.stderr, flush=True)
        _session = _configure(session)
        _owned = True
        _cancel_on_ctrl_c(_session)
        return _session


_ctrl_c_installed = False


def _cancel_on_ctrl_c(session) -> None:
    """Ctrl-C cancels the running Spark jobs, then interrupts the program: what pyspark's
    SparkContext sets up, but only when it is made in the main thread; a session made by
    spark/prestart.py's thread gets it at the main thread's first get_session(). A handler
    of the program's own is left alone."""
    global _ctrl_c_installed
    if _ctrl_c_installed or is_connect(session) \
            or threading.current_thread() is not threading.main_thread():
        return
    _ctrl_c_installed = True
    import signal
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return

    def cancel_and_interrupt(signum, frame):
        try:
            if _session is not None and not is_connect(_session):
                _session.sparkContext.cancelAllJobs()
        finally:
            raise KeyboardInterrupt()

    cancel_and_interrupt.pyflink_on_spark_ctrl_c = True   # spark/streaming/stop_signals.py
    signal.signal(signal.SIGINT, cancel_and_interrupt)


def driver_class_cache(conf: Dict[str, str]):
    """The class-data-sharing archive for the driver JVM about to start here (None: a JVM
    this process does not start, e.g. one already running under spark-submit)."""
    if os.environ.get("SPARK_HOME_SUBMIT") or conf.get("spark.api.mode", "").lower() == "connect":
        return None
    from pyspark import SparkContext
    if SparkContext._gateway is not None:   # this process's JVM runs already
        return None
    from pyspark.find_spark_home import _find_spark_home
    try:
        spark_home = _find_spark_home()
    except SystemExit:   # pyspark's way of saying it found none
        return None
    return class_cache_for(java_binary(), spark_home,
                           conf.get("spark.driver.extraClassPath", ""))


def local_defaults() -> Dict[str, str]:
    """Settings of a Spark this tool starts itself (here, or `serve`'s Connect server)."""
    defaults = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.adaptive.enabled": "false",
        "spark.sql.shuffle.partitions": str(os.cpu_count() or 2),
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.python.worker.reuse": "true",
        "spark.driver.extraJavaOptions": "-Dlog4j2.level=ERROR",
        **STATUS_RETENTION,
    }
    return defaults


# What the driver keeps of finished Spark jobs, stages, tasks and SQL executions, for a UI
# (kept even when the UI is off). Spark keeps 1000 of each (100,000 tasks), and an unbounded
# job runs a few of each per micro-batch: over a monitored-file job's first 209 batches its
# driver's status objects grew 5.5 KB a batch (1.15 MB), on the way to ~5.5 MB at 1000 and
# more with more tasks a batch; with 100 of each they stayed at 0.20-0.22 MB from the 100th
# batch on (class histograms, benchmarks/RESULTS.md "The driver's JVM over an unbounded
# job"). A user's own setting wins.
STATUS_RETENTION = {"spark.ui.retainedJobs": "100",
                    "spark.ui.retainedStages": "100",
                    "spark.ui.retainedTasks": "10000",
                    "spark.sql.ui.retainedExecutions": "100"}


# A local master's shuffle files never leave the machine (they stay in the page cache for
# the short jobs this tool runs), so compressing them (lz4) and checksumming each row for
# corruption diagnosis buys nothing and costs the JVM CPU the Python workers need: medians of
# 5 jobs per session, 4 sessions each way, keyed_value_state 1M 0.56-0.61 s against 0.62-0.66
# s, map_keyby_reduce 5M 1.74-1.76 s against 1.80-1.82 s; a 200 MB word count unchanged
# (benchmarks/RESULTS.md). A cluster master keeps Spark's defaults (its shuffle crosses the
# network); the user's own settings win either way.
LOCAL_SHUFFLE_SETTINGS = {"spark.shuffle.compress": "false",
                          "spark.shuffle.checksum.enabled": "false"}

# When a local master's Python workers run the driver's own Python, where this package is
# importable, their daemon imports pyspark from the installed package, with bytecode, not
# from Spark's pyspark.zip (spark/worker_daemon.py: 0.15 s against 0.7-0.8 s per daemon).
# Another Python (PYSPARK_PYTHON, spark.pyspark.python) keeps pyspark's daemon: one without
# this package would fail to start ours, with a Java stack trace instead of the task's
# "No module named ..." error.
DAEMON_MODULE_KEY = "spark.python.daemon.module"
LOCAL_WORKER_DAEMON = {DAEMON_MODULE_KEY: "pyflink_on_spark.spark.worker_daemon"}


def is_this_python(executable: Optional[str]) -> bool:
    """`executable` (a path or a name on PATH) is the interpreter running this process, with
    its packages: the same binary in the same directory (a virtualenv's `python` is a link
    to the base interpreter, and its directory is what makes it the virtualenv's)."""
    if not executable:
        return True
    found = os.path.abspath(shutil.which(executable) or executable)
    this = os.path.abspath(sys.executable)
    try:
        return os.path.dirname(found) == os.path.dirname(this) and \
            os.path.samefile(found, this)
    except OSError:
        return False


# The JVM and its Python workers talk over Unix sockets rather than loopback TCP: over TCP
# every task waited 36-45 ms for its first Arrow batch (by its length, TCP's delayed ACK),
# over a Unix socket 3-7 ms; a job runs its stages' tasks one stage after another, so a
# small job's later runs took 0.46 s instead of 0.58 s (medians; benchmarks/RESULTS.md).
# Spark names them "<dir>/.<uuid>.sock" and leaves them behind (97 in /tmp after an hour of
# runs), so they go to a directory of the session's own, removed at exit.
_SOCKET_PATH_MAX = 103      # bytes of a Unix socket's path: macOS's limit (Linux's: 107)
_SOCKET_NAME_LENGTH = len("/.%s.sock" % ("0" * 36))
_SOCKETS_PREFIX = "pyflink-on-spark-sockets-"


def is_local_master(master: Optional[str]) -> bool:
    """Whether `master` runs the executors in the driver's JVM, on this machine (None: not
    known here, e.g. under spark-submit): only then may their worker sockets live in a
    directory of this process."""
    return master is not None and master.strip().lower().startswith("local")


# A local master's driver, executors and Python workers are all on this machine, so its
# endpoints (the driver's RPC and block manager) listen on the loopback only: Spark's default,
# the machine's address, made a development run reachable from the network, with Spark's
# authentication off. The user's own settings win.
LOOPBACK = "127.0.0.1"
LOCAL_BIND_SETTINGS = {"spark.driver.bindAddress": LOOPBACK, "spark.driver.host": LOOPBACK}


def local_master_settings(master: Optional[str], socket_dir) -> Dict[str, str]:
    """The settings of a Spark this tool starts on a local master (none for another master):
    its endpoints on the loopback, worker sockets in the directory `socket_dir()` makes, the
    local shuffle, the workers' daemon."""
    if not is_local_master(master):
        return {}
    daemon = LOCAL_WORKER_DAEMON if is_this_python(os.environ.get("PYSPARK_PYTHON")) else {}
    return {**LOCAL_BIND_SETTINGS, **worker_socket_settings(socket_dir()),
            **LOCAL_SHUFFLE_SETTINGS, **daemon}


@contextlib.contextmanager
def loopback_ui(master: Optional[str]) -> Iterator[None]:
    """While a local master's JVM starts: SPARK_LOCAL_IP on the loopback unless the user set
    it. Spark's UI (`run --ui`) binds SPARK_LOCAL_IP, else every interface (0.0.0.0); no
    setting moves it."""
    if not is_local_master(master) or "SPARK_LOCAL_IP" in os.environ:
        yield
        return
    os.environ["SPARK_LOCAL_IP"] = LOOPBACK
    try:
        yield
    finally:
        os.environ.pop("SPARK_LOCAL_IP", None)


def worker_socket_settings(directory: Optional[str]) -> Dict[str, str]:
    """The settings that put the JVM's sockets to its Python workers in `directory`; none
    (loopback TCP, Spark's default) without Unix sockets or a path short enough for them."""
    if directory is None or not hasattr(socket, "AF_UNIX") \
            or len(directory) + _SOCKET_NAME_LENGTH > _SOCKET_PATH_MAX:
        return {}
    return {"spark.python.unix.domain.socket.enabled": "true",
            "spark.python.unix.domain.socket.dir": directory}


def worker_socket_dir() -> Optional[str]:
    """A new directory for a session's worker sockets, named after this process and removed
    when it exits (those of processes that are gone are removed here); None when the temp
    directory's path is too long for sockets."""
    import atexit
    _remove_orphaned_socket_dirs()
    root = tempfile.gettempdir()
    if len(root) + 1 + len(_SOCKETS_PREFIX) + 16 + _SOCKET_NAME_LENGTH > _SOCKET_PATH_MAX:
        return None
    directory = tempfile.mkdtemp(prefix="%s%d-" % (_SOCKETS_PREFIX, os.getpid()), dir=root)
    atexit.register(shutil.rmtree, directory, True)
    return directory


def _remove_orphaned_socket_dirs() -> None:
    from pyflink_on_spark.codecs.files.staging import process_alive

    def orphaned(entry) -> bool:
        pid = entry.name[len(_SOCKETS_PREFIX):].split("-", 1)[0]
        return pid.isdigit() and not process_alive(int(pid))
    remove_left_behind(_SOCKETS_PREFIX, orphaned)


def _connect(url: str):
    """A Spark Connect session on `url`: no Java check (the JVM is the server's), no
    SparkContext; only session (SQL) settings can be set from here."""
    try:
        from pyspark.sql.connect.utils import check_dependencies
        check_dependencies()
    except ImportError as e:
        raise ConnectDependencyError(
            "Running on Spark Connect (%s) needs the client packages: pip install "
            "'pyflink-on-spark[connect]' (%s)" % (url, e)) from None
    from pyspark.sql import SparkSession
    from pyflink_on_spark.spark.connect_server import authenticated_url
    # the server `serve` started requires its token, which its printed URL leaves out
    builder = SparkSession.builder.remote(authenticated_url(url))
    in_process = url.strip().lower().startswith("local")
    settings = dict(LOCAL_CONNECT_SETTINGS) if in_process else {}
    settings.update(_extra_conf())
    cache = _in_process_server_jvm(settings, url.strip()) if in_process else None
    for key, value in settings.items():
        builder = builder.config(key, value)
    with loopback_ui("local" if in_process else None):   # its Spark UI, on by default
        session = _configure(builder.getOrCreate())
    if cache is not None:
        from pyspark import SparkContext
        proc = getattr(SparkContext._gateway, "proc", None)
        if proc is not None:
            cache.started(proc.pid)
            _note_archive_writer(cache)
    return session


def _in_process_server_jvm(settings: Dict[str, str], master: str):
    """SPARK_REMOTE=local: pyspark starts its Connect server in a local Spark of this
    process, a JVM like the one a classic local session starts (the same Spark jars and class
    path), which gets that session's class-data-sharing archive (class_cache.py) and quick
    JIT (jit.py) through `settings` (its spark.driver.extraJavaOptions). It started without
    them: 21 s of JVM CPU for its start and a first job, against 10 s with the archive (the
    2-core machine). Returns the class cache (None: none used)."""
    cache = driver_class_cache(settings)
    java_options = with_class_cache(settings.get("spark.driver.extraJavaOptions", ""), cache)
    java_options = with_jit_mode(java_options, master, long_running=_unbounded_job)
    if java_options:
        settings["spark.driver.extraJavaOptions"] = java_options
    return cache


# SPARK_REMOTE=local: pyspark starts a Connect server inside this process (a token of its
# own, port 15002), which listened on every interface, its driver on the machine's address;
# here on the loopback, as a local run's endpoints are (the user's settings win)
LOCAL_CONNECT_SETTINGS = {**LOCAL_BIND_SETTINGS, "spark.connect.grpc.binding.address": LOOPBACK}


def job_session(job, unbounded: bool = False):
    """The session to run `job` on: with the connector packages its sources and sinks need,
    and the shim itself on its workers (spark/package_shipping.py). `unbounded`: the job
    runs until stopped (a session it starts keeps the full JIT)."""
    global _unbounded_job
    from pyflink_on_spark.spark.kafka_package import job_reads_kafka, kafka_session
    from pyflink_on_spark.spark.package_shipping import ship_native_packages, ship_package
    _unbounded_job = _unbounded_job or unbounded
    session = kafka_session() if job_reads_kafka(job) else get_session()
    ship_package(session)
    ship_native_packages(session, job)
    return session


# The Arrow batches a stage's task reads its input in: Spark cuts them at 10,000 rows by
# default, and a source split row of a file holds 2048 lines, so a task's first batch was its
# whole partition of the file (up to spark.sql.files.maxPartitionBytes, 128 MB), decoded at
# once: the worker's memory grew with the input up to that. Cut by bytes too, so it does not.
# 1 MB, as a task's output leaves (stage_task.OUTPUT_BATCH_BYTES): the JVM builds a batch
# whole before the worker gets it, so a smaller batch lets the worker start sooner and work
# while the JVM builds the next. map_keyby_reduce 1M, whose reduce reads 8 MB at p=1: the
# reduce's task 141-187 ms -> 116-176 ms, the job 0.60 -> 0.53 s (medians of 8); other jobs
# the same (benchmarks/RESULTS.md).
ARROW_BATCH_BYTES = 1024 * 1024
_ARROW_BATCH_BYTES_KEY = "spark.sql.execution.arrow.maxBytesPerBatch"


def _configure(session):
    # A partition is a Flink subtask: adaptive execution must never coalesce or split them.
    session.conf.set("spark.sql.adaptive.enabled", "false")
    if session.conf.get(_ARROW_BATCH_BYTES_KEY, None) is None:   # not the user's own
        session.conf.set(_ARROW_BATCH_BYTES_KEY, str(ARROW_BATCH_BYTES))
    return session


def stop_session(new_jvm: bool = False) -> None:
    """Stops the process's session. new_jvm: the JVM pyspark launched for it ends too, so
    the next session starts a new one: packages (spark.jars.packages) are put on the
    classpath only when a JVM starts, and a new SparkContext in the old JVM would be
    without them."""
    global _session
    with _lock:
        if _session is not None:
            _session.stop()
            _session = None
        if new_jvm:
            _end_gateway_jvm()


def end_owned_session(timeout_s: float = 30.0) -> None:
    """At the end of the `pyflink-on-spark` command (cli/main.py run_cli, through
    entry.end_session): ends the local Spark this process started and
    waits for its JVM to exit, so the command returns when Spark's shutdown (its temp
    directories, its Python workers) is done. Measured on the 2-core machine: a JVM left to
    notice that the Python process has exited ended 0.5-0.7 s after the script (its shutdown
    hook stops Spark in 0.15 s, then HotSpot's exit waits up to 300 ms for threads blocked
    in native code, Py4J's server among them); with the Py4J gateway closed first and then
    its stdin, it ends ~0.2 s after the script.
    A session another process owns (Spark Connect, spark-submit) is left alone; one that is
    still starting (the early start of spark/prestart.py) is left to exit with the
    process, as it would without this."""
    global _session
    if not _lock.acquire(timeout=0):
        return
    try:
        if _session is None or not _owned or is_connect(_session):
            return
        from pyspark import SparkContext
        context = SparkContext._active_spark_context
        if context is not None:
            # pyspark's accumulator server reads a connection from the JVM in a daemon
            # thread; the JVM's exit ends it, which is no error once the server is done.
            server = getattr(context, "_accumulatorServer", None)
            if server is not None:
                server.server_shutdown = True
                server.handle_error = lambda request, client_address: None
        _session = None
        _end_gateway_jvm(timeout_s)
    finally:
        _lock.release()


# How long the end of a session waits for a JVM that writes the class-data-sharing archive
# as it exits (class_cache.py). The dump takes a while (~150 MB; on the 2-core machine at
# load 14, 30 s of CPU and 105 s wall after the job): killed after the usual 30 s, the
# archive was lost and counted as a failure, and after three of those an install never gets
# one (this machine's main virtualenv had four): every later run then started without it.
ARCHIVE_DUMP_TIMEOUT_S = 600.0
_archive_writer_pid: Optional[int] = None   # the JVM of this process writing the archive


def _note_archive_writer(cache) -> None:
    global _archive_writer_pid
    if cache.writing is None:
        return
    from pyspark import SparkContext
    proc = getattr(SparkContext._gateway, "proc", None)
    _archive_writer_pid = proc.pid if proc is not None else None


def _end_gateway_jvm(timeout_s: float = 30.0) -> None:
    """Ends the JVM pyspark launched (it exits when its stdin closes: pyspark's gateway
    server reads it for that) and forgets it, so pyspark launches another. A JVM writing
    the class archive at its exit gets ARCHIVE_DUMP_TIMEOUT_S for that."""
    from pyspark import SparkContext
    gateway = SparkContext._gateway
    if gateway is None:
        return
    proc = getattr(gateway, "proc", None)
    if proc is not None and proc.pid == _archive_writer_pid:
        timeout_s = max(timeout_s, ARCHIVE_DUMP_TIMEOUT_S)
    try:
        gateway.shutdown()
    except Exception:   # noqa: BLE001 - the JVM may be gone already
        pass
    if proc is not None:
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=timeout_s)
        except BaseException as e:   # not ended in time, or Ctrl-C while waiting: killed
            proc.kill()
            if not isinstance(e, Exception):
                SparkContext._gateway = None
                SparkContext._jvm = None
                raise
    SparkContext._gateway = None
    SparkContext._jvm = None
