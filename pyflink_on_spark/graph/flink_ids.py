"""The ids PyFlink's execution plan shows: Flink numbers every Transformation from one
counter per JVM (Transformation.getNewNodeId), including the helper transformations PyFlink
adds around the program's own (the key_by map, the values map of a keyed print, the map
that turns pickled records into strings before a print...) and the ones made while the plan
is generated (Python operator chaining, forward partitions, sink writers). The shim counts
the same way, so get_execution_plan() shows the same ids; a program run through the CLI
starts from 1 as a fresh PyFlink process does."""
from __future__ import annotations

import itertools
from contextlib import contextmanager

_counter = itertools.count(1)


def next_flink_id() -> int:
    return next(_counter)


def reserve_flink_ids(count: int) -> tuple:
    """Ids of `count` helper transformations PyFlink creates at this point."""
    return tuple(next(_counter) for _ in range(count))


def reset_flink_ids() -> None:
    """A new program: ids start from 1 again (a fresh PyFlink process)."""
    global _counter
    _counter = itertools.count(1)
    _chains.clear()
    _wraps.clear()


_chains: dict = {}


@contextmanager
def ids_unchanged():
    """Within it, plans may be generated without taking ids: the counter and the memory of
    chained transformations and forward partitions are as before when it ends (the
    compiler reads PyFlink's graph to order a task's sinks; graph/flink_plan.flush_ranks)."""
    global _counter
    position = next(_counter)
    chains, wraps = dict(_chains), dict(_wraps)
    try:
        yield
    finally:
        _counter = itertools.count(position)
        _chains.clear()
        _chains.update(chains)
        _wraps.clear()
        _wraps.update(wraps)


def chain_id(up: int, down: int) -> int:
    """The id of the chained transformation of `up` and `down`: made once, as PyFlink keeps
    its chained transformations after the first plan or execution."""
    if (up, down) not in _chains:
        _chains[(up, down)] = next_flink_id()
    return _chains[(up, down)]


_wraps: dict = {}


def forward_wraps(edge: tuple, helper_id: int) -> tuple:
    """(forward partitions on `edge` next to helper map `helper_id`, how many this plan
    adds): PyFlink adds one at each plan or run until the map is chained into another
    operator (its chained transformation has another name)."""
    chained = any(helper_id in pair for pair in _chains)
    added = 0 if chained else 1
    _wraps[edge] = _wraps.get(edge, 0) + added
    return _wraps[edge], added
