"""Records, on real PyFlink 1.20, which parallel subtask a keyed function runs on for each key.

Output: key_groups_pyflink.json next to this file ("key_types": name -> key type + keys;
"cases": name, parallelism, max parallelism -> the subtask of each key, in key order).
test_key_groups.py asserts that pyflink_on_spark.runtime.key_groups assigns every key to the
same subtask.

Regenerate (needs the PyFlink venv and a JDK; ~4 minutes, as the key types PyFlink cannot
handle make the all-in-one job fail and every key type then runs as its own job):

    cd /work/main
    PATH=/opt/venvs/flink/bin:$PATH \
        python pyflink_on_spark/runtime/tests/data/gen_key_groups_fixture.py

For every key type (None = pickled keys, and many declared key_type's) and every
(parallelism, max parallelism) setting, a branch `from_collection(indexes).key_by(lambda i:
KEYS[i], key_type).process(Record)` with that parallelism (and set_max_parallelism) records
(key index, RuntimeContext.get_index_of_this_subtask()). All settings of one key type run in
one job; a key type PyFlink cannot handle is reported and left out of the fixture.

Encoding of keys in the JSON (decoded by test_key_groups.py):
  ["str", s] ["int", n] ["float", float.hex()] ["bool", b] ["none"] ["bytes", hex]
  ["tuple", [keys]] ["list", [keys]] ["dict", [[k, v], ...]]
  ["row", row_kind_value, field_names_or_null, [keys]]      (pyflink.common.Row)
  ["date", iso] ["time", iso] ["datetime", iso] ["decimal", str] ["instant", seconds, nanos]
Encoding of key types: null (no key_type: pickled keys) or [NAME, args...], NAME one of the
Types.NAME() factories, e.g. ["STRING"], ["TUPLE", [t, ...]], ["ROW_NAMED", [names], [t, ...]],
["PRIMITIVE_ARRAY", t], ["MAP", k, v].
Strings repeated inside one key are the same object (as for literals), which matters for the
pickled bytes of keys without key_type (pickle memoises by identity).
"""
import datetime
import decimal
import json
import os
import re
import sys
import time
import traceback

from pyflink.common import Row, Types
from pyflink.common.time import Instant
from pyflink.common.types import RowKind
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "key_groups_pyflink.json")

# (parallelism, max parallelism or None = Flink's default for that parallelism)
SETTINGS = [(2, None), (3, None), (4, None), (2, 7), (3, 10), (4, 256), (3, 4096)]


def _row(*values, kind=None, names=None):
    if names:
        r = Row(**dict(zip(names, values)))
    else:
        r = Row(*values)
    if kind is not None:
        r.set_row_kind(kind)
    return r


STRS = (list("abcdefgh") + ["", "hello", "Hello, World!", "e\u0301", "\u00e9", "\u00f1and\u00fa",
        "\u65e5\u672c\u8a9e", "\U0001F600", "a\U0001F600b", "x" * 100]
        + ["key-%d" % i for i in range(40)])
INTS = ([0, 1, -1, 2, -2, 7, 42, -42, 127, 128, -128, 255, 256, -129, 1000, -1000, 65535,
         65536, -65536, 2 ** 31 - 1, -2 ** 31, 123456789, -987654321] + list(range(10, 50)))
LONGS = INTS + [2 ** 31, -2 ** 31 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 40 + 7, -2 ** 40,
                2 ** 63 - 1, -2 ** 63, 1234567890123, -1234567890123]
SHORTS = [0, 1, -1, 100, -100, 255, 256, 32767, -32768] + list(range(2, 30))
BYTES_ = [0, 1, -1, 127, -128, 64, -64] + list(range(2, 30))
FLOATS32 = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 3.25, -2.75, 0.1, 1e10, 1e-10, 3.4e38, -3.4e38,
            float("inf"), float("-inf"), float("nan"), 1e-45, 123.456]
