"""The class-data-sharing archive of the driver JVM (spark/class_cache.py): its life cycle
on files alone, then with real JVMs (one writes it at exit, the next maps it)."""
import os
import subprocess
import sys
import textwrap
import time

from pyflink_on_spark.spark.class_cache import (ClassCache, _count_failure, archive_key,
                                                class_cache_for, evict_unused,
                                                with_class_cache)

DEAD_PID = 2 ** 22 + 12345   # above Linux's pid_max default: never a live process


def _archive_file(path, size=2 << 20):
    with open(path, "wb") as f:
        f.truncate(size)


def _seen(directory, key="k"):
    """A run of `key` started before (its first sight writes no archive)."""
    assert ClassCache(key, str(directory)).java_options() == ""


def test_the_first_run_of_a_key_only_records_it_as_seen(tmp_path):
    cache = ClassCache("k", str(tmp_path))
    assert cache.java_options() == "" and cache.writing is None
    cache.started(os.getpid())
    assert os.listdir(tmp_path) == ["k.seen"]
    _seen(tmp_path, "other")                     # another key: a first sight of its own
    assert sorted(os.listdir(tmp_path)) == ["k.seen", "other.seen"]


def test_the_second_run_writes_a_temporary_archive_and_names_its_jvm(tmp_path):
    _seen(tmp_path)
    cache = ClassCache("k", str(tmp_path))
    options = cache.java_options()
    assert "-XX:ArchiveClassesAtExit=%s" % cache.writing in options
    assert "-Xlog:cds=off" in options and "-Xshare:auto" in options
    cache.started(os.getpid())
    with open(cache.writing + ".jvm") as f:
        assert f.read() == str(os.getpid())


def test_a_key_expected_to_start_many_jvms_writes_at_its_first_start(tmp_path):
    # a test run's controller (spark/tests/class_cache_prime.py): no wait for a second start
    cache = ClassCache("k", str(tmp_path))
    assert cache.wants_archive()
    cache.expect_many_starts()
    assert "ArchiveClassesAtExit" in ClassCache("k", str(tmp_path)).java_options()


def test_an_archive_is_wanted_only_while_none_is_there_written_or_given_up(tmp_path):
    writer = ClassCache("k", str(tmp_path))
    writer.expect_many_starts()
    writer.java_options()
    writer.started(os.getpid())                  # a live JVM writes it
    assert not ClassCache("k", str(tmp_path)).wants_archive()
    _archive_file(tmp_path / "done.jsa")
    assert not ClassCache("done", str(tmp_path)).wants_archive()
    for _ in range(3):
        _count_failure(str(tmp_path), "failing")
    assert not ClassCache("failing", str(tmp_path)).wants_archive()
    assert ClassCache("fresh", str(tmp_path)).wants_archive()


def test_while_a_jvm_writes_the_archive_others_run_without_one(tmp_path):
    _seen(tmp_path)
    writer = ClassCache("k", str(tmp_path))
    writer.java_options()
    writer.started(os.getpid())            # a live process: still writing
    assert ClassCache("k", str(tmp_path)).java_options() == ""


def test_a_start_claims_the_writing_before_its_jvm_is_up(tmp_path):
    # two drivers starting at once: the second runs without one rather than write another
    _seen(tmp_path)
    first = ClassCache("k", str(tmp_path))
    assert "ArchiveClassesAtExit" in first.java_options()     # its JVM not started yet
    second = ClassCache("k", str(tmp_path))
    assert second.java_options() == "" and second.writing is None


def test_a_writer_that_runs_past_its_hold_lets_the_next_start_write_one_too(tmp_path):
    from pyflink_on_spark.spark.class_cache import WRITER_HOLD_S
    _seen(tmp_path)
    # another process's writer whose JVM (alive: this one) started before the hold: an
    # unbounded job's or a notebook's
    marker = tmp_path / "k.1.jsa.tmp.jvm"
    marker.write_text(str(os.getpid()))
    assert ClassCache("k", str(tmp_path)).java_options() == ""     # held
    started = time.time() - WRITER_HOLD_S - 1
    os.utime(marker, (started, started))
    second = ClassCache("k", str(tmp_path))
    options = second.java_options()
    assert "-XX:ArchiveClassesAtExit=%s" % second.writing in options
    second.started(DEAD_PID)               # the short run ended first: its dump is complete
    _archive_file(second.writing)
    assert ClassCache("k", str(tmp_path)).java_options().startswith(
        "-XX:SharedArchiveFile=%s " % (tmp_path / "k.jsa"))
    # the long-lived writer's marker stays while its JVM runs (it dumps as it exits)
    assert marker.exists()


