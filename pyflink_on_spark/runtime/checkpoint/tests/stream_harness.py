"""Drive a compiled job micro-batch by micro-batch with plain Python (no Spark), as the
streaming executor does: every (stage, subtask) runs in every batch, restores from the
newest completed version before the batch and writes the batch's version."""
from __future__ import annotations

import uuid
from typing import Dict, List, Sequence, Tuple

import cloudpickle

from pyflink_on_spark.runtime.checkpoint.micro_batch import run_micro_batch, state_ids_of
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
from pyflink_on_spark.runtime.boundary import KIND_SPLIT, KIND_TICK, loads_records
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.stage import CompiledJob


def key_types_of(job: CompiledJob) -> Dict[int, object]:
    """node id of a keyed stage head -> the key type of its keyed input edge."""
    stage_of_edge = {}
    for stage in job.stages:
        for i in stage.spec.inputs:
            stage_of_edge[i.edge_id] = stage.spec
    found = {}
    for stage in job.stages:
        for exit_spec in stage.spec.exits:
            if isinstance(exit_spec.partitioning, KeyedPartitioning) \
                    and exit_spec.edge_id in stage_of_edge:
                found[stage_of_edge[exit_spec.edge_id].head] = exit_spec.partitioning.key_type
    return found


class StreamRunner:
    """One "driver process": a job token (its workers' live-task cache) and a store."""

    def __init__(self, job, store_root: str, tmp_path=None) -> None:
        self.job = job
        self.store = SnapshotStore(store_root)
        self.store_root = store_root
        self.token = uuid.uuid4().hex
        self.tmp_path = tmp_path

    def run_batch(self, batch_id: int, splits: Sequence[Tuple[int, list]],
                  fail_after_stage: int = None,
                  batch_time_ms: int = None, drain: bool = False) -> Dict[int, List]:
        """splits: [(source subtask, records)] read in this batch (by every source stage), or
        {source stage id: [(subtask, split)]}. Returns {driver sink node: values}. fail_after_stage: raise after that many stages ran (a crash mid-batch).
        batch_time_ms: the batch's processing time (default: the wall clock). drain: the
        batch ends with the end of event time (stop_with_savepoint(True, ...))."""
        job = self.job
        restore = self.store.latest_completed_before(batch_id)
        then = self.store.read_meta(restore) if restore is not None else {}
        key_types = key_types_of(job)
        state_ids = state_ids_of(op for s in job.stages for op in s.spec.operators)
        outputs: Dict[int, List[tuple]] = {}
        for n, compiled in enumerate(job.stages):
            stage = compiled.spec
            if fail_after_stage is not None and n >= fail_after_stage:
                raise RuntimeError("crash")
            if compiled.source is not None:
                mine = splits.get(stage.stage_id, ()) if isinstance(splits, dict) else splits
                assert all(sub < stage.parallelism for sub, _ in mine), "no such subtask"
                rows = [(-1, sub, 0, seq, KIND_SPLIT, cloudpickle.dumps(records))
                        for seq, (sub, records) in enumerate(mine)]
                rows += [(-1, sub, 2 ** 31 - 1, 0, KIND_TICK, b"")
                         for sub in range(stage.parallelism)]
            else:
                rows = [r for up in compiled.upstream
                        for r in outputs[up.stage_id] if r[0] == up.edge_id]
            produced = []
            for subtask in range(stage.parallelism):
                mine = sorted((r for r in rows if r[1] == subtask),
                              key=lambda r: (r[0], r[2], r[3]))
                if not mine:
                    # as on Spark: a subtask no row reaches does not run (every upstream
                    # subtask sends each downstream one its watermark, every batch)
                    continue
                batches = [([r[0] for r in mine], [r[2] for r in mine], [r[4] for r in mine],
                            [r[5] for r in mine])] if mine else []
                spec = cloudpickle.loads(cloudpickle.dumps(stage))
                for out in run_micro_batch(
                        spec, subtask, batches, store_root=self.store_root, version=batch_id,
                        restore_version=restore, parallelism_then=then, job_token=self.token,
                        key_types=key_types, state_ids=state_ids,
                        batch_time_ms=batch_time_ms, drain=drain):
                    produced.extend(out)
            outputs[stage.stage_id] = produced
        parallelism = {state_ids[op.node_id]: stage.spec.parallelism for stage in job.stages
                       for op in stage.spec.operators}
        self.store.write_meta(batch_id, parallelism)
        self.store.complete(batch_id)
        results: Dict[int, List] = {}
        for stage in job.stages:
            node_of_edge = {s.edge_id: s.node_id for s in stage.sinks}
            for row in outputs[stage.spec.stage_id]:
                if row[0] in node_of_edge:
                    results.setdefault(node_of_edge[row[0]], []).extend(
                        loads_records(row[5])[0])
        return results