FLOATS32 += [i / 4 for i in range(-20, 20)]
FLOATS64 = FLOATS32 + [1e300, -1e300, 5e-324, 2.0 ** 70, 0.30000000000000004, 1e-300]

_SHARED = "shared"
PICKLED_KEYS = (
    STRS + INTS + [2 ** 31, -2 ** 31 - 1, 2 ** 40, 2 ** 63 - 1, -2 ** 63, 2 ** 64, 10 ** 30,
                   -10 ** 30]
    + [0.0, -0.0, 1.5, -2.25, 0.1, 1e300, float("inf"), float("nan")]
    + [True, False, None]
    + [(), (1,), ("a",), (1, "a"), ("a", 1), ("a", "b", 3), ((1, 2), 3), (None, True, 1.5),
       ("a", "a"), (_SHARED, (_SHARED, 1)), (1, (2, (3, "x"))), b"", b"xyz", bytes(range(20)),
       ("k", 2 ** 40), decimal.Decimal("1.50"), datetime.date(2024, 1, 2),
       datetime.datetime(2024, 1, 2, 3, 4, 5)]
    + [(i, "v%d" % i) for i in range(15)]
    + [_row("a", 1), _row("a", 1, kind=RowKind.UPDATE_AFTER), _row("x", 2, names=["s", "n"]),
       _row(_row(1), "x"), ("t", _row("a", 1)), _row(_row(2, kind=RowKind.DELETE), None)]
)

# (name, key type spec, keys)
CONFIGS = [
    ("pickled", None, PICKLED_KEYS),
    ("string", ["STRING"], STRS),
    ("int", ["INT"], INTS),
    ("long", ["LONG"], LONGS),
    ("short", ["SHORT"], SHORTS),
    ("byte", ["BYTE"], BYTES_),
    ("boolean", ["BOOLEAN"], [True, False]),
    ("float", ["FLOAT"], FLOATS32),
    ("double", ["DOUBLE"], FLOATS64),
    ("tuple_str_int", ["TUPLE", [["STRING"], ["INT"]]],
     [(s, i) for s in ("a", "b", "", "\u65e5") for i in (0, 1, -1, 2 ** 31 - 1, 77)]
     + [("k%d" % i, i) for i in range(20)]),
    ("tuple1_str", ["TUPLE", [["STRING"]]], [(s,) for s in STRS[:20]]),
    ("tuple_nested", ["TUPLE", [["INT"], ["TUPLE", [["STRING"], ["LONG"]]]]],
     [(i, ("s%d" % i, 2 ** 35 + i)) for i in range(-5, 20)]),
    ("tuple3", ["TUPLE", [["DOUBLE"], ["BOOLEAN"], ["STRING"]]],
     [(i / 3, i % 2 == 0, "t%d" % i) for i in range(-5, 25)]),
    ("row_str_int", ["ROW", [["STRING"], ["INT"]]],
     [_row(s, i) for s in ("a", "b", "") for i in (0, 1, -1, 100)]
     + [_row(None, 3), _row("a", None), _row(None, None)]
     + [_row("a", 1, kind=k) for k in (RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER, RowKind.DELETE)]
     + [_row("r%d" % i, i) for i in range(20)]),
    ("row_named", ["ROW_NAMED", ["name", "n"], [["STRING"], ["INT"]]],
     [_row("n%d" % i, i, names=["name", "n"]) for i in range(20)]),
    ("row_nested", ["ROW", [["ROW", [["INT"], ["STRING"]]], ["DOUBLE"]]],
     [_row(_row(i, "s%d" % i), i * 0.5) for i in range(-3, 20)]),
    ("byte_array", ["PRIMITIVE_ARRAY", ["BYTE"]],
     [b"", b"a", b"xyz", bytes(range(256)), b"\xff\x80\x7f"] + [b"k%d" % i for i in range(20)]),
    # Less common key types: kept in the fixture only if PyFlink runs them.
    ("int_array", ["PRIMITIVE_ARRAY", ["INT"]], [[1, 2, 3], [], [-1], [2 ** 31 - 1, 5]]
     + [[i, i + 1] for i in range(15)]),
    ("string_basic_array", ["BASIC_ARRAY", ["STRING"]], [["a", "b"], [], ["x"]]
     + [["s%d" % i] for i in range(15)]),
    ("string_list", ["LIST", ["STRING"]], [["a", "b"], [], ["x"]]
     + [["s%d" % i] for i in range(15)]),
    ("map_str_int", ["MAP", ["STRING"], ["INT"]], [{"a": 1}, {}, {"a": 1, "b": 2}]
     + [{"m%d" % i: i} for i in range(15)]),
    ("instant", ["INSTANT"], [Instant(1700000000 + 1000 * i, 1000 * i) for i in range(20)]
     + [Instant(0, 0), Instant(-5, 7)]),
    ("big_dec", ["BIG_DEC"], [decimal.Decimal(s) for s in ("0", "1", "-1", "1.50", "1.5",
                                                            "123456789012345678901234567890.123",
                                                            "-0.001", "1E+3", "2.5e-7")]
     + [decimal.Decimal(i) / 4 for i in range(15)]),
    ("big_int", ["BIG_INT"], [0, 1, -1, 2 ** 40, -2 ** 40] + list(range(2, 20))),
    ("char", ["CHAR"], list("abcdefgh")),
]