def test_map_only_maps_an_archive_and_never_records_or_writes_one(tmp_path, monkeypatch):
    from pyflink_on_spark.spark import class_cache
    monkeypatch.setattr(class_cache, "_map_only_here", False)   # (conftest.py sets it)
    monkeypatch.setenv("PYFLINK_ON_SPARK_CLASS_CACHE", "map")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    java = tmp_path / "java"
    java.write_text("")
    for _ in range(3):                     # the third start would write one otherwise
        cache = class_cache_for(str(java), str(tmp_path))
        assert cache.java_options() == "" and cache.writing is None
    assert os.listdir(cache.directory) == []
    _archive_file(cache.archive)
    assert class_cache_for(str(java), str(tmp_path)).java_options().startswith(
        "-XX:SharedArchiveFile=%s " % cache.archive)


def test_a_finished_archive_is_promoted_and_used(tmp_path):
    _seen(tmp_path)
    writer = ClassCache("k", str(tmp_path))
    writer.java_options()
    writer.started(DEAD_PID)               # its JVM has ended: the dump is complete
    _archive_file(writer.writing)
    options = ClassCache("k", str(tmp_path)).java_options()
    assert options.startswith("-XX:SharedArchiveFile=%s " % (tmp_path / "k.jsa"))
    assert sorted(os.listdir(tmp_path)) == ["k.jsa", "k.seen"]


def test_a_finished_temporary_of_another_key_is_promoted_a_live_one_left_alone(tmp_path):
    # a key never started again: its temporary was never promoted nor removed (a disk leak)
    for key, pid in (("done", DEAD_PID), ("failed", DEAD_PID), ("running", os.getpid())):
        tmp = tmp_path / ("%s.%d.jsa.tmp" % (key, pid))
        _archive_file(tmp, 100 if key == "failed" else 2 << 20)
        (tmp_path / ("%s.%d.jsa.tmp.jvm" % (key, pid))).write_text(str(pid))
    _archive_file(tmp_path / ("orphan.%d.jsa.tmp" % DEAD_PID), 100)   # its run died early
    _seen(tmp_path)
    assert sorted(os.listdir(tmp_path)) == [
        "done.jsa", "failed.failures", "k.seen",
        "running.%d.jsa.tmp" % os.getpid(), "running.%d.jsa.tmp.jvm" % os.getpid()]
    assert (tmp_path / "failed.failures").read_text() == "x"


