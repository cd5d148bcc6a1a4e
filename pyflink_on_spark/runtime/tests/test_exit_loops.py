"""The exits' compiled loops (runtime/exits/loops.py): the converter's test inline, what it
tells about a value (exact builtin classes, so marshal-safe), and the key-sorted exit's
records marshalled as they arrive. A key's records keep their order whatever form they
wait in, and no value comes back as another type."""
import traceback

import numpy as np
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import wrap_key_selector
from pyflink_on_spark.direct.exchange import route
from pyflink_on_spark.runtime.boundary import loads_records
from pyflink_on_spark.runtime.key_runs import merged_groups, row_groups
from pyflink_on_spark.runtime.exits.loops import (
    EXACT_LEAVES, compile_loop, exact_test, prepare_source)
from pyflink_on_spark.runtime.exits import ExitCollector, KeySortedExitCollector
from pyflink_on_spark.specs.partitioning import ForwardPartitioning, KeyedPartitioning
from pyflink_on_spark.specs.stage import ExitSpec

PAIR = Types.TUPLE([Types.STRING(), Types.LONG()])


def _exact(type_info, value) -> bool:
    """What the loop's test says of one value."""
    source = exact_test(type_info._python_converter())
    scope = {"value": value, "_EXACT_LEAVES": EXACT_LEAVES}
    exec(source, scope)
    return scope["exact_value"]


@pytest.mark.parametrize("type_info, value, exact", [
    (Types.LONG(), 5, True), (Types.LONG(), 2 ** 63, False), (Types.LONG(), True, False),
    (Types.LONG(), np.int64(5), False), (Types.STRING(), "a", True),
    (Types.DOUBLE(), np.float64(0.5), False), (PAIR, ("a", 1), True),
    (PAIR, ("a", np.int64(1)), False), (PAIR, ("a", 1, 2), False), (PAIR, ["a", 1], False),
    (PAIR, (None, 1), False),
    # a field without a converter passes exact only when it holds a builtin leaf
    (Types.TUPLE([Types.LONG(), Types.BIG_INT()]), (1, "x"), True),
    (Types.TUPLE([Types.LONG(), Types.BIG_INT()]), (1, np.float64(2)), False),
    (Types.TUPLE([Types.LONG(), Types.BIG_INT()]), (1, None), False),
    (Types.TUPLE([Types.LONG(), Types.BIG_INT()]), (1, bytearray(b"b")), False),
])
def test_the_inline_test_passes_only_exact_values_of_the_declared_type(type_info, value,
                                                                       exact):
    assert _exact(type_info, value) is exact


def test_no_test_for_nested_declared_types():
    convert = Types.TUPLE([PAIR, Types.LONG()])._python_converter()
    assert exact_test(convert) is None
    assert prepare_source(convert, False).startswith("exact_value = False\n")


@pytest.mark.parametrize("value, exact", [
    (1, True), ("a", True), (None, True), (2 ** 80, True), (b"x", True), (("a", 1), True),
    (("a", 1, 2.5), True), ((None, True), True),
    (np.int64(1), False), (("a", np.float64(1)), False), (("a", 1, bytearray()), False),
    ((1, 2, 3, 4), False), (((1, 2), 3), False), ([1, 2], False), ({"a": 1}, False),
])
def test_without_a_declared_type_only_builtin_values_pairs_and_triples_are_exact(value,
                                                                                exact):
    # what is not exact still leaves as it is: checked, then marshalled or pickled
    from pyflink_on_spark.runtime.boundary import MARSHAL_LEAVES
    scope = {"value": value, "_MARSHAL_LEAVES": MARSHAL_LEAVES}
    exec(exact_test(None), scope)
    assert scope["exact_value"] is exact


def test_a_loop_error_shows_the_loop_source_line_and_the_user_function():
    def user_map(value):
        return 10 // value

    loop = compile_loop("def run(records):\n    for value in records:\n        $prepare\n",
                        {"user_map": user_map, "map_error": lambda e: e,
                         "user_error": lambda e: e}, None, True)
    with pytest.raises(ZeroDivisionError) as info:
        loop([1, 0])
    text = "".join(traceback.format_exception(info.value))
    assert "value = user_map(value)" in text and "10 // value" in text


