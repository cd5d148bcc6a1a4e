"""Checkpoint cost of the streaming engine (issue 11, benchmark 3), engine level (no Spark).

A keyed ValueState operator holds KEYS keys; each micro-batch updates CHANGED of them. Prints,
per backend, the time of a micro-batch's processing and of its snapshot (restore is free:
the live task is kept between batches), and the bytes each snapshot writes.

    python benchmarks/streaming_checkpoint.py [--keys 1000000] [--changed 10000] [--batches 4]
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keys", type=int, default=1_000_000)
    parser.add_argument("--changed", type=int, default=10_000)
    parser.add_argument("--batches", type=int, default=4)
    parser.add_argument("--backend", choices=["hashmap", "rocksdb", "both"], default="both")
    args = parser.parse_args()
    from pyflink_on_spark.datastream.functions import KeyedProcessFunction
    from pyflink_on_spark.datastream.state import ValueStateDescriptor
    from pyflink_on_spark.runtime.checkpoint.micro_batch import MicroBatchTask
    from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore
    from pyflink_on_spark.runtime.boundary import KIND_RECORDS
    from pyflink_on_spark.specs.operators import KeyedProcessSpec
    from pyflink_on_spark.specs.stage import InputSpec, JobConfig, OperatorSpec, StageSpec
    import pickle

    class Count(KeyedProcessFunction):
        def open(self, ctx):
            self.count = ctx.get_state(ValueStateDescriptor("count", None))

        def process_element(self, value, ctx):
            self.count.update((self.count.value() or 0) + 1)

    class First:
        @staticmethod
        def get_key(value):
            return value

    backends = ["hashmap", "rocksdb"] if args.backend == "both" else [args.backend]
    for backend in backends:
        root = tempfile.mkdtemp(prefix="ckpt-bench-")
        work = tempfile.mkdtemp(prefix="ckpt-bench-work-")
        spec = StageSpec(
            stage_id=1, parallelism=1, head=1,
            operators=(OperatorSpec(1, "count", KeyedProcessSpec(Count(), First()), 1, 128),),
            links=(), exits=(), inputs=(InputSpec(edge_id=7, input_index=1,
                                                  upstream_parallelism=1),),
            task_name="count", config=JobConfig(state_backend=backend))
        task = MicroBatchTask(spec, 0, SnapshotStore(root), work_dir=work)
        task.restore(None, {})

        def batch(keys):
            payloads = [pickle.dumps((keys[i:i + 4096], None)) for i in range(0, len(keys), 4096)]
            n = len(payloads)
            start = time.perf_counter()
            task.begin_batch()
            task.process_rows([7] * n, [0] * n, [KIND_RECORDS] * n, payloads)
            task.end_batch()
            processed = time.perf_counter()
            written = task.snapshot(version)
            done = time.perf_counter()
            return processed - start, done - processed, written

        version = 0
        p, s, w = batch(["k%d" % i for i in range(args.keys)])
        print("%-8s batch 0 (all %d keys): process %.2f s, snapshot %.2f s, %.1f MB written"
              % (backend, args.keys, p, s, w / 1e6))
        for version in range(1, args.batches + 1):
            start = (version * 7919) % max(1, args.keys - args.changed)
            p, s, w = batch(["k%d" % i for i in range(start, start + args.changed)])
            print("%-8s batch %d (%d keys change): process %.3f s, snapshot %.3f s "
                  "(%.0f%% of the batch), %.2f MB written"
                  % (backend, version, args.changed, p, s, 100 * s / (p + s), w / 1e6))
        task.close()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
