"""A FileSink writing onto a full file system (a small tmpfs, really full): the job fails
naming the part file, the sink's directory and what to do; nothing is published."""
import os
import subprocess

import pytest

from pyflink_on_spark.common import Types
from pyflink_on_spark.common.serialization import Encoder
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSink
from pyflink_on_spark.runtime.errors import JobExecutionError


def _as_root(command):
    # CI runs as root (or with sudo, which the PostgreSQL fixture also uses)
    return command if os.geteuid() == 0 else ["sudo", "-n"] + command


@pytest.fixture
def small_disk(tmp_path):
    mount_point = str(tmp_path / "disk")
    os.makedirs(mount_point)
    subprocess.run(_as_root(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mount_point]),
                   check=True)
    try:
        yield mount_point
    finally:
        subprocess.run(_as_root(["umount", "-l", mount_point]), check=True)


def test_a_full_disk_fails_the_job_naming_the_part_file_and_nothing_is_published(spark,
                                                                                  small_disk):
    base = os.path.join(small_disk, "out")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection(["x" * 1000 + str(i) for i in range(1000)], type_info=Types.STRING()) \
        .sink_to(FileSink.for_row_format(base, Encoder.simple_string_encoder()).build())
    with pytest.raises(JobExecutionError) as raised:
        env.execute("full disk")
    message = str(raised.value)
    assert "No space left on device while writing the part file" in message
    assert "of the FileSink into %s" % base in message
    assert "nothing of this run was published" in message
    visible = [f for _, _, files in os.walk(base) for f in files if not f.startswith(".")]
    assert visible == []
    assert os.listdir(base) == []          # the staging directory is removed too
