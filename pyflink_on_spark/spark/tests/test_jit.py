"""The JIT mode of a local Spark's JVM (spark/jit.py): C1 only for a local Spark this tool
starts, the full tiered JIT for an unbounded job, a cluster, PYFLINK_ON_SPARK_JIT=full, or
Java options of the user's own that choose a JIT."""
import pytest

from pyflink_on_spark.spark.jit import JIT_ENV, QUICK_JIT_OPTION, wants_quick_jit, with_jit_mode


@pytest.fixture(autouse=True)
def _no_jit_env(monkeypatch):
    for env in (JIT_ENV, "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"):
        monkeypatch.delenv(env, raising=False)


@pytest.mark.parametrize("master, quick", [
    ("local[*,4]", True), ("local", True), ("local[2]", True),
    ("spark://host:7077", False), ("yarn", False), ("k8s://https://api:6443", False),
    (None, False),
])
def test_quick_jit_only_for_a_local_master(master, quick):
    assert wants_quick_jit(master, long_running=False) is quick


def test_an_unbounded_job_keeps_the_full_jit():
    assert not wants_quick_jit("local[*,4]", long_running=True)


def test_env_full_keeps_the_full_jit(monkeypatch):
    monkeypatch.setenv(JIT_ENV, "full")
    assert not wants_quick_jit("local[*,4]", long_running=False)
    monkeypatch.setenv(JIT_ENV, "Quick")
    assert wants_quick_jit("local[*,4]", long_running=False)


def test_a_bad_env_value_is_an_error_naming_it(monkeypatch):
    monkeypatch.setenv(JIT_ENV, "fast")
    with pytest.raises(ValueError, match="PYFLINK_ON_SPARK_JIT must be 'quick' or 'full'"):
        wants_quick_jit("local", long_running=False)


def test_the_option_is_added_to_the_java_options():
    assert with_jit_mode("-Dlog4j2.level=ERROR", "local[*,4]", False) == \
        "-Dlog4j2.level=ERROR " + QUICK_JIT_OPTION
    assert with_jit_mode("", "local", False) == QUICK_JIT_OPTION
    assert with_jit_mode("-Dx=1", "yarn", False) == "-Dx=1"


@pytest.mark.parametrize("users", ["-XX:TieredStopAtLevel=4", "-XX:-TieredCompilation",
                                   "-XX:CompilationMode=high-only", "-Xint"])
def test_java_options_of_the_users_own_choose_the_jit(users):
    assert with_jit_mode(users, "local[*,4]", False) == users


@pytest.mark.parametrize("env", ["JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS"])
def test_a_jit_flag_in_the_users_jvm_environment_chooses_the_jit(monkeypatch, env):
    monkeypatch.setenv(env, "-Xmx2g -XX:TieredStopAtLevel=4")
    assert with_jit_mode("-Dx=1", "local[*,4]", False) == "-Dx=1"
    monkeypatch.setenv(env, "-Xmx2g")
    assert with_jit_mode("-Dx=1", "local[*,4]", False) == "-Dx=1 " + QUICK_JIT_OPTION


def test_the_test_sessions_jvm_runs_c1_only(spark):
    # the shared test session is a local Spark started by session.get_session()
    jvm = spark.sparkContext._jvm
    arguments = list(jvm.java.lang.management.ManagementFactory.getRuntimeMXBean()
                     .getInputArguments())
    assert QUICK_JIT_OPTION in arguments
