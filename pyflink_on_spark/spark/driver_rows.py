"""Reading the sink rows of a run's stage frames back to the driver, in bounded slices."""
from __future__ import annotations

import functools
import itertools
from typing import Iterator, Tuple

from pyflink_on_spark.specs.stage import CompiledJob


def driver_rows(job: CompiledJob, frames) -> Iterator[Tuple[int, bytes]]:
    """(edge, payload) of every sink row in the stages' output frames (what a run without
    the driver channel delivers: Spark Connect, an unbounded job's micro-batch), read in
    bounded slices."""
    from pyspark.sql import functions as F
    parts = []
    for stage in job.stages:
        edges = [s.edge_id for s in stage.sinks]
        if edges:
            parts.append(frames[stage.spec.stage_id].where(F.col("edge").isin(edges))
                         .select("edge", "payload"))
    if not parts:
        return iter(())
    final = functools.reduce(lambda a, b: a.union(b), parts)
    return sliced_rows(final, DRIVER_SLICE_ROWS)


# boundary rows (each up to runtime/exits CHUNK_RECORDS records) the driver receives at once
DRIVER_SLICE_ROWS = 256


def sliced_rows(frame, slice_rows: int) -> Iterator[Tuple[int, bytes]]:
    """(edge, payload) of every row, partition by partition in order, at most `slice_rows`
    rows in the driver at a time, whatever the size of the job's output: the frame is
    computed once, all partitions in parallel, onto the executors' disks, then read in
    slices. (toLocalIterator brings a whole partition to the driver at once: a 10M-record
    print at parallelism 2 ran out of driver memory and hung.)"""
    from pyspark import StorageLevel
    from pyflink_on_spark.spark.frame_run import count_rows
    from pyflink_on_spark.spark.session import is_connect
    if is_connect(frame.sparkSession):
        # no RDDs on Spark Connect: the server streams the result as Arrow batches, in
        # partition order, computing the frame once
        for row in frame.toLocalIterator():
            yield row[0], row[1]
        return
    frame = frame.persist(StorageLevel.DISK_ONLY)
    try:
        total = count_rows(frame)
        if total == 0:
            return   # nothing to read: no read job (most micro-batches of a quiet stream)
        if total <= slice_rows:
            # the whole output is one slice: one read job over every partition (their
            # rows in partition order) instead of one job per partition; each Spark job
            # is a fixed cost of every micro-batch (benchmarks/RESULTS.md, "Streaming").
            # collect() reads in the JVM: no Python RDD, whose tasks would need a Python
            # worker pool of their own beside the stages' mapInArrow workers
            for row in frame.collect():
                yield row[0], row[1]
            return
        rdd = frame.rdd
        context = rdd.context
        for partition in range(rdd.getNumPartitions()):
            start = 0
            while True:
                rows = context.runJob(rdd, _slice(start, slice_rows), [partition])
                for row in rows:
                    yield row[0], row[1]
                if len(rows) < slice_rows:
                    break
                start += slice_rows
    finally:
        frame.unpersist()


def _slice(start: int, size: int):
    def rows(iterator):
        return itertools.islice(iterator, start, start + size)
    return rows
