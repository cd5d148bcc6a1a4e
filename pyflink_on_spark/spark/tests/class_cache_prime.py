"""The class-data-sharing archive written at the start of a test run (conftest.py), not by
the suite's second driver (spark/class_cache.py).

Why: the suite starts tens of driver JVMs as users start them (`pyflink-on-spark run`, kill
and restart tests, cluster clients), and a driver that maps the archive costs about half
the CPU of one that does not (12-13 against 21-25 CPU-s, class_cache.py). Left to the first
rule, the archive of a fresh CI machine was first asked for at start+272 s and written at
start+456 s, when the test whose driver wrote it ended: every driver before that ran without
it, on a run that is CPU-bound (93% busy).

So the run's controller starts, in the background, one small job of its own whose driver
writes the archive at once (ClassCache.expect_many_starts) and exits as soon as the job is
done. The job loads what the suite's drivers load most: a bounded keyed job with state (a
Spark batch job) and an unbounded file job with checkpoints (Structured Streaming), in one
driver. Nothing happens when the archive exists, is being written, was given up on, or the
cache is off (PYFLINK_ON_SPARK_CLASS_CACHE=0 / map)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from typing import Optional

from pyflink_on_spark.spark.class_cache import CLASS_CACHE_ENV, ClassCache, archive_key

__all__ = ['start_priming', 'wait_for_priming']

_OFF = ("0", "false", "no", "off", "map")
PRIMING_TIMEOUT_S = 900.0   # the job and the dump on a loaded 2-core machine


def _plain_cache() -> Optional[ClassCache]:
    """The cache of the drivers the tests start: this Java, pip's pyspark, no extra class
    path (None when it cannot be determined)."""
    from pyflink_on_spark.spark.session import java_binary
    from pyflink_on_spark.spark.tests.standalone_cluster import spark_home
    try:
        java = java_binary()
        return ClassCache(archive_key(java, spark_home())) if java else None
    except (OSError, RuntimeError):
        return None


def start_priming() -> Optional[subprocess.Popen]:
    """Starts the job that writes the archive, when one is wanted: its process, else None."""
    if os.environ.get(CLASS_CACHE_ENV, "1").strip().lower() in _OFF:
        return None
    cache = _plain_cache()
    if cache is None or not cache.wants_archive():
        return None
    cache.expect_many_starts()
    env = dict(os.environ)
    env.pop("PYSPARK_SUBMIT_ARGS", None)
    errors = tempfile.TemporaryFile()   # read by wait_for_priming when the job fails
    proc = subprocess.Popen([sys.executable, "-m", __name__], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=errors, start_new_session=True)
    proc.errors = errors
    return proc


def wait_for_priming(proc: Optional[subprocess.Popen]) -> str:
    """The run ends: a priming job still running (a short run) is waited for, so its JVM
    finishes the dump rather than being cut short (a cut dump counts as a failure). Returns
    what to tell the person running the tests ("" when all went well): a failed job costs
    the suite time, not a result, so it is reported, not raised."""
    if proc is None:
        return ""
    try:
        code = proc.wait(timeout=PRIMING_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = "killed after %d s" % PRIMING_TIMEOUT_S
    with proc.errors:
        proc.errors.seek(0)
        tail = proc.errors.read().decode("utf-8", "replace").strip().splitlines()[-20:]
    if code == 0:
        return ""
    return ("the job writing the class-data-sharing archive (spark/tests/class_cache_prime.py) "
            "failed (%s); the tests' drivers ran without the archive:\n%s"
            % (code, "\n".join(tail)))


def _lines(out_dir: str) -> list:
    found = []
    for root, _dirs, files in os.walk(out_dir):
        for name in files:
            if name.startswith("part-"):
                with open(os.path.join(root, name)) as f:
                    found.extend(f.read().splitlines())
    return found


def _bounded_keyed_job() -> list:
    from pyflink_on_spark.common import Types
    from pyflink_on_spark.datastream import (KeyedProcessFunction, RuntimeExecutionMode,
                                             StreamExecutionEnvironment)
    from pyflink_on_spark.datastream.state import ValueStateDescriptor

    class Sum(KeyedProcessFunction):
        def open(self, ctx):
            self.total = ctx.get_state(ValueStateDescriptor("total", Types.LONG()))

        def process_element(self, value, ctx):
            self.total.update((self.total.value() or 0) + value[1])
            yield value[0], self.total.value()

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    env.set_parallelism(2)
    rows = env.from_collection([("a", 1), ("b", 2), ("a", 3)],
                               type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
    return list(rows.key_by(lambda r: r[0], key_type=Types.STRING())
                .process(Sum(), output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))
                .execute_and_collect())


def _unbounded_file_job(tmp: str) -> None:
    from pyflink_on_spark.common import Duration, Encoder, Types, WatermarkStrategy
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.file_system import (FileSink, FileSource,
                                                                    StreamFormat)
    in_dir, out_dir = os.path.join(tmp, "in"), os.path.join(tmp, "out")
    os.makedirs(in_dir)
    with open(os.path.join(in_dir, "a.txt"), "w") as f:
        f.write("a,1\nb,2\n")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.enable_checkpointing(200)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + os.path.join(tmp, "ck"))
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
        .monitor_continuously(Duration.of_millis(200)).build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
        .key_by(lambda line: line.split(",")[0], key_type=Types.STRING()) \
        .reduce(lambda a, b: a + b) \
        .sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build())
    client = env.execute_async("class cache priming")
    try:
        deadline = time.time() + PRIMING_TIMEOUT_S
        while len(_lines(out_dir)) < 2 and time.time() < deadline:
            time.sleep(0.5)
    finally:
        client.cancel().result()


def main() -> None:
    from pyflink_on_spark.spark.session import end_owned_session
    try:
        with tempfile.TemporaryDirectory(prefix="pyflink-on-spark-prime-") as tmp:
            _bounded_keyed_job()
            _unbounded_file_job(tmp)
    finally:
        end_owned_session()   # waits for the JVM's dump (session.ARCHIVE_DUMP_TIMEOUT_S)


if __name__ == "__main__":
    main()
