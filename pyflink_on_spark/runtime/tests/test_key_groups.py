"""key_groups must send every key to the subtask real PyFlink 1.20 sends it to.

data/key_groups_pyflink.json was recorded on PyFlink 1.20 by data/gen_key_groups_fixture.py
(see there to regenerate): for many keys, key types (none = pickled keys, and declared
key_type's) and (parallelism, max parallelism) settings, the
RuntimeContext.get_index_of_this_subtask() a keyed function saw.
"""
import datetime
import decimal
import enum
import json
import os
import subprocess
import sys

import pytest

from pyflink_on_spark.common.typeinfo import Types as ShimTypes

from pyflink_on_spark.runtime.key_groups import (
    KeyToSubtask, assign_key_group, java_key_hash, murmur_hash,
    operator_index_for_key_group, pickle_key)

FIXTURE = os.path.join(os.path.dirname(__file__), "data", "key_groups_pyflink.json")
with open(FIXTURE) as _f:
    OBSERVED = json.load(_f)


# ----------------------------------------------------------------- Rows / Instants for decoding

class _RowKind(enum.Enum):
    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3


class Row:
    """A stand-in with pyflink.common.Row's layout, from another module than PyFlink's (as the
    shim's own Row is): exercises the PyFlink-compatible pickling of Rows in pickled keys."""

    def __init__(self, *args, **kwargs):
        if kwargs:
            self._fields = list(kwargs)
            self._values = [kwargs[n] for n in self._fields]
        else:
            self._values = list(args)
        self._row_kind = _RowKind.INSERT

    def get_row_kind(self):
        return self._row_kind

    def set_row_kind(self, kind):
        self._row_kind = kind

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def __eq__(self, other):
        return (isinstance(other, Row) and self._values == other._values
                and self._row_kind == other._row_kind
                and getattr(self, "_fields", None) == getattr(other, "_fields", None))

    def __hash__(self):
        return hash(tuple(self._values))


def _shim_row_class():
    for module in ("pyflink_on_spark.common.types", "pyflink_on_spark.common"):
        try:
            return getattr(__import__(module, fromlist=["Row"]), "Row")
        except (ImportError, AttributeError):
            pass
    return None


ROW_CLASSES = [Row] + ([_shim_row_class()] if _shim_row_class() else [])


class Instant:
    def __init__(self, seconds, nanos):
        self.seconds, self.nanos = seconds, nanos


def decode(enc, row_cls=Row, strings=None):
    """Fixture key -> Python value. Equal strings inside one key become one object, as the
    literals PyFlink pickled (pickle memoises by identity)."""
    strings = {} if strings is None else strings
    tag = enc[0]
    if tag == "str":
        return strings.setdefault(enc[1], enc[1])
    if tag == "int":
        return enc[1]
    if tag == "float":
        return float.fromhex(enc[1])
    if tag == "bool":
        return enc[1]
    if tag == "none":
        return None
    if tag == "bytes":
        return bytes.fromhex(enc[1])
    if tag == "tuple":
        return tuple(decode(e, row_cls, strings) for e in enc[1])
    if tag == "list":
        return [decode(e, row_cls, strings) for e in enc[1]]
    if tag == "dict":
        return {decode(k, row_cls, strings): decode(v, row_cls, strings) for k, v in enc[1]}
    if tag == "row":
        kind, names, values = enc[1], enc[2], [decode(e, row_cls, strings) for e in enc[3]]
        row = row_cls(**dict(zip(names, values))) if names else row_cls(*values)
        if kind:
            kinds = type(row.get_row_kind())
            row.set_row_kind(kinds(kind) if issubclass(kinds, enum.Enum) else kind)
        return row
    if tag == "date":
        return datetime.date.fromisoformat(enc[1])
    if tag == "time":
        return datetime.time.fromisoformat(enc[1])
    if tag == "datetime":
        return datetime.datetime.fromisoformat(enc[1])
    if tag == "decimal":
        return decimal.Decimal(enc[1])
    if tag == "instant":
        return Instant(enc[1], enc[2])
    raise ValueError(enc)


