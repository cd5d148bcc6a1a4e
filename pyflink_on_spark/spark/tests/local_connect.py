"""`SPARK_REMOTE=local` starts pyspark's own Connect server inside the client process, always
on port 15002 (pyspark picks a free one only under SPARK_TESTING): two such clients at once
on one machine fail to bind. Tests that run one take this machine-wide lock first, so that two
test runs side by side (a busy CI machine, a developer's run beside CI) wait for each other
instead of failing."""
from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Iterator

from pyflink_on_spark.tests.server_tools import file_lock

LOCK_PATH = os.path.join(tempfile.gettempdir(), "pyflink-on-spark-tests-connect-local.lock")


@contextlib.contextmanager
def one_local_connect_server() -> Iterator[None]:
    with file_lock(LOCK_PATH):
        yield