def build_type(spec):
    if spec is None:
        return None
    name, args = spec[0], spec[1:]
    factory = getattr(Types, name)
    if name in ("TUPLE", "ROW"):
        return factory([build_type(t) for t in args[0]])
    if name == "ROW_NAMED":
        return factory(args[0], [build_type(t) for t in args[1]])
    if name in ("PRIMITIVE_ARRAY", "BASIC_ARRAY", "OBJECT_ARRAY", "LIST"):
        return factory(build_type(args[0]))
    if name == "MAP":
        return factory(build_type(args[0]), build_type(args[1]))
    return factory()


def encode(v):
    if isinstance(v, bool):
        return ["bool", v]
    if v is None:
        return ["none"]
    if isinstance(v, str):
        return ["str", v]
    if isinstance(v, int):
        return ["int", v]
    if isinstance(v, float):
        return ["float", v.hex()]
    if isinstance(v, bytes):
        return ["bytes", v.hex()]
    if isinstance(v, Row):
        names = list(v._fields) if hasattr(v, "_fields") else None
        return ["row", v.get_row_kind().value, names, [encode(x) for x in v._values]]
    if isinstance(v, tuple):
        return ["tuple", [encode(x) for x in v]]
    if isinstance(v, list):
        return ["list", [encode(x) for x in v]]
    if isinstance(v, dict):
        return ["dict", [[encode(k), encode(x)] for k, x in v.items()]]
    if isinstance(v, datetime.datetime):
        return ["datetime", v.isoformat()]
    if isinstance(v, datetime.date):
        return ["date", v.isoformat()]
    if isinstance(v, datetime.time):
        return ["time", v.isoformat()]
    if isinstance(v, decimal.Decimal):
        return ["decimal", str(v)]
    if isinstance(v, Instant):
        return ["instant", v.seconds, v.nanos]
    raise TypeError(type(v))


class Record(KeyedProcessFunction):
    def __init__(self, tag):
        self.tag = tag
        self.subtask = None

    def open(self, runtime_context):
        self.subtask = runtime_context.get_index_of_this_subtask()

    def process_element(self, value, ctx):
        yield self.tag, value, self.subtask


def _selector(keys):
    return lambda i: keys[i]