# ----------------------------------------------------------------- key types

def T(name):
    """Types.<name>() of the shim's type classes (which own the Java hashCodes)."""
    return getattr(ShimTypes, name)()


def build_type(spec, types):
    if spec is None:
        return None
    name, args = spec[0], spec[1:]
    if name in ("TUPLE", "ROW"):
        return getattr(types, name)([build_type(t, types) for t in args[0]])
    if name == "ROW_NAMED":
        return types.ROW_NAMED(args[0], [build_type(t, types) for t in args[1]])
    if name in ("PRIMITIVE_ARRAY", "BASIC_ARRAY", "OBJECT_ARRAY", "LIST"):
        return getattr(types, name)(build_type(args[0], types))
    if name == "MAP":
        return types.MAP(build_type(args[0], types), build_type(args[1], types))
    assert hasattr(types, name), "%s has no Types.%s()" % (types.__module__, name)
    return getattr(types, name)()




# ----------------------------------------------------------------- the observed table

def _case_id(case):
    mp = "mp%d" % case["max_parallelism"] if case["set_max_parallelism"] else "default-mp"
    return "%s-p%d-%s" % (case["name"], case["parallelism"], mp)


CASES = [pytest.param(c, id=_case_id(c)) for c in OBSERVED["cases"]]


def test_fixture_covers_what_the_brief_asks():
    names = set(OBSERVED["key_types"])
    assert names == {c["name"] for c in OBSERVED["cases"]}
    assert {"pickled", "string", "int", "long", "double", "tuple_str_int", "row_str_int",
            "row_named", "row_nested", "tuple_nested"} <= names
    settings = {(c["parallelism"], c["max_parallelism"], c["set_max_parallelism"])
                for c in OBSERVED["cases"]}
    assert {p for p, _, _ in settings} == {2, 3, 4}
    assert any(explicit for _, _, explicit in settings)
    assert sum(len(c["subtasks"]) for c in OBSERVED["cases"]) > 3000


@pytest.mark.parametrize("row_cls", ROW_CLASSES, ids=lambda c: c.__module__)
@pytest.mark.parametrize("case", CASES)
def test_matches_pyflink(case, row_cls):
    observed = OBSERVED["key_types"][case["name"]]
    key_type = build_type(observed["key_type"], ShimTypes)
    p, mp = case["parallelism"], case["max_parallelism"]
    to_subtask = KeyToSubtask(mp, p, key_type)
    assert len(observed["keys"]) == len(case["subtasks"])
    wrong = []
    for enc, expected in zip(observed["keys"], case["subtasks"]):
        key = decode(enc, row_cls)
        direct = operator_index_for_key_group(mp, p, assign_key_group(key, mp, key_type))
        memoised = [to_subtask(key), to_subtask(key)]  # miss, then hit
        if direct != expected or memoised != [expected, expected]:
            wrong.append((enc, expected, direct, memoised))
    assert not wrong, "%d of %d keys on another subtask than PyFlink's: %s" % (
        len(wrong), len(case["subtasks"]), wrong[:10])


# ----------------------------------------------------------------- the rule, spelled out

def test_brief_observation_parallelism_2():
    keys = list("abcdefgh")
    string = T("STRING")
    assert [KeyToSubtask(128, 2, string)(k) for k in keys] == [1, 1, 0, 1, 1, 1, 0, 0]
    assert [KeyToSubtask(128, 2)(k) for k in keys] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_hash_is_row_wrapped_java_hash():
    # Row(INSERT, [key]).hashCode() == 31 + (31 + key.hashCode()) for a non-null scalar.
    assert java_key_hash("a", T("STRING")) == 62 + ord("a")
    assert java_key_hash(None, T("STRING")) == 31
    assert java_key_hash(-7, T("INT")) == 62 - 7
    # pickled: 62 + Arrays.hashCode(cloudpickle.dumps(key, protocol=5))
    data = pickle_key("a")
    assert data[:2] == b"\x80\x05"
    h = 1
    for b in data:
        h = (31 * h + (b - 256 if b > 127 else b)) & 0xFFFFFFFF
    assert java_key_hash("a") == ((h + 62 + 2 ** 31) % 2 ** 32) - 2 ** 31


