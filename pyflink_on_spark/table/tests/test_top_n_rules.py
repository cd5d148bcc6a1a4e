"""ROW_NUMBER() in STREAMING mode (table/top_n_rules.py): the per-key rules replayed without
Spark against the changelogs PyFlink 1.20.5 printed for the same rows (from_collection at
parallelism 1, execute().collect(), row kinds in arrival order; the rows of
compat_tests/cases/table/top_n_streaming.py and deduplicate_streaming.py)."""
import pickle

import pytest

from pyflink_on_spark.common.time import Instant
from pyflink_on_spark.table.top_n_rules import (FIRST_ROW, LAST_ROW, TOP_1, TOP_N, TopNRules,
                                                sort_comparator)

# (k, v, n)
ROWS = [('a', 3, 1), ('a', 7, 2), ('b', 5, 3), ('a', 5, 4), ('a', 7, 5), ('b', 2, 6),
        ('a', 9, 7), ('a', 1, 8), ('b', 8, 9), ('a', 5, 10)]
NULLS = [('a', 3, 1), ('a', None, 2), ('b', 5, 3), ('a', 5, 4), ('a', 7, 5), ('b', None, 6),
         ('a', 9, 7), ('a', 1, 8), ('b', 8, 9), ('a', 5, 10)]
V_DESC, V_ASC = [(1, True, False)], [(1, False, True)]


def replay(rules, rows=ROWS, columns=(0, 1, 2)):
    """The printed changes: 'kind (selected values..., rank)'."""
    states, out = {}, []
    for row in rows:
        for kind, changed, rank in rules.on_row(states.setdefault(row[0], rules.new_state()),
                                                row):
            out.append("%s %s" % (kind, tuple(changed[i] for i in columns) +
                                  (() if rank is None else (rank,))))
    return out, states


def test_top_2_with_the_rank_number_updates_each_rank_that_moves():
    out, _ = replay(TopNRules(V_DESC, 1, 2, True), columns=(0, 1))
    assert out == [
        "+I ('a', 3, 1)", "-U ('a', 3, 1)", "+U ('a', 7, 1)", "+I ('a', 3, 2)", "+I ('b', 5, 1)",
        "-U ('a', 3, 2)", "+U ('a', 5, 2)", "-U ('a', 5, 2)", "+U ('a', 7, 2)", "+I ('b', 2, 2)",
        "-U ('a', 7, 1)", "+U ('a', 9, 1)", "-U ('a', 7, 2)", "+U ('a', 7, 2)",
        "-U ('b', 5, 1)", "+U ('b', 8, 1)", "-U ('b', 2, 2)", "+U ('b', 5, 2)"]


def test_top_2_without_the_rank_number_deletes_the_row_that_falls_out():
    out, _ = replay(TopNRules(V_DESC, 1, 2, False))
    assert out == [
        "+I ('a', 3, 1)", "+I ('a', 7, 2)", "+I ('b', 5, 3)", "-D ('a', 3, 1)",
        "+I ('a', 5, 4)", "-D ('a', 5, 4)", "+I ('a', 7, 5)", "+I ('b', 2, 6)",
        "-D ('a', 7, 5)", "+I ('a', 9, 7)", "-D ('b', 2, 6)", "+I ('b', 8, 9)"]


def test_ties_rank_in_arrival_order_over_two_sort_columns():
    out, _ = replay(TopNRules([(1, True, False), (2, False, True)], 1, 3, True))
    assert out[:13] == [
        "+I ('a', 3, 1, 1)", "-U ('a', 3, 1, 1)", "+U ('a', 7, 2, 1)", "+I ('a', 3, 1, 2)",
        "+I ('b', 5, 3, 1)", "-U ('a', 3, 1, 2)", "+U ('a', 5, 4, 2)", "+I ('a', 3, 1, 3)",
        "-U ('a', 5, 4, 2)", "+U ('a', 7, 5, 2)", "-U ('a', 3, 1, 3)", "+U ('a', 5, 4, 3)",
        "+I ('b', 2, 6, 2)"]
    assert out[-5:] == ["-U ('b', 5, 3, 1)", "+U ('b', 8, 9, 1)", "-U ('b', 2, 6, 2)",
                        "+U ('b', 5, 3, 2)", "+I ('b', 2, 6, 3)"]


def test_ranks_from_2_to_3_emit_only_those_ranks():
    out, _ = replay(TopNRules(V_DESC, 2, 3, True), columns=(0, 1))
    assert out == [
        "+I ('a', 3, 2)", "-U ('a', 3, 2)", "+U ('a', 5, 2)", "+I ('a', 3, 3)",
        "-U ('a', 5, 2)", "+U ('a', 7, 2)", "-U ('a', 3, 3)", "+U ('a', 5, 3)",
        "+I ('b', 2, 2)", "-U ('a', 7, 2)", "+U ('a', 7, 2)", "-U ('a', 5, 3)",
        "+U ('a', 7, 3)", "-U ('b', 2, 2)", "+U ('b', 5, 2)", "+I ('b', 2, 3)"]


