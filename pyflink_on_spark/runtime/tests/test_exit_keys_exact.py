"""A keyed exit's chunk skips the check of its keys before marshal only when its loop saw
str and int keys alone (runtime/exits/chunked.py keys_unsure): a key of another class in a
chunk (a numpy scalar, which marshal would write as bytes; a tuple; a bool) has that
chunk's keys checked, so every key reads back as the key selector gave it, through the
usual loop and the two-step one for many new keys alike."""
import numpy as np
import pytest

from pyflink_on_spark.runtime.exits import chunked
from pyflink_on_spark.runtime.tests.test_exit_bulk_keys import _collector, _records


def _keys(after_misses, monkeypatch, calls, odd=None):
    """The keys that leave, the values' "odd" marker keyed by `odd`: the values are exact
    (ints and strs), so only the keys' own check can see that key."""
    monkeypatch.setattr(chunked, "BULK_AFTER_MISSES", after_misses)
    rows = []
    collector = _collector(rows, parallelism=2,
                           selector=lambda v: odd if v[0] == "odd" else v[0])
    for call in calls:
        collector.process_many(call, None)
    collector.flush()
    return [key for _, _, _, keys in _records(rows) for key in keys]


@pytest.mark.parametrize("after_misses", [1, 10 ** 9])   # two-step loop, usual loop
@pytest.mark.parametrize("odd", [np.int64(7), ("a", 1), True])
def test_a_key_of_another_class_reads_back_as_it_was(monkeypatch, after_misses, odd):
    calls = [[(i, i) for i in range(10)] + [("odd", 10)] + [("s%d" % i, i) for i in range(5)]
             for _ in range(3)]
    keys = _keys(after_misses, monkeypatch, calls, odd)
    sent = [odd if value[0] == "odd" else value[0] for call in calls for value in call]
    assert sorted(map(repr, keys)) == sorted(map(repr, sent))
    assert sum(1 for key in keys if type(key) is type(odd)) == 3
    # the chunk after a flush starts unmarked: str and int keys alone again
    assert all(type(key) in (int, str) for key in keys if type(key) is not type(odd))


def test_str_and_int_keys_leave_unchecked_and_read_back(monkeypatch):
    calls = [[(i % 7, i) for i in range(50)] + [("k%d" % i, i) for i in range(20)]]
    keys = _keys(10 ** 9, monkeypatch, calls)
    assert sorted(map(repr, keys)) == sorted(map(repr, [v[0] for v in calls[0]]))