def _chunked_exit(type_info):
    spec = ExitSpec(edge_id=1, source=0, side_tag=None, partitioning=ForwardPartitioning(),
                    target_parallelism=1, target_max_parallelism=128,
                    converter=type_info._python_converter())
    rows = []
    return ExitCollector(spec, 0, 1, rows, lambda e: e), rows


@pytest.mark.parametrize("values, marshalled", [
    ([("a", 1), ("b", 2)], True),
    ([("a", 1), ("b", np.int64(2))], True),      # converted to int: checked, then marshal
    ([("a", 1), ("b", 2 ** 62)], True),
])
def test_a_chunk_of_a_declared_type_is_marshalled(values, marshalled):
    collector, rows = _chunked_exit(PAIR)
    collector.process_many(values, None)
    collector.flush()
    assert (rows[0][5][:1] != b"\x80") is marshalled
    back = loads_records(rows[0][5])[0]
    assert back == [(k, int(v)) for k, v in values]
    assert {type(v) for _, v in back} == {int}


def test_timestamps_are_kept_from_the_first_record_that_has_one():
    """Without timestamps the exit keeps none (its chunks say None); the first record with
    one gives the records held their None, and the exit keeps one per record from then on,
    for every destination, whichever input method the records came by."""
    spec = ExitSpec(edge_id=1, source=0, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(lambda v: v[0]),
                                                   Types.STRING()),
                    target_parallelism=2, target_max_parallelism=128,
                    converter=PAIR._python_converter())
    rows = []
    collector = ExitCollector(spec, 0, 1, rows, lambda e: e)
    keys = ["a", "b", "c", "d", "e", "f"]
    collector.process_many([(k, 1) for k in keys], None)
    collector.flush()
    assert [loads_records(r[5])[1] for r in rows] == [None, None]
    rows.clear()
    collector.process_many([(k, 2) for k in keys], None)
    collector.process_element(("a", 3), 7)
    collector.process_element(("b", 4), None)
    collector.process_many([("c", 5), ("d", 6)], 9)
    collector.flush()
    sent = {}
    for row in rows:
        values, stamps, _ = loads_records(row[5])
        sent.update({v: s for v, s in zip(values, stamps)})
    assert sent == {**{(k, 2): None for k in keys}, ("a", 3): 7, ("b", 4): None,
                    ("c", 5): 9, ("d", 6): 9}


def test_a_chunk_holding_what_marshal_would_change_is_pickled_as_it_is():
    collector, rows = _chunked_exit(Types.TUPLE([Types.LONG(), Types.BIG_INT()]))
    collector.process_many([(1, "x"), (2, np.float64(0.5)), (3, bytearray(b"b"))], None)
    collector.flush()
    back = loads_records(rows[0][5])[0]
    assert rows[0][5][:1] == b"\x80"
    assert [type(v) for _, v in back] == [str, np.float64, bytearray]
    # the next chunk starts sure again
    collector.process_many([(4, "y")], None)
    collector.flush()
    assert rows[1][5][:1] != b"\x80"


def _sorted_exit(type_info=PAIR, key_type=Types.STRING(), select=lambda x: x[0]):
    spec = ExitSpec(edge_id=3, source=1, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(select), key_type),
                    target_parallelism=1, target_max_parallelism=128, sort_by_key=True,
                    converter=None if type_info is None else type_info._python_converter())
    rows = []
    return KeySortedExitCollector(spec, 0, 1, rows, lambda e: e), rows


def _sorted_values(rows):
    """(values, timestamps, key) of each group, in the order the reading task takes them."""
    return [tuple(group[1:]) for _, group in merged_groups(route(rows, 1)[0])]


def test_exact_records_wait_marshalled_and_leave_as_one_row_per_key():
    collector, rows = _sorted_exit()
    collector.process_many([("b", 1), ("a", 2), ("b", 3)], None)
    assert collector._marshalled and not collector._slots
    assert all(type(r) is bytes for slot in collector._marshalled.values() for r in slot)
    collector.flush()
    assert _sorted_values(rows) == [([("a", 2)], None, "a"), ([("b", 1), ("b", 3)], None, "b")]


