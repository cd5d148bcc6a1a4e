"""A keyed exit meeting many new keys takes calls in two steps (runtime/exits/bulk_keys.py):
the rows it writes are the rows the one-record-at-a-time loop writes, records in their
order, keys carried, timestamps kept, errors raised after the records before them left."""
import pytest

from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import wrap_key_selector
from pyflink_on_spark.runtime.exits import chunked
from pyflink_on_spark.runtime.boundary import loads_records
from pyflink_on_spark.runtime.exits import ExitCollector
from pyflink_on_spark.specs.partitioning import KeyedPartitioning
from pyflink_on_spark.specs.stage import ExitSpec


def _collector(rows, selector=lambda v: v[0], converter=None, parallelism=3):
    spec = ExitSpec(edge_id=1, source=0, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(selector)),
                    target_parallelism=parallelism, target_max_parallelism=128,
                    converter=converter)
    return ExitCollector(spec, 0, 1, rows, lambda e: e)


def _records(rows):
    """(destination, values, stamps, keys) of each row, marshalled or pickled alike."""
    return [(row[1],) + tuple(loads_records(row[5])) for row in rows]


def _calls(n_calls=40, per_call=300, repeat_every=3):
    """Calls of records whose keys are mostly new: (key, i), with some keys met before, of
    several types (bool, float, tuple keys go the one-key way inside a bulk call)."""
    calls, i = [], 0
    for c in range(n_calls):
        call = []
        for _ in range(per_call):
            key = "k%d" % i if i % repeat_every else i // 7
            if i % 97 == 0:
                key = (True, 1.0, ("t", i % 5))[i % 3]
            call.append((key, i))
            i += 1
        calls.append(call)
    return calls


def _run(monkeypatch, after_misses, calls, stamped=False, converter=None):
    monkeypatch.setattr(chunked, "BULK_AFTER_MISSES", after_misses)
    rows = []
    collector = _collector(rows, converter=converter)
    for n, call in enumerate(calls):
        if stamped:
            collector.process_stamped(call, [1000 + v[1] for v in call])
        else:
            collector.process_many(call, None)
        if n % 7 == 6:
            collector.flush()
    collector.flush()
    return _records(rows)


@pytest.mark.parametrize("stamped", [False, True])
def test_two_steps_write_the_rows_the_usual_loop_writes(monkeypatch, stamped):
    calls = _calls()
    usual = _run(monkeypatch, 10 ** 9, calls, stamped)
    two_steps = _run(monkeypatch, 64, calls, stamped)
    assert two_steps == usual
    values = [v for _, vs, _, _ in usual for v in vs]
    assert sorted(v[1] for v in values) == list(range(len(values)))
    if stamped:
        assert all(stamps == [1000 + v[1] for v in vs] for _, vs, stamps, _ in usual)


def test_the_exit_switches_to_two_steps_and_back(monkeypatch):
    monkeypatch.setattr(chunked, "BULK_AFTER_MISSES", 64)
    rows = []
    collector = _collector(rows)
    bulk = collector.process_many.__globals__["bulk"]
    collector.process_many([("new-%d" % i, i) for i in range(200)], None)
    assert bulk[0]   # 200 new keys in one call
    collector.process_many([("again-%d" % i, i) for i in range(200)], None)
    assert bulk[0]   # still every key new
    collector.process_many([("again-%d" % (i % 5), i) for i in range(200)], None)
    assert not bulk[0]   # no key new: back to the usual loop
    collector.flush()
    assert sum(len(vs) for _, vs, _, _ in _records(rows)) == 600


@pytest.mark.parametrize("declared", [False, True])
def test_records_not_known_exact_leave_as_the_usual_loop_sends_them(monkeypatch, declared):
    # records the loop cannot vouch for (a str subclass, which marshal cannot write)
    class Name(str):
        pass
    convert = Types.TUPLE([Types.STRING(), Types.LONG()])._python_converter() \
        if declared else None
    calls = [[(("k%d" % i, i) if i % 3 else (Name("k%d" % i), i)) for i in range(c, c + 200)]
             for c in range(0, 2000, 200)]
    usual = _run(monkeypatch, 10 ** 9, calls, converter=convert)
    two_steps = _run(monkeypatch, 16, calls, converter=convert)
    assert two_steps == usual
    assert len(usual) > 3


