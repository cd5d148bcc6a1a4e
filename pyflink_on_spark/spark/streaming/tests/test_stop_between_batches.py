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


def _timers():
    # by value (Spark's workers cannot import this module): an event-time timer per key
    # that no watermark ever fires (lines have no timestamps), only a drain
    from pyflink_on_spark.datastream import KeyedProcessFunction

    class Timers(KeyedProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(1000)
            yield value

        def on_timer(self, timestamp, ctx):
            yield "fired-" + ctx.get_current_key()
    return Timers()


def _runner(spark, monkeypatch, tmp_path, timers=False):
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
    upper = env.from_source(FileSource.for_record_stream_format(
        StreamFormat.text_line_format(), str(in_dir)).monitor_continuously(
        Duration.of_millis(200)).build(), WatermarkStrategy.no_watermarks(), "files") \
        .map(lambda line: line.upper(), output_type=Types.STRING())
    if timers:
        upper = upper.key_by(lambda v: v).process(_timers(), Types.STRING())
    upper.print()
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


def test_a_drained_batch_is_recorded_and_its_rerun_drains_again(spark, monkeypatch, tmp_path,
                                                                 capsys):
    """stop_with_savepoint(True, ...): the batch planned while the drain is asked ends with
    the end of event time; a driver killed before the batch completed re-runs it drained,
    though nobody asks for a drain any more (its output is committed once)."""
    runner = _runner(spark, monkeypatch, tmp_path, timers=True)
    taken = runner.savepoints.ask(str(tmp_path / "sps"), then_stop=True, drain=True)
    runner.run(None, 0)
    drained = ["FIRED-ONE", "FIRED-TWO", "ONE", "TWO"]
    assert sorted(capsys.readouterr().out.upper().split()) == drained
    assert taken.result().startswith("file:%s/savepoint-" % (tmp_path / "sps"))
    assert runner.stopping.is_set()
    runner.store.delete_file(runner.store.path(runner.store.version_dir(0), "_COMPLETED"))
    rerun = streaming.MicroBatchRunner(runner.job, runner.settings, spark)
    assert not rerun.savepoints.draining()
    rerun.run(None, 0)
    assert sorted(capsys.readouterr().out.upper().split()) == drained
    assert rerun.store.versions() == [0]
