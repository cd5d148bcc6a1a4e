"""ROW_NUMBER() Top-N over an updating input (table/retract_top_n_rules.py): the rules replayed
without Spark over a grouping query's changelog against the changelogs PyFlink 1.20.5 printed
for the same rows (from_collection at parallelism 1, execute().collect(), row kinds in
arrival order): COUNT DESC (UpdatableTopNFunction, FastTop1Function for rank 1), COUNT ASC
and SUM (RetractableTopNFunction), with and without rn, ranks 1, 1 to 3 and 2 to 3, ties."""
import pickle

from pyflink_on_spark.table.retract_top_n_rules import (
    CONSTANT, DECREASING, FAST_TOP_1, INCREASING, NOT_MONOTONIC, RETRACTABLE, UPDATABLE,
    UpdatingTopNRules, monotonic_order)

# (k, item, n)
ROWS = [('a', 'x', 1), ('a', 'y', 2), ('a', 'x', 3), ('a', 'z', 4), ('a', 'w', 5),
        ('b', 'x', 6), ('a', 'y', 7), ('a', 'w', 8), ('a', 'w', 9), ('b', 'y', 10),
        ('a', 'z', 11), ('a', 'z', 12), ('a', 'y', 13), ('b', 'y', 14)]
NEGATIVES = [('a', 'x', 5), ('a', 'y', 3), ('a', 'z', 4), ('a', 'x', -4), ('a', 'w', 2),
             ('a', 'y', -5), ('a', 'z', 1), ('a', 'w', -3), ('a', 'x', 6), ('a', 'v', 0),
             ('a', 'z', -10), ('a', 'y', 9)]
CNT_DESC, CNT_ASC = [(2, True, False)], [(2, False, True)]


def grouped(rows, aggregate):
    """Flink's GroupAggFunction changelog of `SELECT k, item, COUNT(*) | SUM(n) AS cnt FROM v
    GROUP BY k, item`: a group's first row +I, a changed value -U / +U, an unchanged one
    nothing."""
    values, out = {}, []
    for k, item, n in rows:
        value = 1 if aggregate == "count" else n
        if (k, item) not in values:
            values[k, item] = value
            out.append(("+I", (k, item, value)))
        elif value != 0:
            old = values[k, item]
            values[k, item] = old + value
            out += [("-U", (k, item, old)), ("+U", (k, item, old + value))]
    return out


def replay(rules, rows=ROWS, aggregate="count", columns=(0, 1, 2), constant_rank=None):
    """The printed changes: 'kind (selected values..., rank)'."""
    states, out = {}, []
    for kind, row in grouped(rows, aggregate):
        state = states.setdefault(row[0], rules.new_state())
        for changed_kind, changed, rank in rules.on_change(state, kind, row):
            rank = constant_rank if rank is None else rank
            values = tuple(changed[i] for i in columns) + (() if rank is None else (rank,))
            out.append("%s %r" % (changed_kind, values))
    return out


# seen: SELECT * FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY cnt
#   DESC) AS rn FROM (SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item)) WHERE rn <= 3
COUNT_DESC_TOP_3 = [
    "+I ('a', 'x', 1, 1)", "+I ('a', 'y', 1, 2)", "-U ('a', 'x', 1, 1)", "+U ('a', 'x', 2, 1)",
    "+I ('a', 'z', 1, 3)", "+I ('b', 'x', 1, 1)", "-U ('a', 'y', 1, 2)", "+U ('a', 'y', 2, 2)",
    "-U ('a', 'z', 1, 3)", "+U ('a', 'w', 2, 3)", "-U ('a', 'x', 2, 1)", "-U ('a', 'w', 2, 3)",
    "+U ('a', 'w', 3, 1)", "-U ('a', 'y', 2, 2)", "+U ('a', 'x', 2, 2)", "+U ('a', 'y', 2, 3)",
    "+I ('b', 'y', 1, 2)", "-U ('a', 'x', 2, 2)", "+U ('a', 'z', 3, 2)", "-U ('a', 'y', 2, 3)",
    "+U ('a', 'x', 2, 3)", "-U ('a', 'x', 2, 3)", "+U ('a', 'y', 3, 3)", "-U ('b', 'x', 1, 1)",
    "-U ('b', 'y', 1, 2)", "+U ('b', 'y', 2, 1)", "+U ('b', 'x', 1, 2)"]