def test_a_key_turns_to_objects_at_its_first_inexact_record_and_keeps_its_order():
    # np.int64 fails the inline test (the converter makes an int of it): from then on
    # the key's records wait as objects, the marshalled ones first
    collector, rows = _sorted_exit()
    collector.process_many([("a", 1), ("a", 2), ("b", 1), ("a", np.int64(3)), ("a", 4)], None)
    assert set(collector._slots) == {"a"} and set(collector._marshalled) == {"b"}
    collector.flush()
    values = _sorted_values(rows)
    assert values == [([("a", 1), ("a", 2), ("a", 3), ("a", 4)], None, "a"),
                      ([("b", 1)], None, "b")]
    assert all(type(v) is int for _, v in values[0][0])


def test_a_record_marshal_would_change_keeps_its_type_among_marshalled_ones():
    collector, rows = _sorted_exit(Types.TUPLE([Types.STRING(), Types.BIG_INT()]))
    collector.process_many([("a", "x"), ("a", np.float64(0.5)), ("a", "y")], None)
    collector.flush()
    (values, _, key), = _sorted_values(rows)
    assert [type(v) for _, v in values] == [str, np.float64, str] and key == "a"


def test_marshalled_and_object_slots_leave_together_when_the_exit_is_full(monkeypatch):
    from pyflink_on_spark.runtime.exits import key_sorted
    monkeypatch.setattr(key_sorted, "SORTED_RECORDS_HELD", 6)
    monkeypatch.setattr(key_sorted, "MARSHALLED_BYTES_HELD", 0)   # no room past the count
    collector, rows = _sorted_exit()
    # "o" waits as objects (its first record is not exact), "m" marshalled
    for value in [("o", np.int64(1)), ("m", 1), ("m", 2), ("m", 3), ("o", 2)]:
        collector.process_element(value, None)
    assert rows == []
    collector.process_element(("m", 4), None)       # full: the largest slot leaves
    assert [loads_records(r[5])[0] for r in rows] == [[("m", 1), ("m", 2), ("m", 3),
                                                       ("m", 4)]]
    collector.flush()
    assert [v for v, _, _ in _sorted_values(rows)] == [
        [("m", 1), ("m", 2), ("m", 3), ("m", 4)], [("o", 1), ("o", 2)]]


def test_marshalled_records_wait_whole_while_they_fit_in_their_bytes(monkeypatch):
    # past SORTED_RECORDS_HELD, records held marshalled stay while MARSHALLED_BYTES_HELD
    # holds them: each key's records then leave in one row, not in pieces
    from pyflink_on_spark.runtime.exits import key_sorted
    monkeypatch.setattr(key_sorted, "SORTED_RECORDS_HELD", 8)
    records = [("k%d" % (i % 10), i) for i in range(100)]
    collector, rows = _sorted_exit()
    collector.process_many(records, None)
    assert rows == []
    collector.flush()
    assert sorted(len(v) for v, _, _ in _sorted_values(rows)) == [10] * 10
    # with no room for them, they leave as the count says
    monkeypatch.setattr(key_sorted, "MARSHALLED_BYTES_HELD", 0)
    collector, rows = _sorted_exit()
    collector.process_many(records, None)
    assert rows != []
    collector.flush()
    assert len(rows) > 10 and sum(len(v) for v, _, _ in _sorted_values(rows)) == 100


def test_large_marshalled_slots_leave_while_the_task_runs(monkeypatch):
    # slots of FEW_RECORDS or more leave when the exit is full, room or not: few rows
    from pyflink_on_spark.runtime.exits import key_sorted
    monkeypatch.setattr(key_sorted, "SORTED_RECORDS_HELD", 4 * key_sorted.FEW_RECORDS)
    collector, rows = _sorted_exit()
    collector.process_many([("k%d" % (i % 2), i) for i in range(4 * key_sorted.FEW_RECORDS)], None)
    assert len(rows) >= 1
    collector.flush()
    assert sum(len(v) for v, _, _ in _sorted_values(rows)) == 4 * key_sorted.FEW_RECORDS


