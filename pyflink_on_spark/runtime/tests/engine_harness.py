"""Drive compiled stages with plain Python, no Spark: the test stand-in for the Spark layer.

Exchanges are emulated exactly as the Spark layer does them: rows grouped by destination
subtask and sorted by (edge, src, seq)."""
from __future__ import annotations

import pickle
from typing import Dict, List

import cloudpickle

from pyflink_on_spark.graph.compile import CompiledJob, compile_job
from pyflink_on_spark.graph.operators import operator_factory
from pyflink_on_spark.runtime.spec import KIND_SPLIT, JobConfig
from pyflink_on_spark.runtime.task import StreamTask


def compile_sinks(sinks, parallelism: int = 1, mode: str = "STREAMING",
                  interval: int = 200) -> CompiledJob:
    return compile_job(sinks, default_parallelism=parallelism, default_max_par=-1,
                       chaining_enabled=True,
                       config=JobConfig(runtime_mode=mode, auto_watermark_interval=interval),
                       operator_factory=operator_factory)


def run_job(job: CompiledJob, work_dir: str = None) -> Dict[int, List]:
    """Returns {driver sink node id: [values in driver order]}."""
    outputs: Dict[int, List[tuple]] = {}
    for stage in job.stages:
        if stage.stage_id in job.source_splits:
            rows = [(-1, subtask, 0, seq, KIND_SPLIT, cloudpickle.dumps(split))
                    for seq, (subtask, split) in enumerate(job.source_splits[stage.stage_id])]
        else:
            rows = [r for up, edge in job.upstream_stages[stage.stage_id]
                    for r in outputs[up] if r[0] == edge]
        produced = []
        for subtask in range(stage.parallelism):
            mine = sorted((r for r in rows if r[1] == subtask), key=lambda r: (r[0], r[2], r[3]))
            task = StreamTask(cloudpickle.loads(cloudpickle.dumps(stage)), subtask,
                              work_dir=work_dir)
            task.open()
            task.process_rows([r[0] for r in mine], [r[2] for r in mine],
                              [r[4] for r in mine], [r[5] for r in mine])
            task.finish()
            task.close()
            produced.extend(task.take_rows())
        outputs[stage.stage_id] = produced
    results: Dict[int, List] = {}
    for stage in job.stages:
        for row in outputs[stage.stage_id]:
            if row[0] in job.driver_sinks:
                _, node_id, _ = job.driver_sinks[row[0]]
                results.setdefault(node_id, []).extend(pickle.loads(row[5])[0])
    return results
