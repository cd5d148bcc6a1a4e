"""TypeInformation / Types API: names, equality, repr and conversions as in PyFlink 1.20
(observed with tests/reference/probe_api.py)."""
import datetime
import pickle

import cloudpickle
import pytest

from pyflink_on_spark.common import Instant, Row, RowKind, TypeInformation, Types
from pyflink_on_spark.common.typeinfo import (
    BasicArrayTypeInfo, BasicType, BasicTypeInfo, DateTypeInfo, ExternalTypeInfo,
    InstantTypeInfo, ListTypeInfo, LocalTimeTypeInfo, MapTypeInfo, ObjectArrayTypeInfo,
    PickledBytesTypeInfo, PrimitiveArrayTypeInfo, RowTypeInfo, SqlTimeTypeInfo, TimeTypeInfo,
    TimestampTypeInfo, TupleTypeInfo)

BASIC_REPRS = [
    ("STRING", "String", BasicTypeInfo), ("BYTE", "Byte", BasicTypeInfo),
    ("BOOLEAN", "Boolean", BasicTypeInfo), ("SHORT", "Short", BasicTypeInfo),
    ("INT", "Integer", BasicTypeInfo), ("LONG", "Long", BasicTypeInfo),
    ("FLOAT", "Float", BasicTypeInfo), ("DOUBLE", "Double", BasicTypeInfo),
    ("CHAR", "Char", BasicTypeInfo), ("BIG_INT", "BigInteger", BasicTypeInfo),
    ("BIG_DEC", "BigDecimal", BasicTypeInfo), ("INSTANT", "Instant", InstantTypeInfo),
    ("SQL_DATE", "DateTypeInfo", DateTypeInfo), ("SQL_TIME", "TimeTypeInfo", TimeTypeInfo),
    ("SQL_TIMESTAMP", "TimestampTypeInfo", TimestampTypeInfo),
    ("PICKLED_BYTE_ARRAY", "PickledByteArrayTypeInfo", PickledBytesTypeInfo),
]


@pytest.mark.parametrize("factory,text,cls", BASIC_REPRS)
def test_simple_factories(factory, text, cls):
    t = getattr(Types, factory)()
    assert repr(t) == str(t) == text
    assert type(t) is cls
    assert t == getattr(Types, factory)()
    assert hash(t) == hash(getattr(Types, factory)())
    assert isinstance(t, TypeInformation)


def test_composite_reprs():
    assert repr(Types.ROW([Types.INT(), Types.STRING()])) == "RowTypeInfo(Integer, String)"
    assert repr(Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()])) == \
        "RowTypeInfo(a: Integer, b: String)"
    assert repr(Types.TUPLE([Types.INT(), Types.STRING()])) == "TupleTypeInfo(Integer, String)"
    assert repr(Types.PRIMITIVE_ARRAY(Types.INT())) == "PrimitiveArrayTypeInfo<Integer>"
    assert repr(Types.BASIC_ARRAY(Types.INT())) == "BasicArrayTypeInfo<Integer>"
    assert repr(Types.OBJECT_ARRAY(Types.STRING())) == "ObjectArrayTypeInfo<String>"
    assert repr(Types.MAP(Types.STRING(), Types.INT())) == "MapTypeInfo<String, Integer>"
    assert repr(Types.LIST(Types.INT())) == "ListTypeInfo<Integer>"
    assert repr(LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE)) == \
        "LocalTimeTypeInfo<LOCAL_DATE>"
    assert repr(ExternalTypeInfo(Types.INT())) == "ExternalTypeInfo<Integer>"
    assert type(Types.LOCAL_DATE_TIME()) is LocalTimeTypeInfo


def test_row_field_names_like_pyflink():
    row = Types.ROW([Types.INT(), Types.STRING()])
    assert row.get_field_index("f1") == -1  # no names yet
    assert row.get_field_names() == ['f0', 'f1']
    # PyFlink remembers the default names, which changes the repr
    assert repr(row) == "RowTypeInfo(f0: Integer, f1: String)"
    assert row.get_field_index("f1") == 1
    named = Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()])
    assert named.get_field_index("b") == 1
    with pytest.raises(ValueError, match="'zz' is not in list"):
        named.get_field_index("zz")
    assert named.get_field_types() == [Types.INT(), Types.STRING()]
    # names do not take part in equality
    assert named == Types.ROW([Types.INT(), Types.STRING()])


