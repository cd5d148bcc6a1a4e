"""run_frame (spark/frame_run.py): a frame's executed plan is made once and a copy of it runs
each time. Every run must compute the frame again (its own shuffles), the tasks must see the
session's SQL settings as a SQL execution would show them, and failures must look like
pyspark's."""
import os

import pyarrow as pa
import pytest

from pyflink_on_spark.spark.frame_run import _executed_plan, count_rows, run_frame

SETTING = "spark.pyflink_on_spark.test.frame_run_setting"


def _recording_frame(spark, log_dir: str):
    """range(20) in 2 partitions -> a mapInArrow whose tasks each write a file naming the
    rows they saw and the setting SETTING as their task sees it -> an exchange (so the
    recording tasks are a stage a reused shuffle would skip)."""
    def record(batches):
        from pyspark import TaskContext
        context = TaskContext.get()
        seen = [v for batch in batches for v in batch.column(0).to_pylist()]
        name = "%d-%d-%d" % (context.stageId(), context.partitionId(), context.attemptNumber())
        with open(os.path.join(log_dir, name), "w") as out:
            out.write("%s|%s" % (sorted(seen), context.getLocalProperty(SETTING)))
        yield pa.RecordBatch.from_pydict({"id": pa.array(seen, pa.int64())})

    return spark.range(0, 20, 1, 2).mapInArrow(record, "id long").repartition(2, "id")


def _logs(log_dir: str):
    texts = []
    for name in sorted(os.listdir(log_dir)):
        with open(os.path.join(log_dir, name)) as f:
            texts.append(f.read())
        os.remove(os.path.join(log_dir, name))
    return texts


def test_each_run_computes_the_frame_again_with_its_own_shuffle(spark, tmp_path):
    frame = _recording_frame(spark, str(tmp_path))
    assert _executed_plan(frame) is not None
    run_frame(frame)
    first = _logs(str(tmp_path))
    run_frame(frame)
    second = _logs(str(tmp_path))
    # both partitions ran both times (a reused shuffle would have skipped the map stage,
    # a reused result the whole job), and together they saw every row once
    assert len(first) == len(second) == 2
    assert first == second
    rows = sorted(v for text in first for v in eval(text.split("|")[0]))
    assert rows == list(range(20))


def test_tasks_see_the_sessions_sql_settings_and_the_thread_keeps_its_own(spark, tmp_path):
    frame = _recording_frame(spark, str(tmp_path))
    context = spark.sparkContext
    spark.conf.set(SETTING, "from-the-session")
    try:
        run_frame(frame)
    finally:
        spark.conf.unset(SETTING)
    assert [text.split("|")[1] for text in _logs(str(tmp_path))] == ["from-the-session"] * 2
    assert context.getLocalProperty(SETTING) is None
    run_frame(frame)   # unset since: the tasks no longer see it
    assert [text.split("|")[1] for text in _logs(str(tmp_path))] == ["None"] * 2


def test_a_failing_task_raises_what_pyspark_raises(spark):
    from pyspark.errors import PythonException

    def fail(batches):
        for batch in batches:
            raise ValueError("no good: %d rows" % batch.num_rows)
        yield from ()

    frame = spark.range(4).repartition(2, "id").mapInArrow(fail, "id long")
    with pytest.raises(PythonException, match="no good"):
        run_frame(frame)


def test_a_plan_that_reuses_an_exchange_runs_through_the_noop_write(spark, tmp_path):
    exchanged = spark.range(10).repartition(2, "id")
    both = exchanged.union(exchanged)
    assert "ReusedExchange" in both._jdf.queryExecution().executedPlan().toString()
    assert _executed_plan(both) is None   # a copy would run the exchange twice
    run_frame(both)   # and it runs


def test_a_frame_of_the_jobs_own_rows_is_planned_without_generated_code(spark, tmp_path):
    from pyflink_on_spark.spark.frame_run import WHOLE_STAGE_CODEGEN
    before = spark.conf.get(WHOLE_STAGE_CODEGEN)
    frame = _recording_frame(spark, str(tmp_path)).sortWithinPartitions("id")
    run_frame(frame, whole_stage_codegen=False)
    plan = _executed_plan(frame).toString()
    assert "Sort" in plan and "WholeStageCodegen" not in plan and "*(" not in plan
    assert spark.conf.get(WHOLE_STAGE_CODEGEN) == before   # the session's setting is back
    rows = sorted(v for text in _logs(str(tmp_path)) for v in eval(text.split("|")[0]))
    assert rows == list(range(20))
    # by default (a frame that reads a file or Kafka source) the plan keeps it
    default = _recording_frame(spark, str(tmp_path)).sortWithinPartitions("id")
    run_frame(default)
    assert "*(" in _executed_plan(default).toString()
    _logs(str(tmp_path))


def test_count_rows_runs_one_stage_and_fills_a_persisted_frames_cache(spark, tmp_path):
    from pyspark import StorageLevel
    log_dir = str(tmp_path)
    frame = _recording_frame(spark, log_dir).persist(StorageLevel.DISK_ONLY)
    context = spark.sparkContext
    context.setJobGroup("count_rows_test", "count_rows")
    try:
        spark.conf.set(SETTING, "counted")
        assert count_rows(frame) == 20
        jobs = context.statusTracker().getJobIdsForGroup("count_rows_test")
        # the recording stage and the exchange's reading stage; DataFrame.count() adds a
        # third, the aggregation's exchange to one partition
        assert [len(context.statusTracker().getJobInfo(j).stageIds) for j in jobs] == [2]
        assert sorted(_logs(log_dir)) == ["[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]|counted",
                                          "[10, 11, 12, 13, 14, 15, 16, 17, 18, 19]|counted"]
        # the rows read afterwards come from the cache the count filled
        assert sorted(row.id for row in frame.collect()) == list(range(20))
        assert _logs(log_dir) == []
    finally:
        spark.conf.unset(SETTING)
        context.setLocalProperty("spark.jobGroup.id", None)
        frame.unpersist()