# seen: SELECT k, item, cnt FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER
#   BY cnt DESC) AS rn FROM (SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item)) WHERE
#   rn <= 3
COUNT_DESC_TOP_3_NO_RN = [
    "+I ('a', 'x', 1)", "+I ('a', 'y', 1)", "-U ('a', 'x', 1)", "+U ('a', 'x', 2)",
    "+I ('a', 'z', 1)", "+I ('b', 'x', 1)", "-U ('a', 'y', 1)", "+U ('a', 'y', 2)",
    "-D ('a', 'z', 1)", "+I ('a', 'w', 2)", "-U ('a', 'w', 2)", "+U ('a', 'w', 3)",
    "+I ('b', 'y', 1)", "-D ('a', 'y', 2)", "+I ('a', 'z', 3)", "-D ('a', 'x', 2)",
    "+I ('a', 'y', 3)", "-U ('b', 'y', 1)", "+U ('b', 'y', 2)"]

# seen: SELECT k, item FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY
#   cnt DESC) AS rn FROM (SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item)) WHERE rn =
#   1
COUNT_DESC_TOP_1_NO_RN = [
    "+I ('a', 'x')", "-U ('a', 'x')", "+U ('a', 'x')", "+I ('b', 'x')", "-U ('a', 'x')",
    "+U ('a', 'w')", "-U ('b', 'x')", "+U ('b', 'y')"]

# seen: SELECT * FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY cnt
#   DESC) AS rn FROM (SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item)) WHERE rn
#   BETWEEN 2 AND 3
COUNT_DESC_2_TO_3 = [
    "+I ('a', 'y', 1, 2)", "+I ('a', 'z', 1, 3)", "-U ('a', 'y', 1, 2)", "+U ('a', 'y', 2, 2)",
    "-U ('a', 'z', 1, 3)", "+U ('a', 'w', 2, 3)", "-U ('a', 'w', 2, 3)", "-U ('a', 'y', 2, 2)",
    "+U ('a', 'x', 2, 2)", "+U ('a', 'y', 2, 3)", "+I ('b', 'y', 1, 2)", "-U ('a', 'x', 2, 2)",
    "+U ('a', 'z', 3, 2)", "-U ('a', 'y', 2, 3)", "+U ('a', 'x', 2, 3)", "-U ('a', 'x', 2, 3)",
    "+U ('a', 'y', 3, 3)", "-U ('b', 'y', 1, 2)", "+U ('b', 'x', 1, 2)"]

# seen: SELECT * FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY cnt
#   ASC) AS rn FROM (SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item)) WHERE rn <= 3
COUNT_ASC_TOP_3 = [
    "+I ('a', 'x', 1, 1)", "+I ('a', 'y', 1, 2)", "-U ('a', 'x', 1, 1)", "+U ('a', 'y', 1, 1)",
    "-D ('a', 'y', 1, 2)", "+I ('a', 'x', 2, 2)", "-U ('a', 'x', 2, 2)", "+U ('a', 'z', 1, 2)",
    "+I ('a', 'x', 2, 3)", "-U ('a', 'x', 2, 3)", "+U ('a', 'w', 1, 3)", "+I ('b', 'x', 1, 1)",
    "-U ('a', 'y', 1, 1)", "+U ('a', 'z', 1, 1)", "-U ('a', 'z', 1, 2)", "+U ('a', 'w', 1, 2)",
    "-U ('a', 'w', 1, 3)", "+U ('a', 'x', 2, 3)", "-U ('a', 'w', 1, 2)", "+U ('a', 'x', 2, 2)",
    "-U ('a', 'x', 2, 3)", "+U ('a', 'y', 2, 3)", "+I ('b', 'y', 1, 2)", "-U ('a', 'z', 1, 1)",
    "+U ('a', 'x', 2, 1)", "-U ('a', 'x', 2, 2)", "+U ('a', 'y', 2, 2)", "-U ('a', 'y', 2, 3)",
    "+U ('a', 'w', 3, 3)", "-U ('a', 'w', 3, 3)", "+U ('a', 'z', 2, 3)", "-U ('a', 'z', 2, 3)",
    "+U ('a', 'w', 3, 3)", "-U ('a', 'y', 2, 2)", "+U ('a', 'w', 3, 2)", "-U ('a', 'w', 3, 3)",
    "+U ('a', 'z', 3, 3)", "-D ('b', 'y', 1, 2)", "+I ('b', 'y', 2, 2)"]

