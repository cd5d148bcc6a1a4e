"""Keys hashed together (key_groups_bulk.py, KeyToSubtask.many) go where one key at a time,
and real PyFlink 1.20, send them."""
import pickle
import random

import pytest

from pyflink_on_spark.common.typeinfo import Types as ShimTypes
from pyflink_on_spark.runtime.key_groups import KeyToSubtask, pickle_key
from pyflink_on_spark.runtime.key_groups_bulk import pickled_key_subtasks
from pyflink_on_spark.runtime.tests.test_key_groups import CASES, OBSERVED, build_type, decode


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0]["name"] == "pickled"])
def test_bulk_matches_pyflink(case):
    keys = [decode(enc) for enc in OBSERVED["key_types"]["pickled"]["keys"]]
    p, mp = case["parallelism"], case["max_parallelism"]
    # None travels as null, not pickled: its hash is not its pickle's (key_groups.py)
    pickled = [(pickle_key(k), subtask) for k, subtask in zip(keys, case["subtasks"])
               if k is not None]
    assert pickled_key_subtasks([data for data, _ in pickled], mp, p) == \
        [subtask for _, subtask in pickled]
    # str and int keys hashed together, the others one at a time, in the keys' order
    assert KeyToSubtask(mp, p).many(keys) == case["subtasks"]


def _keys() -> list:
    rng = random.Random(7)
    keys = list(range(-70_000, 70_000, 7)) + [2 ** 31 - 1, 2 ** 31, -2 ** 31, -2 ** 31 - 1,
                                            2 ** 63, -2 ** 63, 10 ** 40, -10 ** 40]
    keys += ["user-%d" % i for i in range(3000)] + ["", "é", "日本語", "\ud800"]
    keys += ["".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(60)))
             for _ in range(2000)]
    keys += ["x" * 5000, "y" * 1025]  # longer than the weights first made
    rng.shuffle(keys)
    return keys


@pytest.mark.parametrize("max_parallelism, parallelism",
                         [(128, 1), (128, 2), (128, 3), (4096, 7), (32768, 5), (1, 1)])
def test_bulk_matches_one_key_at_a_time(max_parallelism, parallelism):
    keys = _keys()
    one = KeyToSubtask(max_parallelism, parallelism)
    expected = [one(k) for k in keys]
    pickles = [pickle.dumps(k, protocol=5) for k in keys]
    assert pickles == [pickle_key(k) for k in keys]
    assert pickled_key_subtasks(pickles, max_parallelism, parallelism) == expected
    assert KeyToSubtask(max_parallelism, parallelism).many(keys) == expected


def test_many_memoises_and_takes_every_key_type():
    keys = [1, True, 1.0, "1", b"1", None, (1, "a"), (True, "a"), 0.0, -0.0, 2 ** 70, 1, "1"]
    to_subtask = KeyToSubtask(128, 3)
    expected = [KeyToSubtask(128, 3)(k) for k in keys]
    assert to_subtask.many(keys) == expected
    assert to_subtask.many(keys) == expected   # now from the memo
    assert to_subtask.many([]) == []


@pytest.mark.parametrize("name", ["string", "int", "long"])
def test_many_of_declared_keys_matches_pyflink(name):
    observed = OBSERVED["key_types"][name]
    key_type = build_type(observed["key_type"], ShimTypes)
    keys = [decode(enc) for enc in observed["keys"]]
    cases = [c.values[0] for c in CASES if c.values[0]["name"] == name]
    assert cases
    for case in cases:
        to_subtask = KeyToSubtask(case["max_parallelism"], case["parallelism"], key_type)
        assert to_subtask.many(keys) == case["subtasks"]


@pytest.mark.parametrize("declared", ["LONG", "INT", "STRING"])
def test_many_of_declared_keys_matches_one_key_at_a_time(declared):
    rng = random.Random(11)
    key_type = getattr(ShimTypes, declared)()
    keys = [rng.randrange(-2 ** 65, 2 ** 65) for _ in range(500)] + \
        [rng.randrange(-2 ** 33, 2 ** 33) for _ in range(500)] + list(range(-300, 300)) + \
        [2 ** 63 - 1, -2 ** 63, 2 ** 31 - 1, -2 ** 31, 2 ** 31, 2 ** 63]
    keys += ["".join(chr(rng.randrange(1, 0x11000)) for _ in range(rng.randrange(30)))
             for _ in range(800)] + ["", "\ud800", "a" * 3000, None, True, 1.5]
    rng.shuffle(keys)
    for max_parallelism, parallelism in ((128, 2), (4096, 7)):
        one = KeyToSubtask(max_parallelism, parallelism, key_type)
        expected = [one(k) for k in keys]
        assert KeyToSubtask(max_parallelism, parallelism, key_type).many(keys) == expected


def test_many_of_tuple_keys_matches_one_key_at_a_time():
    keys = [(i, "a") for i in range(200)] + [(1, "a"), (True, "a"), (1.0, "a"), ((1,), "a"),
                                               ((True,), "a"), (0.0, "x"), (-0.0, "x"),
                                               (None, b"k", "z" * 300), ("a", [1])] * 3
    for key_type in (None, ShimTypes.TUPLE([ShimTypes.INT(), ShimTypes.STRING()])):
        expected = [KeyToSubtask(128, 3, key_type)(k) for k in keys]
        to_subtask = KeyToSubtask(128, 3, key_type)
        assert to_subtask.many(keys) == expected
        assert to_subtask.many(keys) == expected   # from the memo
