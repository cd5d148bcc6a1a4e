"""Flink's system metrics an unbounded job's tasks write after each micro-batch (runtime/
metrics_system.py), without Spark: records in and out per stage, watermarks per operator,
the bytes of state written; and how the driver's MetricsBoard serves them."""
import json

from pyflink_on_spark.runtime.checkpoint.micro_batch import METRICS_SUFFIX
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner
from pyflink_on_spark.runtime.checkpoint.tests.test_micro_batches import _batches, _job
from pyflink_on_spark.spark.streaming.metrics_reporting import MetricsBoard


def _docs(store, version):
    directory = store.path(store.version_dir(version))
    return [json.loads(store.read_bytes(directory + "/" + name))
            for name in store.list_names(directory) if name.endswith(METRICS_SUFFIX)]


def test_tasks_report_records_in_and_out_watermarks_and_state_size(tmp_path):
    job, sink = _job(2)
    batches = _batches(3)
    runner = StreamRunner(job, str(tmp_path))
    for b, splits in enumerate(batches):
        runner.run_batch(b, splits)
    total = sum(len(records) for batch in batches for _, records in batch)
    store = SnapshotStore(str(tmp_path))
    docs = _docs(store, 2)
    keyed_name = next(s.spec.task_name for s in job.stages if s.source is None)
    source_docs = [d for d in docs if d["task"] != keyed_name]
    keyed_docs = [d for d in docs if d["task"] == keyed_name]
    assert len(source_docs) == len(keyed_docs) == 2
    # what the source stage sent is what the keyed stage received (the collect sink's
    # records go to the driver: not a task's output, as a Flink sink has none)
    assert sum(d["system"]["numRecordsOut"] for d in source_docs) == total
    # a source stage, as PyFlink 1.20.5 reports one: nothing in, what it read is the
    # source operator's output, and no input watermark
    for d in source_docs:
        head = d["system"]["operators"][0]
        assert d["system"]["numRecordsIn"] == head["numRecordsIn"] == 0
        assert head["numRecordsOut"] == d["system"]["recordsRead"]
        assert "currentInputWatermark" not in d["system"]
        assert "currentInputWatermark" not in head
    assert sum(d["system"]["recordsRead"] for d in source_docs) == total
    assert sum(d["system"]["numRecordsIn"] for d in keyed_docs) == total
    assert all(d["system"]["numRecordsOut"] == 0 for d in keyed_docs)
    # the keyed task's input watermark is the lowest its upstream subtasks sent: the
    # watermark operator's output (bounded out-of-orderness 2 ms: max timestamp - 3)
    sent = [op["currentOutputWatermark"] for d in source_docs for op in d["system"]["operators"]
            if op["name"] == "Timestamps/Watermarks"]
    assert len(sent) == 2
    last_stamps = [max(r[1] for r in records) for _, records in batches[-1]]
    assert sorted(sent) == sorted(t - 3 for t in last_stamps)
    for d in keyed_docs:
        head = d["system"]["operators"][0]
        assert d["system"]["currentInputWatermark"] == min(sent) == head["currentInputWatermark"]
        assert head["numRecordsIn"] == d["system"]["numRecordsIn"]
    assert all(d["checkpointedSize"] > 0 for d in keyed_docs)
    # each subtask's snapshot duration (ms), for the big-state benchmark's per-batch cost
    assert all(isinstance(d["snapshotMs"], float) and d["snapshotMs"] >= 0 for d in docs)

    board = MetricsBoard("job")
    board.read_batch(store, 1, now=10.0)
    board.read_batch(store, 2, now=12.0)
    board.checkpoint_completed(3, 40)
    board.pending_records("source", {0: 5, 1: 0})
    text = board.prometheus_text()
    per_batch = len(batches[-1][0][1]) + len(batches[-1][1][1])
    keyed_label = keyed_name.replace(" ", "_")       # as Flink's reporter writes labels
    rates = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
             if line.startswith("flink_taskmanager_job_task_numRecordsInPerSecond{")
             and keyed_label in line]
    assert sum(rates) == per_batch / 2.0       # the last batch's records over 2 s
    size = sum(d["checkpointedSize"] for d in docs)
    assert 'flink_jobmanager_job_lastCheckpointSize{job_name="job"} %d' % size in text
    assert 'flink_taskmanager_job_task_numRecordsIn{job_name="job",task_name="%s",' \
           'subtask_index="0"}' % keyed_label in text
    assert "# TYPE flink_taskmanager_job_task_operator_currentOutputWatermark gauge" in text
    assert ('flink_taskmanager_job_task_operator_pendingRecords{job_name="job",'
            'task_name="source",operator_name="source",subtask_index="0"} 5') in text
    # the line the Spark UI shows with a micro-batch's jobs
    assert "%s: in %d (%.0f/s), out 0, watermark %d" % (
        keyed_name, total, per_batch / 2.0, min(sent)) in board.summary()
    assert board.summary().endswith("; last checkpoint %d bytes in 40 ms" % size)
    assert "Map: read %d, out %d;" % (total, total) in board.summary()   # the source stage


def test_a_source_counts_what_it_read_from_lists_chunks_and_generators():
    from pyflink_on_spark.common.watermark_strategy import WatermarkStrategy as W
    from pyflink_on_spark.runtime.operators.source import PROGRESS_RECORDS, SourceOperator
    from pyflink_on_spark.runtime.testing import OperatorHarness
    from pyflink_on_spark.specs.sources import RecordChunks
    n = PROGRESS_RECORDS + 5
    for strategy in (None, W.for_monotonous_timestamps()):    # collect_many / one by one
        harness = OperatorHarness(SourceOperator(reader=None, watermark_strategy=strategy),
                                  name="Source")
        source = harness.operator
        source.reader = lambda split: split
        for _ in source.read_split(list(range(n))):
            pass
        source.reader = lambda split: RecordChunks(iter([[1, 2], [3]]))
        for _ in source.read_split("chunks"):
            pass
        source.reader = lambda split: (i for i in range(n))
        for _ in source.read_split("generator"):
            pass
        assert source.records_read == 2 * n + 3
