"""Flink's channel selection for an exit: record -> destination subtask.

One selector per partitioning (forward, global, rebalance, rescale, shuffle, keyed,
custom); broadcast exits do not select (chunked.py ExitCollector sends every chunk to every
destination). Where Flink is random (rebalance's start, shuffle), the shim is seeded by the
subtask index: deterministic. A selector's position (round-robin counter, Random) is part
of the stream's position in a checkpoint (ExitCollector.export_position).
"""
from __future__ import annotations

import random
from typing import Callable, List

from pyflink_on_spark.datastream.functions import per_record_callable
from pyflink_on_spark.runtime.key_groups import KeyToSubtask
from pyflink_on_spark.specs.partitioning import (
    CustomPartitioning, ForwardPartitioning, GlobalPartitioning, KeyedPartitioning,
    RebalancePartitioning, RescalePartitioning, ShufflePartitioning)
from pyflink_on_spark.specs.stage import ExitSpec


def channel_selector(spec: ExitSpec, subtask: int, parallelism: int) -> Callable:
    """value -> destination subtask, following Flink's partitioners. Where Flink is random
    (rebalance's start, shuffle), the shim is seeded by the subtask index: deterministic."""
    return positioned_selector(spec, subtask, parallelism)[0]


def positioned_selector(spec: ExitSpec, subtask: int, parallelism: int) -> tuple:
    """(channel_selector, its position): the mutable object the selector advances, a
    one-element list holding a round-robin counter (rebalance, rescale) or a Random
    (shuffle); None for a selector without one. The exit keeps the position: it is part
    of the stream's position in a checkpoint (a re-run batch routes records as the first
    run did)."""
    select = _SELECTORS.get(type(spec.partitioning))
    if select is None:
        raise ValueError("unknown partitioning %r" % (spec.partitioning,))
    return select(spec.partitioning, subtask, parallelism, spec)


def _forward(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    return (lambda value: subtask), None


def _global(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    return (lambda value: 0), None


def _rebalance(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    n = spec.target_parallelism
    state = [subtask % n]

    def rebalance(value):
        dest = state[0]
        state[0] = dest + 1 if dest + 1 < n else 0
        return dest
    return rebalance, state


def _rescale(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    targets = rescale_targets(subtask, parallelism, spec.target_parallelism)
    if len(targets) == 1:
        target = targets[0]
        return (lambda value: target), None
    width = len(targets)
    state = [-1]

    def rescale(value):
        # Flink's RescalePartitioner: round-robin over the subpartitions from the first
        channel = state[0] + 1 if state[0] + 1 < width else 0
        state[0] = channel
        return targets[channel]
    return rescale, state


def _shuffle(partitioning, subtask: int, parallelism: int, spec: ExitSpec) -> tuple:
    n = spec.target_parallelism
    rng = random.Random(subtask)
    return (lambda value: rng.randrange(n)), rng


def _keyed(partitioning: KeyedPartitioning, subtask: int, parallelism: int,
           spec: ExitSpec) -> tuple:
    get_key = per_record_callable(partitioning.key_selector, "get_key")
    to_subtask = KeyToSubtask(spec.target_max_parallelism, spec.target_parallelism,
                              partitioning.key_type)
    return (lambda value: to_subtask(get_key(value))), None


def _custom(partitioning: CustomPartitioning, subtask: int, parallelism: int,
            spec: ExitSpec) -> tuple:
    n = spec.target_parallelism
    get_key = per_record_callable(partitioning.key_selector, "get_key")
    partition = per_record_callable(partitioning.partitioner, "partition")

    def custom(value):
        dest = partition(get_key(value), n)
        if not isinstance(dest, int) or not 0 <= dest < n:
            raise ValueError("Partitioner returned %r; it must be an int in [0, %d)"
                             % (dest, n))
        return dest
    return custom, None


_SELECTORS = {
    ForwardPartitioning: _forward,
    GlobalPartitioning: _global,
    RebalancePartitioning: _rebalance,
    RescalePartitioning: _rescale,
    ShufflePartitioning: _shuffle,
    KeyedPartitioning: _keyed,
    CustomPartitioning: _custom,
}


def rescale_targets(subtask: int, parallelism: int, n: int) -> List[int]:
    """The downstream subtasks upstream `subtask` (of `parallelism`) feeds on a rescale edge,
    in subpartition order, as Flink 1.20 wires POINTWISE edges (EdgeManagerBuildUtil):
    with at least as many upstream subtasks, downstream t reads upstream
    [t*S//T, (t+1)*S//T); with fewer, upstream s feeds downstream [ceil(s*T/S),
    ceil((s+1)*T/S)) and subpartition c goes to the one of those with index % width == c
    (observed on PyFlink: 2 -> 5 sends upstream 1's records to 4, 3, 4, 3, ...)."""
    if parallelism >= n:
        return [max(t for t in range(n) if t * parallelism // n <= subtask)]
    first = (subtask * n + parallelism - 1) // parallelism
    last = ((subtask + 1) * n + parallelism - 1) // parallelism
    return sorted(range(first, last), key=lambda t: t % (last - first))


def legacy_position(cells: list) -> dict:
    """A selector position as checkpoints before ExitCollector.export_position kept it:
    [(closure cell, value)] of the selector function's mutable cells (a Random's state, a
    tuple; the round-robin counter in a one-element list, before rescale's target list)."""
    for _, value in sorted(cells, key=lambda cell: cell[0]):
        if isinstance(value, tuple):
            return {"random": value}
        if isinstance(value, list) and value:
            return {"round_robin": value[0]}
    return {}


def blame_selector(error: BaseException, partitioning, exc: BaseException) -> BaseException:
    """An error of the key selector (key_by, partition_custom) runs in the upstream task but
    is the key_by's: name it, not the operator before it."""
    from pyflink_on_spark.runtime.errors import UserFunctionError
    selector = getattr(partitioning, "key_selector", None)
    if selector is None or not isinstance(error, UserFunctionError) \
            or isinstance(exc, UserFunctionError):   # wrapped already: another's (a fold's)
        return error
    function = getattr(selector, "_func", selector)
    name = getattr(function, "__name__", type(function).__name__)
    return UserFunctionError("key_by(%s)" % name, error.subtask_index, exc)
