"""Unbounded jobs through the API in this process (the shared SparkSession): execute_async
returns a live JobClient; without checkpointing the job says once that it will not recover."""
import glob
import os
import time

from pyflink_on_spark.common import Configuration, Duration, Encoder, Types, WatermarkStrategy
from pyflink_on_spark.common.job_status import JobStatus
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSink, FileSource, StreamFormat


def _lines(out_dir):
    return sorted(line for p in glob.glob(os.path.join(out_dir, "**", "part-*"), recursive=True)
                  for line in open(p).read().splitlines())


def _wait_for(predicate, timeout=900):   # generous: a loaded 2-core machine
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError("timed out")


def _job(in_dir, out_dir, checkpoints=None):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    if checkpoints is not None:
        env.enable_checkpointing(200)
        # the configuration route (Flink 1.19+); CheckpointConfig's is in the recovery test
        env.configure(Configuration().set_string("state.checkpoints.dir",
                                                 "file://" + checkpoints))
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
        .monitor_continuously(Duration.of_millis(200)).build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
        .map(lambda line: line.upper(), output_type=Types.STRING()) \
        .sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build())
    return env


def test_execute_async_runs_until_cancelled_and_reads_files_as_they_arrive(spark, tmp_path):
    in_dir, out_dir = str(tmp_path / "in"), str(tmp_path / "out")
    os.makedirs(in_dir)
    with open(os.path.join(in_dir, "a.txt"), "w") as f:
        f.write("one\ntwo\n")
    client = _job(in_dir, out_dir, str(tmp_path / "ckpt")).execute_async("async job")
    try:
        assert client.get_job_status().result() == JobStatus.RUNNING
        _wait_for(lambda: _lines(out_dir) == ["ONE", "TWO"])
        with open(os.path.join(in_dir, ".b.tmp"), "w") as f:
            f.write("three\n")
        os.rename(os.path.join(in_dir, ".b.tmp"), os.path.join(in_dir, "b.txt"))
        _wait_for(lambda: _lines(out_dir) == ["ONE", "THREE", "TWO"])
    finally:
        client.cancel().result()
    assert client.get_job_status().result() == JobStatus.CANCELED
    assert _lines(out_dir) == ["ONE", "THREE", "TWO"]


def test_without_checkpointing_the_job_says_once_it_will_not_recover(spark, tmp_path, capfd):
    in_dir, out_dir = str(tmp_path / "in"), str(tmp_path / "out")
    os.makedirs(in_dir)
    with open(os.path.join(in_dir, "a.txt"), "w") as f:
        f.write("x\n")
    client = _job(in_dir, out_dir).execute_async("no checkpoints")
    try:
        _wait_for(lambda: _lines(out_dir) == ["X"])
    finally:
        client.cancel().result()
    err = capfd.readouterr().err
    assert err.count("will not recover after a crash") == 1
