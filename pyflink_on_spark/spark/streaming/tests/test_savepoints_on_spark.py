"""Savepoints of a running unbounded job on Spark, and upgrades from them, by the rules seen
on PyFlink 1.20.5 (a counting job stopped with a savepoint, then started again from it):
a changed function under the same uid keeps its state, the source goes on after the files
it read, a stateful operator missing from the new job fails the submission unless unclaimed
state may be dropped."""
import glob
import json
import os
import time

import pytest

from pyflink_on_spark.common import Configuration, Duration, Encoder, Types, WatermarkStrategy
from pyflink_on_spark.common.job_status import JobStatus
from pyflink_on_spark.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.file_system import FileSink, FileSource, StreamFormat
from pyflink_on_spark.datastream.state import ValueStateDescriptor
from pyflink_on_spark.runtime.checkpoint.savepoints import MANIFEST, SavepointError


def _counter(add, timer=False):
    # defined in a function: Spark's workers cannot import this test module, so cloudpickle
    # must carry the class by value
    class Count(KeyedProcessFunction):
        def open(self, ctx):
            self.seen = ctx.get_state(ValueStateDescriptor("n", Types.INT()))

        def process_element(self, value, ctx):
            n = (self.seen.value() or 0) + 1
            self.seen.update(n)
            if timer:    # no watermark ever comes: only a drain fires it
                ctx.timer_service().register_event_time_timer(1000)
            yield "%s %d" % (value, n + add)

        def on_timer(self, timestamp, ctx):
            yield "%s timer %d" % (ctx.get_current_key(), timestamp)
    return Count()


def _lines(out_dir):
    return sorted(line for p in glob.glob(os.path.join(out_dir, "**", "part-*"), recursive=True)
                  for line in open(p).read().splitlines())


def _wait_for(predicate, client, timeout=600):   # generous: a loaded 2-core machine
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        if client.get_job_status().result() == JobStatus.FAILED:
            client.get_job_execution_result().result()    # raises the job's error
        time.sleep(0.2)
    raise AssertionError("timed out")


def _add(in_dir, name, text):
    with open(os.path.join(in_dir, "." + name), "w") as f:
        f.write(text)
    os.rename(os.path.join(in_dir, "." + name), os.path.join(in_dir, name))


def _job(in_dir, out_dir, checkpoints, counter_add=0, counter=True, config=None,
         timer=False):
    config = config if config is not None else Configuration()
    config.set_string("state.checkpoints.dir", "file://" + checkpoints)
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.set_parallelism(2)
    env.enable_checkpointing(200)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir) \
        .monitor_continuously(Duration.of_millis(200)).build()
    upper = env.from_source(source, WatermarkStrategy.no_watermarks(), "files").uid("src") \
        .map(lambda line: line.upper(), output_type=Types.STRING()).uid("upper")
    if counter:
        upper = upper.key_by(lambda v: v).process(_counter(counter_add, timer),
                                                  Types.STRING()) \
            .uid("counter")
    upper.sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build())
    return env


def _from(savepoint, allow=False):
    config = Configuration().set_string("execution.savepoint.path", savepoint)
    if allow:
        config.set_string("execution.savepoint.ignore-unclaimed-state", "true")
    return config


def test_stop_with_savepoint_then_a_changed_job_goes_on_from_it(spark, tmp_path):
    in_dir, sps = str(tmp_path / "in"), str(tmp_path / "savepoints")
    os.makedirs(in_dir)
    _add(in_dir, "f1.txt", "a\nb\na\n")
    first_out = str(tmp_path / "out1")
    client = _job(in_dir, first_out, str(tmp_path / "ckpt1")).execute_async("counting")
    try:
        _wait_for(lambda: len(_lines(first_out)) == 3, client)
        taken = client.trigger_savepoint("file://" + sps).result()
        assert os.path.isfile(os.path.join(taken[len("file:"):], MANIFEST))
        stopped = client.stop_with_savepoint(False, "file://" + sps).result()
    except BaseException:
        client.cancel().result()
        raise
    assert _lines(first_out) == ["A 1", "A 2", "B 1"]
    assert stopped.startswith("file:" + sps + "/savepoint-" + str(client.get_job_id())[:6])
    assert client.get_job_status().result() == JobStatus.FINISHED   # as Flink reports it

    # the new version adds 100 to its counts; same uids: its state and positions go on
    _add(in_dir, "f2.txt", "a\nc\n")
    second_out = str(tmp_path / "out2")
    client = _job(in_dir, second_out, str(tmp_path / "ckpt2"), counter_add=100,
                  config=_from(stopped)).execute_async("counting, changed")
    try:
        _wait_for(lambda: len(_lines(second_out)) == 2, client)
    finally:
        client.cancel().result()
    assert _lines(second_out) == ["A 103", "C 101"]   # f1 is not read again

    # without the counter its state has no operator: refused at submission, as on Flink
    with pytest.raises(SavepointError, match="Cannot map checkpoint/savepoint state for "
                                             "operator 'uid-counter'"):
        _job(in_dir, str(tmp_path / "out3"), str(tmp_path / "ckpt3"), counter=False,
             config=_from(stopped)).execute_async("counter removed")
    # allowed: the state is dropped, the source still goes on after f1
    third_out = str(tmp_path / "out4")
    client = _job(in_dir, third_out, str(tmp_path / "ckpt4"), counter=False,
                  config=_from(stopped, allow=True)).execute_async("counter dropped")
    try:
        _wait_for(lambda: len(_lines(third_out)) == 2, client)
    finally:
        client.cancel().result()
    assert _lines(third_out) == ["A", "C"]


