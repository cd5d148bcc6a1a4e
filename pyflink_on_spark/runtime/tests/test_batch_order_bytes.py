"""A pickled key's order bytes (batch_order.pickle_order) are shorter than Flink's serialized
key but sort every key where Flink's bytes sort it: the length as a 4-byte int, then the
pickle, all compared as signed bytes."""
import random
import struct

from hypothesis import given, settings, strategies as st

from pyflink_on_spark.common.types import Row
from pyflink_on_spark.runtime.batch_order import _signed, pickle_order, pickled_key_order
from pyflink_on_spark.runtime.key_groups import pickle_key


def flink_bytes(key) -> bytes:
    data = pickle_key(key)
    return _signed(struct.pack(">i", len(data)) + data)


def assert_same_order(keys) -> None:
    by_flink = sorted(range(len(keys)), key=lambda i: (flink_bytes(keys[i]), i))
    by_order = sorted(range(len(keys)), key=lambda i: (pickled_key_order(keys[i]), i))
    assert [flink_bytes(keys[i]) for i in by_order] == [flink_bytes(keys[i]) for i in by_flink]


def test_every_length_class_and_frame_shape():
    rng = random.Random(5)
    keys = list(range(-3000, 3000)) + [rng.randrange(-2 ** 70, 2 ** 70) for _ in range(2000)]
    keys += [None, True, False, 1.5, -0.0, b"", b"x" * 300, (1, "a"), Row(1, "a"), Row(a=2)]
    # pickles from 5 bytes to past 64 KiB: lengths below 256 (one class), 256-32767 and
    # 65536 on (after them in signed order), 32768-65535 (before them)
    keys += ["a" * n for n in range(300)] + ["b" * n for n in (32740, 32760, 32770, 65500,
                                                              65520, 65530, 65540, 70000)]
    assert_same_order(keys)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(), st.text(max_size=40), st.binary(max_size=40),
                          st.tuples(st.integers(), st.text(max_size=5))), max_size=40))
def test_any_keys(keys):
    assert_same_order(keys)


def test_order_bytes_are_short_in_front():
    # what Spark's sort compares first: the key's own bytes, within 8 bytes
    assert pickle_order(pickle_key(5)) == b"\x01\x85" + bytes([ord("K") ^ 0x80, 5 ^ 0x80, 0xAE])
    order = pickle_order(pickle_key(100000))
    assert len(order) == 2 + 6 and order[2] == ord("J") ^ 0x80
    assert pickle_order(pickle_key(100000)) != pickle_order(pickle_key(100001))
