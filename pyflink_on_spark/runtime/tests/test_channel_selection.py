"""Flink's channel selection for the partitioners behind rebalance / rescale / shuffle /
broadcast / forward / partition_custom (runtime/exits/selectors.py)."""
import pytest

from pyflink_on_spark.datastream.functions import wrap_key_selector, wrap_partitioner
from pyflink_on_spark.runtime.exits import channel_selector, rescale_targets
from pyflink_on_spark.specs.partitioning import (
    CustomPartitioning, ForwardPartitioning, GlobalPartitioning, KeyedPartitioning,
    RebalancePartitioning, RescalePartitioning, ShufflePartitioning)
from pyflink_on_spark.specs.stage import ExitSpec

_PARTITIONINGS = {"forward": ForwardPartitioning, "rebalance": RebalancePartitioning,
                  "rescale": RescalePartitioning, "shuffle": ShufflePartitioning,
                  "custom": CustomPartitioning, "global": GlobalPartitioning}


def _spec(kind, n, **kw):
    return ExitSpec(0, 0, None, _PARTITIONINGS[kind](**kw), n, 128)


def _route(kind, subtask, upstream, n, values, **kw):
    select = channel_selector(_spec(kind, n, **kw), subtask, upstream)
    return [select(v) for v in values]


@pytest.mark.parametrize("upstream,downstream,expected", [
    # observed on PyFlink 1.20: (upstream subtask -> downstream subtasks in send order)
    (3, 2, [[0], [1], [1]]),
    (2, 3, [[0, 1], [2]]),
    (4, 3, [[0], [1], [2], [2]]),
    (2, 5, [[0, 1, 2], [4, 3]]),
    (2, 2, [[0], [1]]),
])
def test_rescale_wires_upstream_to_downstream_subtasks_as_flink_pointwise_edges(
        upstream, downstream, expected):
    assert [rescale_targets(s, upstream, downstream) for s in range(upstream)] == expected


def test_rescale_sends_round_robin_from_the_first_subpartition():
    assert _route("rescale", 1, 2, 5, range(5)) == [4, 3, 4, 3, 4]
    assert _route("rescale", 0, 2, 3, range(4)) == [0, 1, 0, 1]


def test_rebalance_is_round_robin_over_all_downstream_subtasks():
    assert _route("rebalance", 0, 1, 3, range(7)) == [0, 1, 2, 0, 1, 2, 0]
    assert _route("rebalance", 1, 2, 3, range(4)) == [1, 2, 0, 1]


def test_shuffle_is_seeded_by_the_subtask_and_covers_every_channel():
    first = _route("shuffle", 0, 1, 4, range(200))
    assert first == _route("shuffle", 0, 1, 4, range(200))
    assert set(first) == {0, 1, 2, 3}


def test_forward_keeps_the_subtask_and_custom_uses_the_partitioner():
    assert _route("forward", 2, 3, 3, range(3)) == [2, 2, 2]
    custom = dict(key_selector=wrap_key_selector(lambda v: v * 10),
                  partitioner=wrap_partitioner(lambda key, n: key // 10 % n))
    assert _route("custom", 0, 1, 3, range(5), **custom) == [0, 1, 2, 0, 1]


def test_custom_partitioner_out_of_range_is_an_error_naming_the_value():
    bad = dict(key_selector=wrap_key_selector(lambda v: v),
               partitioner=wrap_partitioner(lambda key, n: n))
    with pytest.raises(ValueError, match="returned 2"):
        _route("custom", 0, 1, 2, [1], **bad)


def test_global_sends_everything_to_the_first_subtask():
    assert _route("global", 2, 3, 4, range(5)) == [0, 0, 0, 0, 0]


@pytest.mark.parametrize("memo_limit", [2, 1 << 16])
def test_a_keyed_exit_routes_every_key_as_key_to_subtask_does(monkeypatch, memo_limit):
    # the exit looks str and int keys up itself; equal keys of other types (True == 1 ==
    # 1.0) are other keys and must not share their entries; a full memo starts over
    from pyflink_on_spark.runtime.boundary import loads_records
    from pyflink_on_spark.runtime.exits import ExitCollector, chunked
    from pyflink_on_spark.runtime.key_groups import KeyToSubtask
    monkeypatch.setattr(chunked, "DEST_MEMO_LIMIT", memo_limit)
    spec = ExitSpec(edge_id=1, source=0, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(lambda v: v[0])),
                    target_parallelism=7, target_max_parallelism=128)
    rows = []
    collector = ExitCollector(spec, 0, 1, rows, lambda e: e)
    keys = [1, True, 1.0, "1", b"1", None, 2, "b", False, 0, 2, "b", 1, True] * 3
    collector.process_many([(k, i) for i, k in enumerate(keys)], None)
    collector.flush()
    where = KeyToSubtask(128, 7)
    routed = {}
    for row in rows:
        values, _, carried = loads_records(row[5])
        assert [v[0] for v in values] == carried
        for value in values:
            routed[value[1]] = row[1]
    assert len(routed) == len(keys)
    assert all(routed[i] == where(k) for i, k in enumerate(keys))
    assert len({where(k) for k in keys}) > 1