def test_an_offset_without_the_rank_number_still_updates_ranks():
    # rn = 2 unselected (Flink removes a constant rank number): -U / +U all the same
    out, _ = replay(TopNRules(V_DESC, 2, 2, False), NULLS)
    assert out == [
        "+I ('a', None, 2)", "-U ('a', None, 2)", "+U ('a', 3, 1)", "-U ('a', 3, 1)",
        "+U ('a', 5, 4)", "+I ('b', None, 6)", "-U ('a', 5, 4)", "+U ('a', 7, 5)",
        "-U ('b', None, 6)", "+U ('b', 5, 3)"]


def test_nulls_are_smallest_unless_nulls_first_says_otherwise():
    out, _ = replay(TopNRules(V_ASC, 1, 2, True), NULLS, columns=(0, 1))
    assert out == [
        "+I ('a', 3, 1)", "-U ('a', 3, 1)", "+U ('a', None, 1)", "+I ('a', 3, 2)",
        "+I ('b', 5, 1)", "-U ('b', 5, 1)", "+U ('b', None, 1)", "+I ('b', 5, 2)",
        "-U ('a', 3, 2)", "+U ('a', 1, 2)"]
    out, _ = replay(TopNRules([(1, True, True)], 1, 2, True), NULLS, columns=(2, 0))
    assert out[:6] == ["+I (1, 'a', 1)", "-U (1, 'a', 1)", "+U (2, 'a', 1)",
                       "+I (1, 'a', 2)", "+I (3, 'b', 1)", "-U (1, 'a', 2)"]
    compare = sort_comparator(V_DESC)
    assert compare(('a', None), ('a', 1)) == 1 and compare(('a', 2), ('a', 1)) == -1
    # a TIMESTAMP_LTZ's values (Instants) by their time
    assert compare(('a', Instant(2, 0)), ('a', Instant(1, 999))) == -1


def test_top_1_keeps_the_first_of_ties():
    out, _ = replay(TopNRules(V_DESC, 1, 1, False, TOP_1))
    assert out == [
        "+I ('a', 3, 1)", "-U ('a', 3, 1)", "+U ('a', 7, 2)", "+I ('b', 5, 3)",
        "-U ('a', 7, 2)", "+U ('a', 9, 7)", "-U ('b', 5, 3)", "+U ('b', 8, 9)"]


# (t millis, name, n): deduplicate_streaming.py's rows
TIMED = [(1000, 'a', 4), (1500, 'b', 3), (2000, 'a', 5), (900, 'a', 1), (2600, 'b', 9),
         (2600, 'b', 7), (4000, 'a', 2), (1200, 'b', 8), (7000, 'a', 6), (3000, 'a', 0)]


def dedup(strategy, rank_number=False):
    rules = TopNRules([(0, strategy == LAST_ROW, strategy != LAST_ROW)], 1, 1, rank_number,
                      strategy, rowtime=lambda row: row[0])
    states, out = {}, []
    for row in TIMED:
        for kind, changed, rank in rules.on_row(states.setdefault(row[1], []), row):
            out.append("%s %s" % (kind, (changed[1], changed[0], changed[2]) +
                                  (() if rank is None else (rank,))))
    return out


def test_first_row_deduplication_takes_an_earlier_rowtime_behind_the_watermark():
    assert dedup(FIRST_ROW) == [
        "+I ('a', 1000, 4)", "+I ('b', 1500, 3)", "-U ('a', 1000, 4)", "+U ('a', 900, 1)",
        "-U ('b', 1500, 3)", "+U ('b', 1200, 8)"]


def test_last_row_deduplication_replaces_on_an_equal_rowtime():
    assert dedup(LAST_ROW, True) == [
        "+I ('a', 1000, 4, 1)", "+I ('b', 1500, 3, 1)", "-U ('a', 1000, 4, 1)",
        "+U ('a', 2000, 5, 1)", "-U ('b', 1500, 3, 1)", "+U ('b', 2600, 9, 1)",
        "-U ('b', 2600, 9, 1)", "+U ('b', 2600, 7, 1)", "-U ('a', 2000, 5, 1)",
        "+U ('a', 4000, 2, 1)", "-U ('a', 4000, 2, 1)", "+U ('a', 7000, 6, 1)"]


@pytest.mark.parametrize("rank_number", [True, False])
def test_a_keys_buffer_survives_pickling_midway(rank_number):
    rules = TopNRules(V_DESC, 1, 3, rank_number, TOP_N)
    whole, _ = replay(rules)
    first, states = replay(rules, ROWS[:5])
    rules, states = pickle.loads(pickle.dumps((rules, states)))
    out = []
    for row in ROWS[5:]:
        for kind, changed, rank in rules.on_row(states.setdefault(row[0], []), row):
            out.append("%s %s" % (kind, changed + (() if rank is None else (rank,))))
    assert len(whole) >= 10 and first + out == whole