# seen: SELECT k, item, cnt FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER
#   BY cnt ASC) AS rn FROM (SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item)) WHERE rn
#   <= 3
COUNT_ASC_TOP_3_NO_RN = [
    "+I ('a', 'x', 1)", "+I ('a', 'y', 1)", "-D ('a', 'x', 1)", "+I ('a', 'x', 2)",
    "+I ('a', 'z', 1)", "-D ('a', 'x', 2)", "+I ('a', 'w', 1)", "+I ('b', 'x', 1)",
    "-D ('a', 'y', 1)", "+I ('a', 'x', 2)", "-D ('a', 'w', 1)", "+I ('a', 'y', 2)",
    "+I ('b', 'y', 1)", "-D ('a', 'z', 1)", "+I ('a', 'w', 3)", "-D ('a', 'w', 3)",
    "+I ('a', 'z', 2)", "-D ('a', 'z', 2)", "+I ('a', 'w', 3)", "-D ('a', 'y', 2)",
    "+I ('a', 'z', 3)", "-D ('b', 'y', 1)", "+I ('b', 'y', 2)"]

# seen: SELECT k, item FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY
#   cnt ASC) AS rn FROM (SELECT k, item, COUNT(*) AS cnt FROM v GROUP BY k, item)) WHERE rn =
#   1
COUNT_ASC_TOP_1_NO_RN = [
    "+I ('a', 'x')", "-D ('a', 'x')", "+I ('a', 'y')", "+I ('b', 'x')", "-D ('a', 'y')",
    "+I ('a', 'z')", "-D ('a', 'z')", "+I ('a', 'x')"]

# seen: SELECT * FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY cnt
#   DESC) AS rn FROM (SELECT k, item, SUM(n) AS cnt FROM v GROUP BY k, item)) WHERE rn <= 3
SUM_NEGATIVES_DESC_TOP_3 = [
    "+I ('a', 'x', 5, 1)", "+I ('a', 'y', 3, 2)", "-U ('a', 'y', 3, 2)", "+U ('a', 'z', 4, 2)",
    "+I ('a', 'y', 3, 3)", "-U ('a', 'x', 5, 1)", "+U ('a', 'z', 4, 1)", "-U ('a', 'z', 4, 2)",
    "+U ('a', 'y', 3, 2)", "-D ('a', 'y', 3, 3)", "+I ('a', 'x', 1, 3)", "-U ('a', 'x', 1, 3)",
    "+U ('a', 'w', 2, 3)", "-U ('a', 'y', 3, 2)", "+U ('a', 'w', 2, 2)", "-U ('a', 'w', 2, 3)",
    "+U ('a', 'x', 1, 3)", "-U ('a', 'z', 4, 1)", "+U ('a', 'w', 2, 1)", "-U ('a', 'w', 2, 2)",
    "+U ('a', 'x', 1, 2)", "-U ('a', 'x', 1, 3)", "+U ('a', 'y', -2, 3)",
    "-U ('a', 'w', 2, 1)", "+U ('a', 'z', 5, 1)", "-U ('a', 'x', 1, 2)", "+U ('a', 'w', 2, 2)",
    "-U ('a', 'y', -2, 3)", "+U ('a', 'x', 1, 3)", "-U ('a', 'w', 2, 2)",
    "+U ('a', 'x', 1, 2)", "-U ('a', 'x', 1, 3)", "+U ('a', 'y', -2, 3)",
    "-U ('a', 'y', -2, 3)", "+U ('a', 'w', -1, 3)", "-U ('a', 'x', 1, 2)",
    "+U ('a', 'w', -1, 2)", "-U ('a', 'w', -1, 3)", "+U ('a', 'y', -2, 3)",
    "-U ('a', 'z', 5, 1)", "+U ('a', 'x', 7, 1)", "-U ('a', 'w', -1, 2)",
    "+U ('a', 'z', 5, 2)", "-U ('a', 'y', -2, 3)", "+U ('a', 'w', -1, 3)",
    "-U ('a', 'w', -1, 3)", "+U ('a', 'v', 0, 3)", "-U ('a', 'z', 5, 2)",
    "+U ('a', 'v', 0, 2)", "-U ('a', 'v', 0, 3)", "+U ('a', 'w', -1, 3)",
    "-U ('a', 'v', 0, 2)", "+U ('a', 'y', 7, 2)", "-U ('a', 'w', -1, 3)",
    "+U ('a', 'v', 0, 3)"]

