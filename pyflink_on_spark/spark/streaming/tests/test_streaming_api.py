"""Unbounded jobs through the API in this process (the shared SparkSession): execute_async
returns a live JobClient; without checkpointing the job says once that it will not recover."""
import glob
import os
import re
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
        # finished parts carry Flink's names (in-progress ones are hidden until the commit)
        names = [os.path.basename(p) for p in glob.glob(os.path.join(out_dir, "**", "*"),
                                                        recursive=True) if os.path.isfile(p)]
        assert names and all(re.fullmatch(r"part-[0-9a-f-]{36}-\d+", n) for n in names)
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


def _add(in_dir, name, text):
    with open(os.path.join(in_dir, "." + name), "w") as f:
        f.write(text)
    os.rename(os.path.join(in_dir, "." + name), os.path.join(in_dir, name))


def test_execute_and_collect_yields_results_as_produced_and_closing_stops_the_job(spark,
                                                                                  tmp_path):
    in_dir = str(tmp_path / "in")
    os.makedirs(in_dir)
    _add(in_dir, "a.txt", "one\ntwo\n")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
        .monitor_continuously(Duration.of_millis(100)).build()
    stream = env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
        .map(lambda line: line.upper(), output_type=Types.STRING())
    results = stream.execute_and_collect("collect unbounded")
    assert [next(results), next(results)] == ["ONE", "TWO"]
    _add(in_dir, "b.txt", "three\n")     # arrives while the job runs
    assert next(results) == "THREE"
    results.close()
    assert spark.streams.active == []   # the job's streaming query stopped


def test_min_pause_between_checkpoints_spaces_the_micro_batches(spark, tmp_path):
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    in_dir, out_dir, ckpt = str(tmp_path / "in"), str(tmp_path / "out"), str(tmp_path / "c")
    os.makedirs(in_dir)
    _add(in_dir, "a.txt", "x\n")
    env = _job(in_dir, out_dir, ckpt)
    env.get_checkpoint_config().set_min_pause_between_checkpoints(1500)
    client = env.execute_async("min pause")
    store = SnapshotStore(os.path.join(ckpt, "state"))
    try:
        _wait_for(lambda: store.versions() and store.versions()[-1] >= 3)   # 2 are kept
    finally:
        client.cancel().result()
    # each batch's processing time is recorded when it starts (the last two are kept)
    times = sorted(int(open(os.path.join(ckpt, "state", "batches", name)).read())
                   for name in os.listdir(os.path.join(ckpt, "state", "batches"))
                   if name.isdigit())
    assert len(times) >= 2
    assert all(b - a >= 1500 for a, b in zip(times, times[1:]))


def test_delete_on_cancellation_removes_the_checkpoints_of_a_cancelled_job(spark, tmp_path):
    from pyflink_on_spark.datastream import ExternalizedCheckpointRetention
    in_dir, out_dir, ckpt = str(tmp_path / "in"), str(tmp_path / "out"), str(tmp_path / "c")
    os.makedirs(in_dir)
    _add(in_dir, "a.txt", "x\n")
    env = _job(in_dir, out_dir, ckpt)
    env.get_checkpoint_config().set_externalized_checkpoint_retention(
        ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION)
    client = env.execute_async("delete on cancellation")
    try:
        _wait_for(lambda: _lines(out_dir) == ["X"])
        assert os.path.isdir(ckpt)
    finally:
        client.cancel().result()
    assert not os.path.exists(ckpt)


def test_checkpoint_settings_without_effect_say_so_once(spark, tmp_path, capfd):
    in_dir, out_dir, ckpt = str(tmp_path / "in"), str(tmp_path / "out"), str(tmp_path / "c")
    os.makedirs(in_dir)
    env = _job(in_dir, out_dir, ckpt)
    env.get_checkpoint_config().set_checkpoint_timeout(123456)
    env.get_checkpoint_config().set_tolerable_checkpoint_failure_number(3)
    for _ in range(2):
        env.from_source(FileSource.for_record_stream_format(
            StreamFormat.text_line_format(), in_dir).monitor_continuously(
            Duration.of_millis(200)).build(), WatermarkStrategy.no_watermarks(), "f").print()
        env.execute_async("settings").cancel().result()
    err = capfd.readouterr().err
    assert err.count("checkpoint timeout (123456 ms) has no effect") == 1
    assert err.count("tolerable checkpoint failures (3) have no effect") == 1


def test_the_testing_plugins_collecting_sink_receives_an_unbounded_jobs_records(spark,
                                                                                tmp_path):
    """pyflink_on_spark.testing.collect on an unbounded job: each micro-batch's records reach
    the test's list as the batch completes (the driver's sink delivery is the bounded
    run's: runtime/sink_delivery.py)."""
    from pyflink_on_spark.testing import collect
    in_dir = str(tmp_path / "in")
    os.makedirs(in_dir)
    with open(os.path.join(in_dir, "a.txt"), "w") as f:
        f.write("one\ntwo\n")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
        .monitor_continuously(Duration.of_millis(100)).build()
    sink = collect(env.from_source(source, WatermarkStrategy.no_watermarks(), "files")
                   .map(lambda line: line.upper(), output_type=Types.STRING()))
    client = env.execute_async("collected unbounded")
    try:
        _wait_for(lambda: sorted(sink.results) == ["ONE", "TWO"])
        with open(os.path.join(in_dir, ".b.tmp"), "w") as f:
            f.write("three\n")
        os.rename(os.path.join(in_dir, ".b.tmp"), os.path.join(in_dir, "b.txt"))
        _wait_for(lambda: sorted(sink.results) == ["ONE", "THREE", "TWO"])
    finally:
        client.cancel().result()
        sink.close()
    assert sorted(sink.results) == ["ONE", "THREE", "TWO"]