def test_records_before_an_error_leave_and_the_error_names_the_selector(monkeypatch):
    monkeypatch.setattr(chunked, "BULK_AFTER_MISSES", 8)

    def selector(value):
        if value[1] == 250:
            raise ValueError("bad key at 250")
        return value[0]
    rows = []
    collector = _collector(rows, selector)
    collector.process_many([("a-%d" % i, i) for i in range(100)], None)
    bulk = collector.process_many.__globals__["bulk"]
    assert bulk[0]
    with pytest.raises(Exception, match="bad key at 250"):
        collector.process_many([("b-%d" % i, i) for i in range(200, 300)], None)
    collector.flush()
    sent = sorted(v[1] for _, vs, _, _ in _records(rows) for v in vs)
    assert sent == list(range(100)) + list(range(200, 250))


def test_a_key_that_cannot_be_hashed_fails_after_the_records_before_it(monkeypatch):
    import threading
    monkeypatch.setattr(chunked, "BULK_AFTER_MISSES", 8)
    rows = []
    collector = _collector(rows)
    collector.process_many([(i, i) for i in range(100)], None)
    assert collector.process_many.__globals__["bulk"][0]
    with pytest.raises(Exception, match="cannot pickle"):
        collector.process_many([(i, i) for i in range(100, 150)] + [(threading.Lock(), 150)]
                               + [(i, i) for i in range(151, 160)], None)
    collector.flush()
    assert sorted(v[1] for _, vs, _, _ in _records(rows) for v in vs) == list(range(150))


def test_a_key_type_without_a_bulk_hash_keeps_the_one_step_loop():
    rows = []
    spec = ExitSpec(edge_id=1, source=0, side_tag=None,
                    partitioning=KeyedPartitioning(wrap_key_selector(lambda v: v[0]),
                                                   key_type=Types.DOUBLE()),
                    target_parallelism=2, target_max_parallelism=128)
    collector = ExitCollector(spec, 0, 1, rows, lambda e: e)
    assert "bulk_many" not in collector.process_many.__code__.co_names
    keyed = _collector([])
    assert "bulk_many" in keyed.process_many.__code__.co_names


TRICKY_TUPLES = [(1, "a"), (True, "a"), (1.0, "a"), ((1,), "a"), ((True,), "a"), (0.0, "x"),
                 (-0.0, "x"), (None, b"k"), (2 ** 70, "a"), ("a", [1]), ("a", [True])]


@pytest.mark.parametrize("after_misses", [8, 10 ** 9])
def test_tuple_keys_go_where_key_to_subtask_sends_them(monkeypatch, after_misses):
    # keys equal in Python but not to PyFlink ((1, "a") and (True, "a"), 0.0 and -0.0,
    # nested tuples) are never taken for one another, remembered or hashed together
    from pyflink_on_spark.runtime.key_groups import KeyToSubtask
    monkeypatch.setattr(chunked, "BULK_AFTER_MISSES", after_misses)
    rows = []
    collector = _collector(rows, selector=lambda v: v[0], parallelism=5)
    keys = [(i, "n") for i in range(300)] + TRICKY_TUPLES * 20
    calls = [[(k, i) for i, k in enumerate(keys[s:s + 50], s)] for s in range(0, len(keys), 50)]
    for call in calls * 2:
        collector.process_many(call, None)
    collector.flush()
    where = KeyToSubtask(128, 5)
    routed = 0
    for dest, values, _, carried in _records(rows):
        assert [v[0] for v in values] == carried
        assert all(dest == where(v[0]) for v in values), [v[0] for v in values
                                                          if dest != where(v[0])]
        routed += len(values)
    assert routed == 2 * len(keys)
    assert len({where(k) for k in TRICKY_TUPLES}) > 1
