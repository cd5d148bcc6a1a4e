"""Drive compiled stages with plain Python, no Spark: the test stand-in for the Spark layer.

Exchanges are emulated exactly as the Spark layer does them: rows grouped by destination
subtask and sorted by (edge, src, seq)."""
from __future__ import annotations

import pickle
from typing import Dict, List

import cloudpickle

from pyflink_on_spark.graph.compile import compile_job
from pyflink_on_spark.runtime.boundary import KIND_SPLIT
from pyflink_on_spark.specs.stage import CompiledJob, JobConfig
from pyflink_on_spark.runtime.task import StreamTask


def compile_sinks(sinks, parallelism: int = 1, mode: str = "STREAMING",
                  interval: int = 200) -> CompiledJob:
    return compile_job(sinks, default_parallelism=parallelism, default_max_par=-1,
                       chaining_enabled=True,
                       config=JobConfig(runtime_mode=mode, auto_watermark_interval=interval))


def run_job(job: CompiledJob, work_dir: str = None) -> Dict[int, List]:
    """Returns {driver sink node id: [values in driver order]}."""
    outputs: Dict[int, List[tuple]] = {}
    for compiled in job.stages:
        stage = compiled.spec
        if compiled.source is not None:
            rows = [(-1, subtask, 0, seq, KIND_SPLIT, cloudpickle.dumps(split))
                    for seq, (subtask, split) in enumerate(compiled.source.splits)]
        else:
            rows = [r for up in compiled.upstream
                    for r in outputs[up.stage_id] if r[0] == up.edge_id]
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
    for compiled in job.stages:
        node_of_edge = {s.edge_id: s.node_id for s in compiled.sinks}
        for row in outputs[compiled.spec.stage_id]:
            if row[0] in node_of_edge:
                results.setdefault(node_of_edge[row[0]], []).extend(pickle.loads(row[5])[0])
    return results