def test_equality():
    assert Types.INT() != Types.LONG()
    assert not (Types.INT() != Types.INT())
    assert Types.INSTANT() == BasicTypeInfo(BasicType.INSTANT)
    assert type(BasicTypeInfo.INSTANT_TYPE_INFO()) is InstantTypeInfo
    assert Types.MAP(Types.STRING(), Types.INT()) != 5
    assert Types.LIST(Types.INT()) == ListTypeInfo(Types.INT())
    assert Types.TUPLE([Types.INT()]) != Types.ROW([Types.INT()])
    assert Types.PRIMITIVE_ARRAY(Types.INT()) != Types.BASIC_ARRAY(Types.INT())
    assert SqlTimeTypeInfo.DATE() == Types.SQL_DATE()
    assert len({Types.INT(), Types.INT(), Types.ROW([Types.INT()]),
                Types.ROW([Types.INT()])}) == 2


def test_need_conversion_and_internal_forms():
    assert [t.need_conversion() for t in [
        Types.INT(), Types.ROW([Types.INT()]), Types.TUPLE([Types.INT()]), Types.SQL_DATE(),
        Types.INSTANT(), Types.LIST(Types.INT()), Types.MAP(Types.INT(), Types.INT()),
        Types.PICKLED_BYTE_ARRAY()]] == [False, True, True, True, True, False, False, False]
    row = Types.ROW([Types.INT(), Types.STRING()])
    assert row.to_internal_type((1, "a")) == (0, 1, "a")
    assert row.to_internal_type(Row.of_kind(RowKind.DELETE, 1, "a")) == (3, 1, "a")
    assert row.to_internal_type({"f0": 1, "f1": "a"}) == (0, 1, "a")
    assert row.from_internal_type([0, 1, "a"]) == [0, 1, "a"]
    assert Types.TUPLE([Types.INT(), Types.STRING()]).to_internal_type([1, "a"]) == (1, "a")
    with pytest.raises(ValueError, match="Unexpected tuple 5 with TupleTypeInfo"):
        Types.TUPLE([Types.INT()]).to_internal_type(5)
    assert Types.SQL_DATE().to_internal_type(datetime.date(2020, 1, 2)) == 18263
    assert Types.SQL_DATE().from_internal_type(18263) == datetime.date(2020, 1, 2)
    assert Types.INSTANT().to_internal_type(Instant.of_epoch_milli(1500)) == 1500000
    assert Types.INSTANT().from_internal_type(1500000) == Instant(1, 500000000)
    # values observed on PyFlink with the machine in UTC
    assert Types.SQL_TIMESTAMP().to_internal_type(datetime.datetime(2020, 1, 2, 3, 4, 5, 6)) \
        == 1577934245000006
    assert Types.SQL_TIME().to_internal_type(datetime.time(1, 2, 3, 4)) == 3723000004
    assert Types.SQL_TIME().from_internal_type(3723000004) == datetime.time(1, 2, 3, 4)
    nested = Types.ROW([Types.SQL_DATE()])
    assert nested.to_internal_type(Row(datetime.date(1970, 1, 2))) == (0, 1)


def test_no_jvm_methods_raise():
    for t in [Types.INT(), Types.ROW([Types.INT()]), Types.PICKLED_BYTE_ARRAY(),
              Types.MAP(Types.INT(), Types.INT()), Types.SQL_DATE()]:
        with pytest.raises(NotImplementedError,
                           match=r"get_java_type_info\(\) is not supported by "
                                 r"pyflink_on_spark.*without a JVM"):
            t.get_java_type_info()


def test_invalid_array_element_types():
    with pytest.raises(TypeError, match="Invalid element type for a primitive array."):
        Types.PRIMITIVE_ARRAY(Types.STRING())._to_java_string(["a"])


@pytest.mark.parametrize("dumps,loads", [(pickle.dumps, pickle.loads),
                                         (cloudpickle.dumps, cloudpickle.loads)])
def test_type_infos_pickle_with_working_converters(dumps, loads):
    t = Types.ROW_NAMED(["a", "m"], [Types.FLOAT(), Types.MAP(Types.INT(), Types.STRING())])
    t._from_python(Row(0.1, {4: "a", 1: "b", 8: "c"}))  # builds and caches converters
    clone = loads(dumps(t))
    assert clone == t and repr(clone) == repr(t)
    assert repr(clone._from_python(Row(0.1, {4: "a", 1: "b", 8: "c"}))) == \
        "Row(a=0.10000000149011612, m={4: 'a', 8: 'c', 1: 'b'})"


