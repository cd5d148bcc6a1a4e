"""The exchange contract's pieces, without Spark."""
import pickle

import cloudpickle
import pytest

from pyflink_on_spark.direct.exchange import route, source_split_rows, upstream_rows
from pyflink_on_spark.runtime.boundary import KIND_RECORDS, KIND_SPLIT, KIND_WATERMARK
from pyflink_on_spark.specs.stage import UpstreamEdge


def test_source_split_rows_number_the_splits_in_read_order():
    rows = source_split_rows([(1, "b"), (0, "a"), (1, "c")])
    assert [(r[0], r[1], r[2], r[3], r[4]) for r in rows] == [
        (-1, 1, 0, 0, KIND_SPLIT), (-1, 0, 0, 1, KIND_SPLIT), (-1, 1, 0, 2, KIND_SPLIT)]
    assert [cloudpickle.loads(r[5]) for r in rows] == ["b", "a", "c"]


def test_upstream_rows_take_only_the_edges_feeding_the_stage():
    outputs = {1: [(7, 0, 0, 0, KIND_RECORDS, b"x"), (8, 0, 0, 0, KIND_RECORDS, b"y")],
               2: [(9, 1, 0, 0, KIND_WATERMARK, b"w")]}
    rows = upstream_rows([UpstreamEdge(1, 7), UpstreamEdge(2, 9)], outputs)
    assert [r[0] for r in rows] == [7, 9]


def test_route_by_dest_and_order_by_edge_src_seq():
    rows = [(5, 1, 1, 0, KIND_RECORDS, b"e5 s1 0"), (4, 1, 0, 1, KIND_RECORDS, b"e4 s0 1"),
            (4, 0, 0, 0, KIND_RECORDS, b"to 0"), (4, 1, 0, 0, KIND_RECORDS, b"e4 s0 0"),
            (4, 1, 1, 0, KIND_WATERMARK, pickle.dumps(3))]
    zero, one = route(rows, 2)
    assert [r[5] for r in zero] == [b"to 0"]
    assert [(r[0], r[2], r[3]) for r in one] == [(4, 0, 0), (4, 0, 1), (4, 1, 0), (5, 1, 0)]


def test_a_row_for_a_subtask_the_stage_does_not_have_is_an_error():
    with pytest.raises(ValueError, match="subtask 2 of a stage with parallelism 2"):
        route([(3, 2, 0, 0, KIND_RECORDS, b"")], 2)