def test_list_savepoint_and_stop_from_the_command_line(spark, tmp_path, monkeypatch, capsys):
    from pyflink_on_spark.cli.main import main
    from pyflink_on_spark.spark.streaming.job_control import JOBS_ENV
    monkeypatch.setenv(JOBS_ENV, str(tmp_path / "jobs"))
    in_dir, sps = str(tmp_path / "in"), str(tmp_path / "savepoints")
    os.makedirs(in_dir)
    _add(in_dir, "f1.txt", "a\n")
    out = str(tmp_path / "out")
    client = _job(in_dir, out, str(tmp_path / "ckpt"), timer=True) \
        .execute_async("controlled job")
    job_id = str(client.get_job_id())
    try:
        _wait_for(lambda: _lines(out) == ["A 1"], client)
        assert main(["list"]) == 0
        assert "%s : controlled job (RUNNING" % job_id in capsys.readouterr().out
        assert main(["savepoint", job_id[:8], sps]) == 0
        printed = capsys.readouterr().out
        assert "Savepoint completed. Path: file:%s/savepoint-%s-" % (sps, job_id[:6]) in printed
        # drained (flink stop --drain): a last batch fires the event-time timer
        assert main(["stop", "controlled job", "--drain", "--savepointPath", sps]) == 0
    except BaseException:
        client.cancel().result()
        raise
    client.get_job_execution_result().result()       # ended without an error
    assert client.get_job_status().result() == JobStatus.FINISHED
    assert _lines(out) == ["A 1", "A timer 1000"]    # committed by the FileSink
    assert len(os.listdir(sps)) == 2
    taken, drained = sorted((json.load(open(os.path.join(sps, name, MANIFEST)))["version"]
                             for name in os.listdir(sps)))
    assert drained > taken
    assert main(["list"]) == 0
    assert "No running jobs." in capsys.readouterr().out


def test_a_backfill_ends_in_a_savepoint_the_live_job_goes_on_from(spark, tmp_path, capfd):
    from pyflink_on_spark.spark.streaming.backfill import KEY
    in_dir, sps = str(tmp_path / "in"), str(tmp_path / "savepoints")
    os.makedirs(in_dir)
    _add(in_dir, "f1.txt", "a\nb\na\n")

    def job(out, checkpoints, live, config=None):
        config = config if config is not None else Configuration()
        config.set_string("state.checkpoints.dir", "file://" + checkpoints)
        env = StreamExecutionEnvironment.get_execution_environment(config)
        env.set_parallelism(2)
        env.enable_checkpointing(200)
        builder = FileSource.for_record_stream_format(StreamFormat.text_line_format(), in_dir)
        if live:
            builder = builder.monitor_continuously(Duration.of_millis(200))
        env.from_source(builder.build(), WatermarkStrategy.no_watermarks(), "files") \
            .uid("src").map(lambda line: line.upper(), output_type=Types.STRING()) \
            .uid("upper").key_by(lambda v: v).process(_counter(0), Types.STRING()) \
            .uid("counter") \
            .sink_to(FileSink.for_row_format(out, Encoder.simple_string_encoder()).build())
        return env

    # the history: a bounded FileSource, its run ending in a savepoint
    backfill_out = str(tmp_path / "backfill")
    job(backfill_out, str(tmp_path / "ckpt-backfill"), live=False,
        config=Configuration().set_string(KEY, "file://" + sps)).execute("counting history")
    assert _lines(backfill_out) == ["A 1", "A 2", "B 1"]
    [name] = os.listdir(sps)
    printed = capfd.readouterr().err
    assert "ended in the savepoint file:%s/%s" % (sps, name) in printed

    # live: the same program, monitoring the directory, from the savepoint
    _add(in_dir, "f2.txt", "a\nc\n")
    live_out = str(tmp_path / "live")
    client = job(live_out, str(tmp_path / "ckpt-live"), live=True,
                 config=_from(os.path.join(sps, name))).execute_async("counting, live")
    try:
        _wait_for(lambda: len(_lines(live_out)) == 2, client)
    finally:
        client.cancel().result()
    # backfill + live = one unbounded run over both files
    one_out = str(tmp_path / "one")
    client = job(one_out, str(tmp_path / "ckpt-one"), live=True).execute_async("counting")
    try:
        _wait_for(lambda: len(_lines(one_out)) == 5, client)
    finally:
        client.cancel().result()
    assert sorted(_lines(backfill_out) + _lines(live_out)) == _lines(one_out) == \
        ["A 1", "A 2", "A 3", "B 1", "C 1"]


def test_a_backfill_refuses_batch_mode_and_sources_it_cannot_go_on_from(tmp_path):
    from pyflink_on_spark.spark.streaming.backfill import as_backfill
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([1, 2]).print()
    job = env._compile(env._sinks)
    with pytest.raises(NotImplementedError, match="in BATCH mode every window and timer"):
        as_backfill(job, "BATCH")
    with pytest.raises(NotImplementedError, match="reads FileSources and KafkaSources"):
        as_backfill(job, "STREAMING")