def test_key_types_are_type_classes():
    with pytest.raises(TypeError, match="must be a TypeInformation"):
        KeyToSubtask(128, 2, object())
    # a value its declared type does not model hashes as the Java object that holds it best
    assert java_key_hash("a", T("INT")) == java_key_hash("a", T("STRING"))


def test_memo_keeps_apart_keys_python_deems_equal():
    # PyFlink pickles 1, 1.0 and True differently, and 0.0 / -0.0 differently: the memo (a
    # dict) must not hand one the other's subtask.
    for max_parallelism, parallelism in ((128, 4), (128, 7), (32, 5)):
        to_subtask = KeyToSubtask(max_parallelism, parallelism)
        for keys in ((1, 1.0, True), (0, 0.0, -0.0, False), ((1, "a"), (1.0, "a"), (True, "a"))):
            for key in keys + keys:
                expected = operator_index_for_key_group(
                    max_parallelism, parallelism, assign_key_group(key, max_parallelism))
                assert to_subtask(key) == expected, key
    doubles = KeyToSubtask(128, 4, T("DOUBLE"))
    for key in (0.0, -0.0, 0.0, -0.0):
        assert doubles(key) == operator_index_for_key_group(
            128, 4, assign_key_group(key, 128, T("DOUBLE")))
    row_type = ShimTypes.ROW([T("STRING")])
    for parallelism in range(2, 9):
        rows = KeyToSubtask(128, parallelism, row_type)
        insert, delete = Row("a"), Row("a")
        delete.set_row_kind(_RowKind.DELETE)
        for key in (insert, delete, insert, delete):
            assert rows(key) == operator_index_for_key_group(
                128, parallelism, assign_key_group(key, 128, row_type))


def test_unhashable_keys_are_computed_without_memo():
    lists = KeyToSubtask(128, 3, ShimTypes.LIST(T("STRING")))
    assert lists(["a", "b"]) == lists(["a", "b"])
    assert 0 <= lists(["a", "b"]) < 3


def test_stable_across_processes():
    """Nothing depends on Python's per-process hash salt."""
    code = ("from pyflink_on_spark.runtime.key_groups import KeyToSubtask as K\n"
            "k = K(128, 7)\n"
            "print([k(x) for x in ['a', 'zz', ('t', 1), 2 ** 40, 1.5, None]])\n")
    outputs = set()
    for seed in ("1", "2", "random"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, check=True, cwd=os.path.join(os.path.dirname(
                                 __file__), "..", "..", ".."))
        outputs.add(out.stdout)
    assert len(outputs) == 1


def test_murmur_and_ranges():
    assert all(0 <= murmur_hash(x) < 2 ** 31 for x in (0, 1, -1, 2 ** 31 - 1, -2 ** 31))
    # key groups map onto operator indexes in contiguous ranges
    indexes = [operator_index_for_key_group(128, 3, g) for g in range(128)]
    assert indexes == sorted(indexes) and set(indexes) == {0, 1, 2}


def test_default_max_parallelism():
    from pyflink_on_spark.graph.compile import default_max_parallelism
    # KeyGroupRangeAssignment.computeDefaultMaxParallelism: the fixture's default cases are 128
    assert {c["max_parallelism"] for c in OBSERVED["cases"] if not c["set_max_parallelism"]} \
        == {default_max_parallelism(p) for p in (2, 3, 4)} == {128}
    assert [default_max_parallelism(p) for p in (85, 86, 171, 172, 1000, 30000)] == [
        128, 256, 256, 512, 2048, 32768]