def test_promoted_temporaries_follow_the_archives_eviction_rule(tmp_path):
    _archives_aged(str(tmp_path), {"a": 1, "b": 2, "c": 3, "d": 4})
    tmp = tmp_path / ("new.%d.jsa.tmp" % DEAD_PID)
    _archive_file(tmp)                    # dumped 40 days ago, never started again
    os.utime(tmp, (time.time() - 40 * 86400,) * 2)
    (tmp_path / ("new.%d.jsa.tmp.jvm" % DEAD_PID)).write_text(str(DEAD_PID))
    _seen(tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["a.jsa", "b.jsa", "c.jsa", "d.jsa", "k.seen"]
    tmp = tmp_path / ("recent.%d.jsa.tmp" % DEAD_PID)
    _archive_file(tmp)                    # dumped now: promoted, and the least used goes
    (tmp_path / ("recent.%d.jsa.tmp.jvm" % DEAD_PID)).write_text(str(DEAD_PID))
    _seen(tmp_path, "k2")
    assert sorted(os.listdir(tmp_path)) == ["a.jsa", "b.jsa", "c.jsa", "k.seen", "k2.seen",
                                            "recent.jsa"]


def test_records_of_keys_not_started_for_thirty_days_are_removed(tmp_path):
    old = time.time() - 31 * 86400
    for name in ("old.seen", "old.failures", "new.seen", "new.failures"):
        (tmp_path / name).write_text("x")
        if name.startswith("old"):
            os.utime(tmp_path / name, (old, old))
    evict_unused(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["new.failures", "new.seen"]


def test_jvms_that_end_without_an_archive_stop_the_attempts_after_three(tmp_path):
    _seen(tmp_path)
    for attempt in range(3):
        cache = ClassCache("k", str(tmp_path))
        assert "ArchiveClassesAtExit" in cache.java_options(), attempt
        cache.started(DEAD_PID)            # ended, wrote nothing (killed, or cannot)
    assert ClassCache("k", str(tmp_path)).java_options() == ""
    assert not [n for n in os.listdir(tmp_path) if n.endswith(".tmp") or n.endswith(".jvm")]


def test_a_run_that_died_before_its_jvm_started_leaves_nothing_behind(tmp_path):
    _archive_file(tmp_path / ("k.%d.jsa.tmp" % DEAD_PID), 100)
    _seen(tmp_path)
    assert not (tmp_path / ("k.%d.jsa.tmp" % DEAD_PID)).exists()
    assert "ArchiveClassesAtExit" in ClassCache("k", str(tmp_path)).java_options()
    assert not (tmp_path / ("k.%d.jsa.tmp" % DEAD_PID)).exists()


def test_the_users_own_cds_options_are_left_alone(tmp_path):
    _seen(tmp_path)
    cache = ClassCache("k", str(tmp_path))
    assert with_class_cache("-Xshare:off", cache) == "-Xshare:off"
    assert with_class_cache("-XX:SharedArchiveFile=/x.jsa", cache) == "-XX:SharedArchiveFile=/x.jsa"
    assert with_class_cache("-Dx=1", cache).startswith("-Dx=1 -XX:ArchiveClassesAtExit=")
    assert with_class_cache("-Dx=1", None) == "-Dx=1"


def test_the_key_follows_java_and_spark_jars(tmp_path):
    java = tmp_path / "java"
    java.write_text("")
    (tmp_path / "jars").mkdir()
    (tmp_path / "jars" / "a.jar").write_text("a")
    key = archive_key(str(java), str(tmp_path))
    assert archive_key(str(java), str(tmp_path)) == key
    (tmp_path / "jars" / "b.jar").write_text("b")
    assert archive_key(str(java), str(tmp_path)) != key
    assert archive_key(str(java), str(tmp_path), "/extra") != archive_key(str(java), str(tmp_path))


def test_turned_off_by_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("PYFLINK_ON_SPARK_CLASS_CACHE", "0")
    assert class_cache_for("/usr/bin/java", str(tmp_path)) is None


_SESSION = textwrap.dedent("""
    import sys
    from pyflink_on_spark.spark.session import get_session
    spark = get_session()
    if sys.argv[1] == "job":
        assert spark.range(3).count() == 3
    pid = spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid()
    with open("/proc/%d/maps" % pid) as f:
        mapped = f.read()
    print(pid, "archive-mapped" if "class-cache" in mapped else "no-archive")
""")


def _run_session(env, job):
    out = subprocess.run([sys.executable, "-c", _SESSION, "job" if job else "start"], env=env,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    pid, mapped = out.stdout.split()
    return int(pid), mapped


def _write_archive_here(tmp_path, monkeypatch, env):
    """An archive written by a real JVM into a cache of tmp_path's: its key seen first (a
    file-level rule, checked above, recorded here rather than by a third JVM), then a
    session start that writes it at its exit."""
    from pyspark.find_spark_home import _find_spark_home
    from pyflink_on_spark.spark.session import java_binary
    from pyflink_on_spark.spark import class_cache
    monkeypatch.setattr(class_cache, "_map_only_here", False)   # (conftest.py sets it)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("PYFLINK_ON_SPARK_CLASS_CACHE", raising=False)
    env["XDG_CACHE_HOME"] = str(tmp_path)
    assert class_cache_for(java_binary(), _find_spark_home()).java_options() == ""
    # the writer only starts its session: the fewer classes it loads, the shorter its dump
    pid, mapped = _run_session(env, job=False)
    assert mapped == "no-archive"
    deadline = time.time() + 240       # the JVM writes the archive as it exits
    while os.path.exists("/proc/%d" % pid) and time.time() < deadline:
        time.sleep(0.5)


def test_the_next_jvm_maps_the_archive_a_previous_one_wrote(tmp_path, monkeypatch):
    """The archive a real JVM wrote at its exit maps in the next one. In a test run that is
    the archive the run's controller had written as it started (class_cache_prime.py: a
    second one written here would cost ~45 CPU-s of dump); without one (the cache off for
    the run, the priming failed), one written here."""
    from pyflink_on_spark.spark.tests.class_cache_prime import _plain_cache
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("PYFLINK_ON_SPARK_CLASS_CACHE", None)
    cache = _plain_cache()
    deadline = time.time() + 600       # the priming JVM still writing it
    while cache._someone_writing() and time.time() < deadline:
        time.sleep(1)
    if not cache.mapping_options():    # (promotes a finished one first)
        _write_archive_here(tmp_path, monkeypatch, env)
    _, mapped = _run_session(env, job=True)
    assert mapped == "archive-mapped"


def _archives_aged(directory, ages_in_days):
    now = time.time()
    for key, age in ages_in_days.items():
        path = os.path.join(directory, key + ".jsa")
        _archive_file(path)
        os.utime(path, (now - age * 86400,) * 2)


def test_a_run_keeps_the_four_archives_last_used(tmp_path):
    _archives_aged(str(tmp_path), {"a": 0.5, "b": 2, "c": 5, "d": 10, "used": 100})
    (tmp_path / "d.failures").write_text("x")
    options = ClassCache("used", str(tmp_path)).java_options()   # used now
    assert "-XX:SharedArchiveFile=%s" % (tmp_path / "used.jsa") in options
    assert sorted(os.listdir(tmp_path)) == ["a.jsa", "b.jsa", "c.jsa", "used.jsa"]


def test_archives_unused_for_thirty_days_are_removed(tmp_path):
    _archives_aged(str(tmp_path), {"a": 1, "b": 29, "c": 31})
    evict_unused(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == ["a.jsa", "b.jsa"]


def test_the_cache_directory_and_its_markers_are_the_users_only(tmp_path):
    import stat
    previous = os.umask(0o022)
    try:
        _seen(tmp_path / "class-cache")
        cache = ClassCache("k", str(tmp_path / "class-cache"))
        assert "-XX:ArchiveClassesAtExit" in cache.java_options()
        cache.started(os.getpid())
        _count_failure(cache.directory, "k")
    finally:
        os.umask(previous)
    assert stat.S_IMODE(os.stat(tmp_path / "class-cache").st_mode) == 0o700
    for path in (cache.writing + ".jvm", cache._failures, cache._seen):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_cache_directory_another_user_owns_or_a_symlink_is_not_used(tmp_path, monkeypatch):
    (tmp_path / "target").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "target")
    assert ClassCache("k", str(tmp_path / "link")).java_options() == ""
    (tmp_path / "theirs").mkdir(mode=0o777)
    other = os.getuid() + 1
    monkeypatch.setattr(os, "getuid", lambda: other)
    assert ClassCache("k", str(tmp_path / "theirs")).java_options() == ""
    assert os.listdir(tmp_path / "target") == [] and os.listdir(tmp_path / "theirs") == []


def test_a_server_maps_the_archive_but_never_writes_one(tmp_path):
    cache = ClassCache("k", str(tmp_path))
    assert cache.mapping_options() == ""            # none yet: none written either
    assert os.listdir(tmp_path) == []
    _archive_file(tmp_path / "k.jsa")
    assert cache.mapping_options().startswith("-XX:SharedArchiveFile=%s " % (tmp_path / "k.jsa"))


def test_the_in_process_connect_server_and_serve_get_the_sessions_archive(tmp_path, monkeypatch):
    from pyflink_on_spark.spark import connect_server, session
    monkeypatch.setattr(session, "driver_class_cache", lambda conf: ClassCache("k", str(tmp_path)))
    # a bounded job's session (an unbounded job run earlier in this process keeps the full JIT)
    monkeypatch.setattr(session, "_unbounded_job", False)
    _archive_file(tmp_path / "k.jsa")
    settings = {"spark.driver.extraJavaOptions": "-Dx=1"}
    assert session._in_process_server_jvm(settings, "local") is not None
    options = settings["spark.driver.extraJavaOptions"]
    assert options.startswith("-Dx=1 -XX:SharedArchiveFile=%s " % (tmp_path / "k.jsa"))
    assert "TieredStopAtLevel=1" in options or os.environ.get("PYFLINK_ON_SPARK_JIT") == "full"
    monkeypatch.delenv("SPARK_CONF_DIR", raising=False)
    options = connect_server._server_java({"spark.driver.extraJavaOptions": "-Dx=1"}, "/c")
    assert options.startswith("-Dx=1 -Dlog4j2.configurationFile=/c/log4j2.properties ")
    assert "-XX:SharedArchiveFile=%s " % (tmp_path / "k.jsa") in options
    assert "SPARK_CONF_DIR" not in connect_server._server_env("/c")


class _Proc:
    def __init__(self, pid):
        self.pid, self.stdin, self.waited = pid, None, None

    def wait(self, timeout):
        self.waited = timeout
        return 0


def test_a_jvm_writing_the_archive_at_exit_is_given_time_to_finish(monkeypatch):
    from types import SimpleNamespace

    from pyspark import SparkContext

    from pyflink_on_spark.spark import session
    for pid, expected in ((4242, session.ARCHIVE_DUMP_TIMEOUT_S), (4343, 30.0)):
        proc = _Proc(pid)
        monkeypatch.setattr(SparkContext, "_gateway", SimpleNamespace(proc=proc,
                                                                      shutdown=lambda: None))
        monkeypatch.setattr(SparkContext, "_jvm", None)
        monkeypatch.setattr(session, "_archive_writer_pid", 4242)
        session._end_gateway_jvm(30.0)
        assert proc.waited == expected
        assert SparkContext._gateway is None
