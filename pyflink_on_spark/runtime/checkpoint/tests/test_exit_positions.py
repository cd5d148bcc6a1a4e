"""An exit saves and restores its channel selector's position itself (runtime/exits/chunked.py
ExitCollector.export_position / restore_position): a re-run batch routes records as the
first run did; checkpoints written before kept the selector closure's cells, and restore."""
import pickle
import random

import pytest

from pyflink_on_spark.runtime.exits import exit_collector
from pyflink_on_spark.specs.partitioning import (
    ForwardPartitioning, RebalancePartitioning, RescalePartitioning, ShufflePartitioning)
from pyflink_on_spark.specs.stage import ExitSpec

_PARTITIONINGS = {"forward": ForwardPartitioning, "rebalance": RebalancePartitioning,
                  "rescale": RescalePartitioning, "shuffle": ShufflePartitioning}


def _exit(kind, subtask=1, upstream=2, downstream=5):
    rows = []
    spec = ExitSpec(0, 0, None, _PARTITIONINGS[kind](), downstream, 128)
    return exit_collector(spec, subtask, upstream, rows, lambda e: e), rows


def _route(collector, rows, count):
    """The destinations of `count` records, in order."""
    dests = []
    for value in range(count):
        collector.process_element(value, None)
        collector.flush()
        dests.extend(row[1] for row in rows)
        del rows[:]
    return dests


@pytest.mark.parametrize("kind", ["rebalance", "rescale", "shuffle", "forward"])
def test_a_restored_exit_routes_on_where_the_first_one_was(kind):
    first, rows = _exit(kind)
    _route(first, rows, 3)
    state = pickle.loads(pickle.dumps(first.export_position()))
    restored, restored_rows = _exit(kind)
    restored.restore_position(state)
    assert _route(restored, restored_rows, 7) == _route(first, rows, 7)


def test_an_exit_without_a_position_exports_nothing():
    assert _exit("forward")[0].export_position() == {}


@pytest.mark.parametrize("kind, legacy, expected", [
    # [(closure cell, value)] as checkpoints kept them before export_position
    ("rebalance", [(1, [2])], [2, 3, 4, 0]),
    ("rescale", [(0, [0]), (1, [4, 3])], [3, 4, 3, 4]),     # upstream 1 of 2 feeds 4, 3
    ("forward", [], [1, 1, 1, 1]),
])
def test_positions_in_the_format_before_restore(kind, legacy, expected):
    collector, rows = _exit(kind)
    collector.restore_position(legacy)
    assert _route(collector, rows, 4) == expected


def test_a_shuffle_position_in_the_format_before_restores():
    collector, rows = _exit("shuffle")
    collector.restore_position([(1, random.Random(7).getstate())])
    rng = random.Random(7)
    assert _route(collector, rows, 6) == [rng.randrange(5) for _ in range(6)]