def run(configs):
    """One job: every config x every setting. Returns {(name, p, mp): {index: subtask}}."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    branches = []
    for name, spec, keys in configs:
        for p, mp in SETTINGS:
            tag = "%s|%d|%s" % (name, p, mp)
            ds = env.from_collection(list(range(len(keys))), type_info=Types.INT())
            out = ds.key_by(_selector(keys), key_type=build_type(spec)).process(Record(tag))
            out.set_parallelism(p)
            if mp is not None:
                out.set_max_parallelism(mp)
            branches.append(out)
    stream = branches[0].union(*branches[1:]) if len(branches) > 1 else branches[0]
    seen = {}
    with stream.execute_and_collect() as results:
        for tag, index, subtask in results:
            seen.setdefault(tag, {})[index] = subtask
    return seen


def _reason(e):
    """The informative lines of a (Py4J-wrapped) job failure."""
    lines = "".join(traceback.format_exception_only(type(e), e)).splitlines()
    picked = [ln.strip() for ln in lines
              if re.match(r"[\s:]*(Caused by: |[\w.]*(Error|Exception): )", ln)]
    return " | ".join(dict.fromkeys(picked[-3:] or lines[:1]))[:600]


def main():
    started = time.time()
    ok, failed, seen = [], {}, {}
    try:
        seen = run(CONFIGS)
        ok = list(CONFIGS)
        print("one job for all key types: ok")
    except Exception:
        print("one job for all key types failed; one job per key type")
        # Some key type broke the job: run one job per key type to find which.
        for config in CONFIGS:
            try:
                seen.update(run([config]))
                ok.append(config)
            except Exception as e:
                failed[config[0]] = _reason(e)
    for name, spec, keys in list(ok):
        for p, mp in SETTINGS:
            got = seen.get("%s|%d|%s" % (name, p, mp), {})
            if sorted(got) != list(range(len(keys))):
                # e.g. a key type whose Python coder and Java serializer disagree: the job
                # "succeeds" with records lost or garbled.
                failed[name] = "incomplete results: %d of %d keys" % (len(got), len(keys))
                ok.remove((name, spec, keys))
                break
    key_types, cases = {}, []
    for name, spec, keys in ok:
        key_types[name] = {"key_type": spec, "keys": [encode(k) for k in keys]}
        for p, mp in SETTINGS:
            got = seen["%s|%d|%s" % (name, p, mp)]
            cases.append({
                "name": name, "parallelism": p,
                "max_parallelism": 128 if mp is None else mp,
                "set_max_parallelism": mp is not None,
                "subtasks": [got[i] for i in range(len(keys))],
            })
    doc = {
        "generator": "pyflink_on_spark/runtime/tests/data/gen_key_groups_fixture.py",
        "pyflink": __import__("pyflink.version", fromlist=["__version__"]).__version__,
        "python": sys.version.split()[0],
        "unsupported_by_pyflink": failed,
        "key_types": key_types,
        "cases": cases,
    }
    with open(OUT, "w") as f:  # one line per key type / case
        f.write("{\n")
        items = list(doc.items())
        for i, (field, value) in enumerate(items):
            end = ",\n" if i + 1 < len(items) else "\n"
            if field in ("key_types", "cases"):
                rows = value.items() if isinstance(value, dict) else enumerate(value)
                parts = [(json.dumps(k) + ": " if isinstance(value, dict) else "")
                         + json.dumps(v, separators=(",", ":")) for k, v in rows]
                opener, closer = ("{", "}") if isinstance(value, dict) else ("[", "]")
                f.write("%s: %s\n  %s\n%s%s" % (json.dumps(field), opener,
                                                ",\n  ".join(parts), closer, end))
            else:
                f.write("%s: %s%s" % (json.dumps(field), json.dumps(value), end))
        f.write("}\n")
    print("wrote %s: %d cases, failed key types: %s (%.0f s)"
          % (OUT, len(cases), sorted(failed), time.time() - started))
    for name, err in failed.items():
        print("--", name, err)


if __name__ == "__main__":
    main()
