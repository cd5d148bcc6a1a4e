"""add_jars / add_classpaths / register_cached_file and configure() keys, as PyFlink 1.20.5
behaves (compat case basic/environment_configure records the same on PyFlink)."""
import pytest

from pyflink_on_spark.common.configuration import Configuration
from pyflink_on_spark.datastream._configuration_keys import parse_millis
from pyflink_on_spark.datastream._job_files import check_uploads
from pyflink_on_spark.datastream.stream_execution_environment import StreamExecutionEnvironment


def test_add_jars_needs_urls_and_missing_local_files_fail_the_upload(tmp_path):
    env = StreamExecutionEnvironment.get_execution_environment()
    with pytest.raises(ValueError, match="no protocol: /x.jar"):
        env.add_jars("/x.jar")
    with pytest.raises(ValueError, match="no protocol"):
        env.add_classpaths("relative/dir/")
    jar = tmp_path / "there.jar"
    jar.write_bytes(b"")
    check_uploads(["file://%s" % jar, "hdfs://nn/x.jar"], [str(jar)])
    with pytest.raises(FileNotFoundError, match="Could not upload job files: /nope.jar"):
        check_uploads(["file:///nope.jar"], [])
    with pytest.raises(FileNotFoundError, match="/nope.txt"):
        check_uploads([], ["/nope.txt"])


def test_a_missing_jar_of_flinks_own_is_skipped_with_one_line(capsys):
    """A job moved from a Flink machine names Flink's connector jars at paths that exist only
    there; the shim runs those connectors itself (issue 42)."""
    check_uploads(["file:///opt/flink/lib/flink-sql-connector-kafka-3.3.0-1.20.jar",
                   "file:///x/flink-connector-jdbc-3.2.0-1.19.jar"], [])
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert "flink-sql-connector-kafka-3.3.0-1.20.jar is not on this machine" in err[0]
    assert "skipped" in err[0]
    # a jar of the user's own, or a cached file named like one, still fails as on PyFlink
    for jars, cached in ((["file:///x/my-udfs-1.0.jar"], []),
                         (["file:///x/flink-extras.jar"], []),   # no version: not Flink's
                         ([], ["/x/flink-sql-connector-kafka-3.3.0-1.20.jar"])):
        with pytest.raises(FileNotFoundError, match="Could not upload job files"):
            check_uploads(jars, cached)


def test_configure_applies_the_datastream_keys(capsys):
    conf = Configuration()
    for key, value in [("pipeline.operator-chaining", "false"),
                       ("pipeline.max-parallelism", "64"), ("pipeline.object-reuse", "true"),
                       ("execution.buffer-timeout", "50 ms"),
                       ("execution.checkpointing.interval", "5 s"),
                       ("pipeline.auto-watermark-interval", "300 ms"),
                       ("execution.runtime-mode", "batch"),
                       ("taskmanager.memory.process.size", "2g")]:
        conf.set_string(key, value)
    env = StreamExecutionEnvironment.get_execution_environment(conf)
    assert (env.is_chaining_enabled(), env.get_max_parallelism(),
            env.get_config().is_object_reuse_enabled(), env.get_buffer_timeout(),
            env.get_checkpoint_interval(), env.get_config().get_auto_watermark_interval()) \
        == (False, 64, True, 50, 5000, 300)
    assert env._runtime_mode.name == "BATCH"
    err = capsys.readouterr().err
    assert "'taskmanager.memory.process.size' has no effect" in err


def test_durations_parse_as_flink_parses_them():
    assert [parse_millis("k", t) for t in ["200", "50 ms", "5s", "2 min", "1 h"]] == \
        [200, 50, 5000, 120000, 3600000]
    with pytest.raises(ValueError, match="Could not parse value 'soon' for key 'k'"):
        parse_millis("k", "soon")


def test_python_dependencies_reach_the_job_settings_from_calls_and_keys():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.add_python_file("/deps/a.py")
    env.add_python_archive("/deps/data.zip")
    env.add_python_archive("/deps/data.zip", "tables")
    env.set_python_requirements("/deps/requirements.txt", "/deps/cache")
    env.set_python_executable("/usr/bin/python3")
    conf = Configuration()
    conf.set_string("python.files", "/deps/b.py,/deps/pkgdir")
    conf.set_string("python.archives", "/deps/venv.zip#venv")
    env.configure(conf)
    python = env._job_settings().python
    assert python.files == ("/deps/a.py", "/deps/b.py", "/deps/pkgdir")
    assert python.archives == (("/deps/data.zip", None), ("/deps/data.zip", "tables"),
                               ("/deps/venv.zip", "venv"))
    assert python.requirements == ("/deps/requirements.txt", "/deps/cache")
    assert python.executable == "/usr/bin/python3"
    assert not StreamExecutionEnvironment.get_execution_environment()._job_settings().python


def test_checkpoint_interval_from_the_configuration_reaches_the_job_settings():
    # set as a key in the job's Configuration (not through enable_checkpointing): the key's
    # duration text becomes the job's checkpoint interval
    config = Configuration()
    config.set_string("execution.checkpointing.interval", "2 s")
    env = StreamExecutionEnvironment.get_execution_environment(config)
    assert env._checkpoint_settings().interval_ms == 2000