@pytest.mark.parametrize("key_type", [None, Types.BIG_INT(), Types.LONG(), Types.STRING()])
def test_new_keys_placed_together_go_where_one_key_at_a_time_sends_them(key_type):
    # a BATCH exit hashes its new keys together when they leave; a declared type that
    # orders keys by their pickle (BIG_INT) still hashes them its own way, and None, sent
    # as null, by null's hash (4 subtasks: there its pickle's hash goes elsewhere)
    from pyflink_on_spark.runtime.key_groups import KeyToSubtask
    ints = list(range(-50, 300)) + [2 ** 40 + i for i in range(50)]
    strs = ["k%d" % i for i in range(300)]
    keys = strs if key_type == Types.STRING() else ints + (strs if key_type is None else [])
    if key_type is None:   # builtins of other kinds, and tuples Python deems equal
        keys += [None, True, False, b"x", (1, "a"), (True, "a"), (1.0, "a"), ((1,), "a"),
                 ((True,), "a"), (None, b"y")] + [(i, "t") for i in range(200)]
    spec = ExitSpec(edge_id=3, source=1, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(lambda v: v[0]),
                                                   key_type),
                    target_parallelism=4, target_max_parallelism=128, sort_by_key=True)
    rows = []
    collector = KeySortedExitCollector(spec, 0, 1, rows, lambda e: e)
    collector.process_many([(k, i) for i, k in enumerate(keys)], None)
    collector.flush()
    where = KeyToSubtask(128, 4, key_type)
    seen = []
    for row in rows:
        for _, values, _, key in row_groups(row):
            assert row[1] == where(key), key
            assert all(repr(v[0]) == repr(key) for v in values), (key, values)
            seen.append(repr(key))
    assert sorted(seen) == sorted(map(repr, keys))
    assert len({row[1] for row in rows}) == 4


def test_int_keys_and_other_key_kinds_beside_them():
    collector, rows = _sorted_exit(Types.TUPLE([Types.LONG(), Types.LONG()]), Types.LONG())
    collector.process_many([(1, 10), (2, 20), (1, 11)], None)
    bools, bool_rows = _sorted_exit(Types.TUPLE([Types.BOOLEAN(), Types.LONG()]),
                                    Types.BOOLEAN())
    bools.process_many([(True, 1), (False, 2), (True, 3)], None)
    for c in (collector, bools):
        c.flush()
    assert _sorted_values(rows) == [([(1, 10), (1, 11)], None, 1), ([(2, 20)], None, 2)]
    assert sorted(_sorted_values(bool_rows), key=lambda g: g[2]) == [
        ([(False, 2)], None, False), ([(True, 1), (True, 3)], None, True)]


def test_undeclared_values_are_marshalled_at_once_when_exact_else_checked_as_they_leave():
    collector, rows = _sorted_exit(None, None)
    collector.process_many([("a", np.int64(1)), ("a", 2), ("b", 3), ("b", [4])], None)
    assert set(collector._slots) == {"a", "b"} and not collector._marshalled
    collector.process_many([("c", 5)], None)
    assert set(collector._marshalled) == {"c"}
    collector.flush()
    values = [v for v, _, _ in _sorted_values(rows)]
    assert values == [[("a", 1), ("a", 2)], [("b", 3), ("b", [4])], [("c", 5)]]
    assert [type(v) for _, v in values[0]] == [np.int64, int]


def test_exits_built_again_reuse_their_compiled_loop():
    # a streaming job builds its exits every micro-batch: the loops' sources are kept once
    import linecache
    from pyflink_on_spark.runtime.exits import loops
    _sorted_exit()
    _chunked_exit(PAIR)
    known, cached = len(loops._code_of), len(linecache.cache)
    for _ in range(5):
        _sorted_exit()
        _chunked_exit(PAIR)
    assert len(loops._code_of) == known and len(linecache.cache) == cached