def test_converter_is_none_when_values_cross_unchanged():
    assert Types.CHAR()._python_converter() is None
    assert Types.BIG_INT()._python_converter() is None
    assert Types.INT()._python_converter() is not None  # range check
    row_type = Types.ROW([Types.INT()])
    assert row_type._python_converter() is row_type._python_converter()  # built once


def test_local_time_types():
    local_dt = Types.LOCAL_DATE_TIME()
    value = datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=datetime.timezone.utc)
    assert local_dt._from_python(value) == datetime.datetime(2020, 1, 2, 3, 4, 5, 6)
    assert local_dt._to_java_string(value) == "2020-01-02T03:04:05.000006"
    assert Types.LOCAL_DATE()._to_java_string(datetime.date(2020, 1, 2)) == "2020-01-02"


def test_all_classes_exported_by_module():
    for cls in [BasicArrayTypeInfo, MapTypeInfo, ObjectArrayTypeInfo, PrimitiveArrayTypeInfo,
                RowTypeInfo, TupleTypeInfo]:
        assert issubclass(cls, TypeInformation)


def test_pair_conversion_passes_unchanged_pairs_on_and_converts_or_rejects_the_others():
    pair = Types.TUPLE([Types.STRING(), Types.INT()])
    value = ("a", 1)
    assert pair._from_python(value) is value
    converted = Types.TUPLE([Types.INT(), Types.DOUBLE()])._from_python((True, 2))
    assert converted == (1, 2.0) and [type(v) for v in converted] == [int, float]
    with pytest.raises(TypeError, match="does not accept None fields"):
        pair._from_python(("a", None))
    with pytest.raises(OverflowError):
        pair._from_python(("a", 1 << 40))
    assert pair._from_python(("a", 1, "extra")) == ("a", 1)


def test_a_tuple_of_exact_basic_values_passes_the_converter_as_it_is():
    pair = Types.TUPLE([Types.LONG(), Types.STRING()])._python_converter()
    value = (7, "a")
    assert pair(value) is value
    triple = Types.TUPLE([Types.INT(), Types.DOUBLE(), Types.BOOLEAN()])._python_converter()
    value = (1, 2.5, True)
    assert triple(value) is value
    # what the compiled test does not pass goes the general way, with its conversions and
    # errors: True is cast to 1 for an int field, 2 to 2.0 for a double, ints are range-checked
    assert pair((True, "a")) == (1, "a") and type(pair((True, "a"))[0]) is int
    assert triple((1, 2, False)) == (1, 2.0, False) and type(triple((1, 2, False))[1]) is float
    with pytest.raises(OverflowError, match="int32_t"):
        triple((2 ** 31, 1.0, True))
    with pytest.raises(OverflowError, match="int64_t"):
        pair((-2 ** 63 - 1, "a"))
    with pytest.raises(TypeError, match="does not accept None fields"):
        pair((None, "a"))
    with pytest.raises(TypeError, match="Expected tuple"):
        pair([1, "a"])
    # a field without a converter passes anything but None
    anything = Types.TUPLE([Types.BIG_INT(), Types.LONG()])._python_converter()
    value = (10 ** 30, 5)
    assert anything(value) is value


def test_the_compiled_tuple_converter_has_a_module_and_pickles_by_value(monkeypatch):
    """A function without __module__ makes cloudpickle search every loaded module for it, on
    the driver, for every job that declares the type (13 ms a job); and the converter must
    still travel by value (it is not an attribute of its module)."""
    from cloudpickle import cloudpickle as cp
    pair = Types.TUPLE([Types.LONG(), Types.STRING()])._python_converter()
    assert pair.__module__ == "pyflink_on_spark.common.typeinfo"
    searched = []
    original = cp._whichmodule
    monkeypatch.setattr(cp, "_whichmodule",
                        lambda obj, name: searched.append(obj) or original(obj, name))
    copy = pickle.loads(cloudpickle.dumps(pair))
    assert searched and all(getattr(obj, "__module__", None) is not None for obj in searched)
    assert copy is not pair and copy((1, "a")) == (1, "a")
    with pytest.raises(OverflowError):
        copy((1 << 64, "a"))
