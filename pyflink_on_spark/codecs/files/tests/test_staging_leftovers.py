"""What a driver killed with SIGKILL left in a FileSink's base directory is removed by the
next run into that directory; a live job's staging directory is not."""
import json
import os
import signal
import subprocess
import sys
import time

from pyflink_on_spark.codecs.files import staging
from pyflink_on_spark.codecs.files.commit import FileCommitter
from pyflink_on_spark.specs.sinks import FileSinkSpec

PREFIX = staging.STAGING_PREFIX


def _spec(base, token):
    return FileSinkSpec(base_path=str(base), writer=None, buckets=None, rolling=None,
                        staging_token=token)


def test_a_killed_drivers_staging_directory_goes_on_the_next_run(tmp_path):
    dead = tmp_path / (PREFIX + "dead")
    code = ("import sys, time; from pyflink_on_spark.codecs.files import staging; "
            "staging.claim(sys.argv[1]); open(sys.argv[1] + '/0-0-part', 'w').write('x'); "
            "print('ready', flush=True); time.sleep(60)")
    driver = subprocess.Popen([sys.executable, "-c", code, str(dead)], stdout=subprocess.PIPE,
                              text=True)
    assert driver.stdout.readline().strip() == "ready"
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    assert dead.is_dir()

    live = tmp_path / (PREFIX + "live")          # another job of this host, still running
    staging.claim(str(live))
    other = tmp_path / "part-0"                   # finished output stays
    other.write_text("done")

    committer = FileCommitter(_spec(tmp_path, "mine"))
    committer.prepare()
    assert not dead.exists()
    assert live.is_dir() and other.read_text() == "done"
    mine = tmp_path / (PREFIX + "mine")
    assert json.loads((mine / staging.OWNER_FILE).read_text())["pid"] == os.getpid()
    committer.commit([])
    assert sorted(os.listdir(tmp_path)) == [PREFIX + "live", "part-0"]


def test_a_reused_pid_or_another_host_or_a_fresh_unmarked_directory_is_kept(tmp_path):
    reused = tmp_path / (PREFIX + "reused")
    reused.mkdir()
    record = staging.owner_record()
    (reused / staging.OWNER_FILE).write_text(json.dumps({**record, "start": "1"}))
    elsewhere = tmp_path / (PREFIX + "elsewhere")
    elsewhere.mkdir()
    (elsewhere / staging.OWNER_FILE).write_text(json.dumps({**record, "host": "other-host"}))
    fresh = tmp_path / (PREFIX + "fresh")
    fresh.mkdir()
    old = tmp_path / (PREFIX + "old")
    old.mkdir()
    long_ago = time.time() - staging.UNMARKED_MAX_AGE_S - 10
    os.utime(old, (long_ago, long_ago))

    removed = staging.remove_abandoned(str(tmp_path))
    assert sorted(os.path.basename(p) for p in removed) == [PREFIX + "old", PREFIX + "reused"]
    assert elsewhere.is_dir() and fresh.is_dir()


def test_a_file_sink_job_clears_a_killed_runs_staging_directory(spark, tmp_path):
    from pyflink_on_spark.common.serialization import Encoder
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.file_system import FileSink
    base = tmp_path / "out"
    dead = base / (PREFIX + "killed-run")
    dead.mkdir(parents=True)
    (dead / "0-0-part").write_text("partial")
    (dead / staging.OWNER_FILE).write_text(json.dumps(
        {**staging.owner_record(), "pid": 2 ** 22 + 12345, "start": "1"}))   # no such pid
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection([1, 2], type_info=Types.INT()) \
        .sink_to(FileSink.for_row_format(str(base), Encoder.simple_string_encoder()).build())
    env.execute()
    assert not dead.exists()
    assert not [n for n in os.listdir(base) if n.startswith(PREFIX)]
