"""The payload of a records row (runtime/boundary.py dumps_records / loads_records): every
value comes back equal and of its own type, whichever encoding the values allow."""
import collections
import datetime
import decimal
import marshal
import pickle
import subprocess
import sys

import cloudpickle

from pyflink_on_spark.common import Row
from pyflink_on_spark.runtime.boundary import dumps_records, loads_records

Pair = collections.namedtuple("Pair", "key value")


def _round_trip(values, stamps=None):
    back_values, back_stamps = loads_records(dumps_records((values, stamps)))
    assert back_values == values and back_stamps == stamps
    assert [type(v) for v in back_values] == [type(v) for v in values]
    return back_values


def test_plain_builtin_values_are_marshalled():
    values = [("a", 1), (2 ** 70, -0.0), True, None, b"x", 1.5, [1, ("n", {"k": {1, 2}})],
              frozenset({"f"})]
    payload = dumps_records((values, [1, 2, 3, 4, 5, 6, 7, 8]))
    assert payload == marshal.dumps((values, [1, 2, 3, 4, 5, 6, 7, 8]))
    _round_trip(values, [1, 2, 3, 4, 5, 6, 7, 8])
    assert _round_trip([True, False, 1]) == [True, False, 1]


def test_subclasses_and_other_types_are_pickled_and_keep_their_type():
    # marshal would refuse them (or, for a subclass, it must not turn them into their base)
    for values in ([Row(1, "a")], [Row(a=1, b=[Row(c=2)])], [Pair("k", 1)],
                   [decimal.Decimal("1.10")], [datetime.datetime(2026, 1, 2, 3, 4)],
                   [("ok", 1), Row(2)]):
        payload = dumps_records((values, None))
        assert payload[:1] == b"\x80"
        back = _round_trip(values)
        assert [getattr(v, "_fields", None) for v in back] == \
            [getattr(v, "_fields", None) for v in values]


def test_values_of_the_job_script_are_cloudpickled_by_value(tmp_path):
    # a class defined in `__main__` cannot be imported by a worker: cloudpickle carries it
    script = tmp_path / "job.py"
    script.write_text(
        "import sys\n"
        "from pyflink_on_spark.runtime.boundary import dumps_records\n"
        "class Point:\n"
        "    def __init__(self, x):\n"
        "        self.x = x\n"
        "sys.stdout.buffer.write(dumps_records(([Point(3)], None)))\n")
    payload = subprocess.run([sys.executable, str(script)], check=True,
                             capture_output=True).stdout
    values, stamps = loads_records(payload)
    assert values[0].x == 3 and type(values[0]).__name__ == "Point" and stamps is None


def test_payloads_of_pickle_and_cloudpickle_are_read_as_before():
    # rows written by pickle (tests, older paths) start with pickle's PROTO byte
    for dumps in (lambda g: pickle.dumps(g, 2), lambda g: pickle.dumps(g, 5),
                  cloudpickle.dumps):
        assert loads_records(dumps((["a"], [5]))) == (["a"], [5])


def test_objects_marshal_would_write_as_bytes_are_pickled_and_keep_their_type():
    # marshal writes any object with a buffer as plain bytes, without an error: numpy
    # scalars and arrays, bytearray, memoryview's source, array.array, a bytes subclass
    import array

    import numpy as np

    class Blob(bytes):
        pass

    for value in (np.int64(5), np.float64(0.5), np.int32(-1), bytearray(b"ab"),
                  array.array("i", [1, 2]), Blob(b"x")):
        shapes = [[value], [("k", value)], [[1, (2, value)]], [{"a": value}]]
        if value.__hash__ is not None:
            shapes.append([{value: 2}])
        for values in shapes:
            payload = dumps_records((values, None))
            assert payload[:1] == b"\x80", (value, values)
            back, _ = loads_records(payload)
            assert repr(back) == repr(values)
            assert type(back[0]) is type(values[0])
    arr = np.array([1, 2])
    back, _ = loads_records(dumps_records(([("a", arr)], None)))
    assert type(back[0][1]) is np.ndarray and back[0][1].tolist() == [1, 2]


def test_keys_and_timestamps_are_checked_as_the_values_are():
    import numpy as np
    for group in (([("a", 1)], None, [np.int64(3)]), ([("a", 1)], None, np.int64(3)),
                  ([("a", 1)], [np.int64(7)], ["a"])):
        payload = dumps_records(group)
        assert payload[:1] == b"\x80"
        back = loads_records(payload)
        assert repr(back) == repr(group)


def test_deep_and_self_containing_records_are_pickled():
    deep = 1
    for _ in range(100):
        deep = [deep]
    assert loads_records(dumps_records(([deep], None)))[0] == [deep]
    loop = [1]
    loop.append(loop)
    back, _ = loads_records(dumps_records(([loop], None)))
    assert back[0][1] is back[0]


def test_marshal_exact_looks_into_every_level():
    from pyflink_on_spark.runtime.boundary import marshal_exact
    assert marshal_exact([1, "a", (2, [3, {"k": (4.0, None)}]), frozenset({b"x"})])
    assert not marshal_exact([1, "a", (2, [3, {"k": (4.0, bytearray())}])])
    assert not marshal_exact([(1, 2), {bytearray(b"k").decode(): memoryview(b"m")}])
    assert not marshal_exact([{(1, Row(1)): 2}])
