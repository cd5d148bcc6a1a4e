"""A stop (Ctrl-C, SIGTERM, JobClient.cancel) that comes between two micro-batches while Spark
already started the next one: that batch runs nothing, so query.stop() cancels no running
Spark job (which fails the query: Spark's check of the cancelled foreachBatch's error message
overflows the JVM stack), unless it is the re-run of a batch planned before (its recorded
input must not be skipped)."""
import os

from pyflink_on_spark.common import Duration, Types, WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink_on_spark.spark.streaming import executor as streaming


def _runner(spark, monkeypatch, tmp_path):
    """The MicroBatchRunner of a monitored-directory job (one file waiting), not started."""
    in_dir, ckpt = tmp_path / "in", tmp_path / "ckpt"
    os.makedirs(in_dir)
    (in_dir / "a.txt").write_text("one\ntwo\n")
    captured = {}
    monkeypatch.setattr(streaming, "execute_streaming",
                        lambda job, name, options, settings, **kw: captured.update(
                            job=job, settings=settings))
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.enable_checkpointing(200)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://%s" % ckpt)
    env.from_source(FileSource.for_record_stream_format(
        StreamFormat.text_line_format(), str(in_dir)).monitor_continuously(
        Duration.of_millis(200)).build(), WatermarkStrategy.no_watermarks(), "files") \
        .map(lambda line: line.upper(), output_type=Types.STRING()).print()
    env.execute("stop between batches")
    return streaming.MicroBatchRunner(captured["job"], captured["settings"], spark)


def test_a_batch_started_after_the_stop_runs_nothing(spark, monkeypatch, tmp_path, capsys):
    runner = _runner(spark, monkeypatch, tmp_path)
    runner.stopping.set()
    runner.run(None, 0)
    assert runner.store.versions() == []
    assert not runner._planned(0)
    assert capsys.readouterr().out == ""
    assert not runner.in_batch
    # the same batch without the stop reads the waiting file
    runner.stopping.clear()
    runner.run(None, 0)
    assert runner.store.versions() == [0]
    assert capsys.readouterr().out.split() == ["ONE", "TWO"]


def test_the_rerun_of_a_planned_batch_runs_despite_the_stop(spark, monkeypatch, tmp_path,
                                                            capsys):
    runner = _runner(spark, monkeypatch, tmp_path)
    runner._batch_time(0)   # batch 0 was started before (a run interrupted by a crash)
    runner.stopping.set()
    runner.run(None, 0)
    assert runner.store.versions() == [0]
    assert capsys.readouterr().out.split() == ["ONE", "TWO"]
