"""The direct runner: the exchange contract (direct/exchange.py) with plain Python lists, every
task of a stage run in turn in this process."""
from __future__ import annotations

import shutil
import tempfile
import time
from typing import Dict, Iterator, List, Optional

import cloudpickle

from pyflink_on_spark.direct.exchange import (
    EDGE, KIND, PAYLOAD, SEQ, SRC, Row, route, source_split_rows, upstream_rows)
from pyflink_on_spark.runtime.boundary import loads_records, row_order
from pyflink_on_spark.runtime.errors import job_error
from pyflink_on_spark.runtime.sink_delivery import DriverSinks
from pyflink_on_spark.runtime.task import StreamTask
from pyflink_on_spark.specs.stage import CompiledJob


def run_stages(job: CompiledJob, work_dir: Optional[str] = None) -> Dict[int, List[Row]]:
    """Runs every stage; returns stage id -> the rows its tasks wrote (subtask order)."""
    outputs: Dict[int, List[Row]] = {}
    for stage in job.stages:
        spec = stage.spec
        if stage.source is not None and stage.source.frame is not None:
            raise NotImplementedError(
                "the direct runner does not read frame sources (%s: read by Spark's readers); "
                "run the job on Spark" % type(stage.source.frame).__name__)
        if stage.source is not None:
            rows = source_split_rows(stage.source.splits)
        else:
            rows = upstream_rows(stage.upstream, outputs)
        shipped = cloudpickle.dumps(spec)  # each task gets its own copy, as Spark ships it
        produced: List[Row] = []
        for subtask, mine in enumerate(route(rows, spec.parallelism)):
            if mine:
                produced.extend(_run_task(cloudpickle.loads(shipped), subtask, mine, work_dir))
        outputs[spec.stage_id] = produced
    return outputs


def _run_task(spec, subtask: int, rows: List[Row], work_dir: Optional[str]) -> List[Row]:
    task_dir = tempfile.mkdtemp(prefix="pyflink-on-spark-direct-s%d-%d-" % (spec.stage_id,
                                                                            subtask),
                                dir=work_dir)
    try:
        task = StreamTask(spec, subtask, 0, work_dir=task_dir)
        task.open()
        try:
            task.process_rows([r[EDGE] for r in rows], [r[SRC] for r in rows],
                              [r[KIND] for r in rows], [r[PAYLOAD] for r in rows],
                              [row_order(r) for r in rows], [r[SEQ] for r in rows])
            task.finish()
        finally:
            task.close()
        return task.take_rows()
    finally:
        shutil.rmtree(task_dir, ignore_errors=True)


def sink_rows(job: CompiledJob, outputs: Dict[int, List[Row]]):
    """(SinkExit, values) of every driver-bound chunk, in the contract's driver order."""
    for stage in job.stages:
        sinks = {s.edge_id: s for s in stage.sinks}
        if not sinks:
            continue
        for row in outputs[stage.spec.stage_id]:
            sink = sinks.get(row[EDGE])
            if sink is not None:
                yield sink, loads_records(row[PAYLOAD])[0]


def run_job(job: CompiledJob, work_dir: Optional[str] = None) -> Dict[int, list]:
    """Runs the job; returns {driver sink node id: [values in driver order]} (print sinks:
    their lines; nothing is printed, committed or collected elsewhere)."""
    results: Dict[int, list] = {}
    for sink, values in sink_rows(job, run_stages(job, work_dir)):
        results.setdefault(sink.node_id, []).extend(values)
    return results


def _run(job: CompiledJob, collect_sink_id: Optional[int] = None) -> Iterator:
    """What an executor does: prints print-sink lines, yields collected values, commits what
    external sinks wrote once everything succeeded (aborts otherwise)."""
    sinks = DriverSinks(job, collect_sink_id)
    try:
        outputs = run_stages(job)
        for sink, values in sink_rows(job, outputs):
            yield from sinks.deliver(sink.edge_id, values)
        sinks.commit()
    except BaseException as e:
        sinks.abort()
        if isinstance(e, Exception):
            raise job_error(e) from None
        raise


def execute_job(job: CompiledJob, job_name: str, options=None, python=None,
                metric_reporters=()):
    """env.execute() on the direct runner. `options` (spark.run_options.RunOptions) and
    `python` (the job's Python dependencies), the signature the Spark executor has, matter
    only to runners in other processes: here the job's modules are this process's. No
    metrics reporter serves here (`metric_reporters` is the Spark executor's)."""
    from pyflink_on_spark.common.job_execution_result import finished_job_result
    start = time.time()
    for _ in _run(job):
        pass
    return finished_job_result(int((time.time() - start) * 1000))


def execute_collect(job: CompiledJob, job_name: str, collect_sink_id: int,
                    options=None, python=None) -> Iterator:
    """execute_and_collect() on the direct runner: the job starts at once (as PyFlink submits
    it), keeping its first value."""
    iterator = _run(job, collect_sink_id)
    try:
        first = next(iterator)
    except StopIteration:
        return iter(())
    return _prepend(first, iterator)


def _prepend(first, rest):
    yield first
    yield from rest