# seen: SELECT k, item, cnt FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER
#   BY cnt ASC) AS rn FROM (SELECT k, item, SUM(n) AS cnt FROM v GROUP BY k, item)) WHERE rn
#   <= 3
SUM_NEGATIVES_ASC_TOP_3_NO_RN = [
    "+I ('a', 'x', 5)", "+I ('a', 'y', 3)", "+I ('a', 'z', 4)", "-D ('a', 'x', 5)",
    "+I ('a', 'x', 1)", "-D ('a', 'z', 4)", "+I ('a', 'w', 2)", "-D ('a', 'y', 3)",
    "+I ('a', 'z', 4)", "-D ('a', 'z', 4)", "+I ('a', 'y', -2)", "-D ('a', 'w', 2)",
    "+I ('a', 'z', 5)", "-D ('a', 'z', 5)", "+I ('a', 'w', -1)", "-D ('a', 'x', 1)",
    "+I ('a', 'z', 5)", "-D ('a', 'z', 5)", "+I ('a', 'v', 0)", "-D ('a', 'v', 0)",
    "+I ('a', 'z', -5)", "-D ('a', 'y', -2)", "+I ('a', 'v', 0)"]

# seen: SELECT * FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY cnt
#   ASC) AS rn FROM (SELECT k, item, SUM(n) AS cnt FROM v GROUP BY k, item)) WHERE rn BETWEEN
#   2 AND 3
SUM_NEGATIVES_ASC_2_TO_3 = [
    "+I ('a', 'x', 5, 2)", "-U ('a', 'x', 5, 2)", "+U ('a', 'z', 4, 2)", "+I ('a', 'x', 5, 3)",
    "-D ('a', 'x', 5, 3)", "-U ('a', 'z', 4, 2)", "+U ('a', 'y', 3, 2)", "+I ('a', 'z', 4, 3)",
    "-U ('a', 'y', 3, 2)", "+U ('a', 'w', 2, 2)", "-U ('a', 'z', 4, 3)", "+U ('a', 'y', 3, 3)",
    "-U ('a', 'y', 3, 3)", "+U ('a', 'z', 4, 3)", "-U ('a', 'w', 2, 2)", "+U ('a', 'x', 1, 2)",
    "-U ('a', 'z', 4, 3)", "+U ('a', 'w', 2, 3)", "-U ('a', 'w', 2, 3)", "+U ('a', 'z', 5, 3)",
    "-U ('a', 'x', 1, 2)", "+U ('a', 'w', -1, 2)", "-U ('a', 'z', 5, 3)",
    "+U ('a', 'x', 1, 3)", "-U ('a', 'x', 1, 3)", "+U ('a', 'z', 5, 3)", "-U ('a', 'z', 5, 3)",
    "+U ('a', 'v', 0, 3)", "-U ('a', 'w', -1, 2)", "+U ('a', 'y', -2, 2)",
    "-U ('a', 'v', 0, 3)", "+U ('a', 'w', -1, 3)", "-U ('a', 'y', -2, 2)",
    "+U ('a', 'w', -1, 2)", "-U ('a', 'w', -1, 3)", "+U ('a', 'v', 0, 3)"]

# seen: SELECT * FROM (SELECT k, item, cnt, ROW_NUMBER() OVER (PARTITION BY k ORDER BY cnt
#   DESC) AS rn FROM (SELECT k, item, SUM(n) AS cnt FROM v GROUP BY k, item)) WHERE rn <= 1
SUM_DESC_TOP_1 = [
    "+I ('a', 'x', 1, 1)", "-D ('a', 'x', 1, 1)", "+I ('a', 'y', 2, 1)", "-D ('a', 'y', 2, 1)",
    "+I ('a', 'x', 4, 1)", "-D ('a', 'x', 4, 1)", "+I ('a', 'w', 5, 1)", "+I ('b', 'x', 6, 1)",
    "-D ('a', 'w', 5, 1)", "+I ('a', 'y', 9, 1)", "-D ('a', 'y', 9, 1)",
    "+I ('a', 'w', 13, 1)", "-D ('a', 'w', 13, 1)", "+I ('a', 'y', 9, 1)",
    "-D ('a', 'y', 9, 1)", "+I ('a', 'w', 22, 1)", "-D ('b', 'x', 6, 1)",
    "+I ('b', 'y', 10, 1)", "-D ('a', 'w', 22, 1)", "+I ('a', 'z', 27, 1)",
    "-D ('b', 'y', 10, 1)", "+I ('b', 'x', 6, 1)", "-D ('b', 'x', 6, 1)",
    "+I ('b', 'y', 24, 1)"]


def test_count_desc_top_3_moves_rows_up_as_updatable_top_n():
    rules = UpdatingTopNRules(CNT_DESC, 1, 3, True, UPDATABLE, (0, 1))
    assert replay(rules) == COUNT_DESC_TOP_3


def test_count_desc_top_3_without_rn_deletes_the_row_that_falls_out():
    rules = UpdatingTopNRules(CNT_DESC, 1, 3, False, UPDATABLE, (0, 1))
    assert replay(rules) == COUNT_DESC_TOP_3_NO_RN


def test_count_desc_rank_1_updates_as_fast_top_1():
    rules = UpdatingTopNRules(CNT_DESC, 1, 1, False, FAST_TOP_1, (0, 1))
    assert replay(rules, columns=(0, 1)) == COUNT_DESC_TOP_1_NO_RN


def test_count_desc_ranks_2_to_3_emit_only_those_ranks():
    rules = UpdatingTopNRules(CNT_DESC, 2, 3, True, UPDATABLE, (0, 1))
    assert replay(rules) == COUNT_DESC_2_TO_3


def test_count_asc_retracts_and_accumulates():
    rules = UpdatingTopNRules(CNT_ASC, 1, 3, True, RETRACTABLE)
    assert replay(rules) == COUNT_ASC_TOP_3
    rules = UpdatingTopNRules(CNT_ASC, 1, 3, False, RETRACTABLE)
    assert replay(rules) == COUNT_ASC_TOP_3_NO_RN
    rules = UpdatingTopNRules(CNT_ASC, 1, 1, False, RETRACTABLE)
    assert replay(rules, columns=(0, 1)) == COUNT_ASC_TOP_1_NO_RN


def test_sum_of_negatives_and_positives_retracts():
    rules = UpdatingTopNRules(CNT_DESC, 1, 3, True, RETRACTABLE)
    assert replay(rules, NEGATIVES, "sum") == SUM_NEGATIVES_DESC_TOP_3
    rules = UpdatingTopNRules(CNT_ASC, 1, 3, False, RETRACTABLE)
    assert replay(rules, NEGATIVES, "sum") == SUM_NEGATIVES_ASC_TOP_3_NO_RN
    rules = UpdatingTopNRules(CNT_ASC, 2, 3, True, RETRACTABLE)
    assert replay(rules, NEGATIVES, "sum") == SUM_NEGATIVES_ASC_2_TO_3
    # rn <= 1 with rn selected: Flink plans rn as the constant 1 (no rank number)
    rules = UpdatingTopNRules(CNT_DESC, 1, 1, False, RETRACTABLE)
    assert replay(rules, ROWS, "sum", constant_rank=1) == SUM_DESC_TOP_1


def test_update_fast_needs_each_sort_column_to_move_towards_the_top():
    assert monotonic_order([INCREASING], [True])
    assert monotonic_order([DECREASING], [False])
    assert monotonic_order([CONSTANT, INCREASING], [False, True])
    assert not monotonic_order([INCREASING], [False])
    assert not monotonic_order([NOT_MONOTONIC], [True])
    assert not monotonic_order([], [])


def test_rules_and_state_pickle_between_checkpoints():
    rules = pickle.loads(pickle.dumps(UpdatingTopNRules(CNT_DESC, 1, 3, True, UPDATABLE,
                                                        (0, 1))))
    state = rules.new_state()
    rules.on_change(state, "+I", ('a', 'x', 1))
    state = pickle.loads(pickle.dumps(state))
    assert rules.on_change(state, "+I", ('a', 'y', 2)) == [
        ("-U", ('a', 'x', 1), 1), ("+U", ('a', 'y', 2), 1), ("+I", ('a', 'x', 1), 2)]
