"""Java text rendering and HashMap order, checked against Java 17 (the JVM PyFlink 1.20 runs
on here). The double/float tables come from Double/Float.toString run on that JVM, including
values where Java 8-17 does not print the shortest form."""
import datetime

import pytest

from pyflink_on_spark.common._java_text import (
    HashMapModel, default_capacity, expected_size_capacity, hashmap_order, java_bool_hash,
    java_double_hash, java_double_str, java_duration_str, java_float_hash, java_float_str,
    java_instant_str, java_long_hash, java_sql_timestamp_str, java_string_hash, to_float32)
from pyflink_on_spark.common import Instant, Types
from pyflink_on_spark.common.typeinfo import LocalTimeTypeInfo

JAVA17_DOUBLES = [
    (0.1, "0.1"),
    (1 / 3, "0.3333333333333333"),
    (2 / 3, "0.6666666666666666"),
    (1e23, "9.999999999999999E22"),
    (2.5e22, "2.4999999999999998E22"),
    (7e22, "7.0000000000000004E22"),
    (1.4e23, "1.4000000000000001E23"),
    (6.4e24, "6.399999999999999E24"),
    (9.7e21, "9.699999999999999E21"),
    (-1.6130484589462314e+17, "-1.61304845894623136E17"),
    (8.74463772425996e+18, "8.7446377242599598E18"),
    (2.0 ** 63, "9.223372036854776E18"),
    (4.61168601842739e+18, "4.61168601842739E18"),
    (1e16, "1.0E16"),
    (1e15, "1.0E15"),
    (123456789012345.0, "1.23456789012345E14"),
    (12345678.9, "1.23456789E7"),
    (0.001, "0.001"),
    (0.0009999999999999998, "9.999999999999998E-4"),
    (9999999.999999998, "9999999.999999998"),
    (1.7976931348623157e+308, "1.7976931348623157E308"),
    (2.2250738585072014e-308, "2.2250738585072014E-308"),
    (5e-324, "4.9E-324"),
    (5.684341886080802e-14, "5.6843418860808015E-14"),
    (8.41e+21, "8.409999999999999E21"),
    (2.82879384806159e+17, "2.82879384806159008E17"),
    (1.387364135037754e+18, "1.38736413503775411E18"),
    (1.45800632428665e+17, "1.45800632428664992E17"),
    (1.9400994884341945e+25, "1.9400994884341944E25"),
    (100.5, "100.5"),
    (-2.5, "-2.5"),
    (1e-10, "1.0E-10"),
    (3.141592653589793, "3.141592653589793"),
    (1234567.0, "1234567.0"),
    (12345678.0, "1.2345678E7"),
    (0.30000000000000004, "0.30000000000000004"),
    (0.0, "0.0"),
    (-0.0, "-0.0"),
    (float("nan"), "NaN"),
    (float("-inf"), "-Infinity"),
]

JAVA17_FLOATS = [
    (0.1, "0.1"),
    (1 / 3, "0.33333334"),
    (274131795968.0, "2.74131796E11"),
    (-72797448.0, "-7.2797448E7"),
    (931077184.0, "9.3107718E8"),
    (3811621632.0, "3.81162163E9"),
    (5.410122225460183e+18, "5.4101222E18"),
    (1e10, "1.0E10"),
    (16777216.0, "1.6777216E7"),
    (3.4028234663852886e+38, "3.4028235E38"),
    (1.401298464324817e-45, "1.4E-45"),
    (1.1754943508222875e-38, "1.17549435E-38"),
    (0.2, "0.2"),
    (0.3, "0.3"),
    (1234567.0, "1234567.0"),
    (12345678.0, "1.2345678E7"),
    (1e-10, "1.0E-10"),
    (3.14159, "3.14159"),
    (-0.0, "-0.0"),
    (float("inf"), "Infinity"),
]


@pytest.mark.parametrize("value,text", JAVA17_DOUBLES)
def test_double_to_string(value, text):
    assert java_double_str(value) == text


@pytest.mark.parametrize("value,text", JAVA17_FLOATS)
def test_float_to_string(value, text):
    assert java_float_str(value) == text


def test_float32_rounding():
    assert to_float32(0.1) == 0.10000000149011612
    assert to_float32(16777217.0) == 16777216.0


def test_java_hash_codes():
    # values of String/Long/Double/Float/Boolean.hashCode() on the JVM
    assert java_string_hash("") == 0
    assert java_string_hash("a") == 97
    assert java_string_hash("Aa") == java_string_hash("BB") == 2112
    assert java_string_hash("hello world") == 1794106052
    assert java_string_hash("pipeline.name") == -1737204137
    assert java_string_hash("\U0001F600") == 1772899  # a surrogate pair: two UTF-16 units
    assert java_long_hash(-1) == 0
    assert java_long_hash(2 ** 32 + 1) == 0
    assert java_long_hash(-2 ** 40) == -256
    assert java_double_hash(1.0) == 1072693248
    assert java_double_hash(-0.0) == -2147483648
    assert java_double_hash(float("nan")) == 2146959360
    assert java_float_hash(1.0) == 1065353216
    assert (java_bool_hash(True), java_bool_hash(False)) == (1231, 1237)
    assert Types.BIG_INT()._java_hash(123456789012345678901234567890) == 1915528825
    assert Types.BIG_INT()._java_hash(-7) == -7
    assert Types.INSTANT()._java_hash(Instant(5, 123456789)) == 2001328948


def test_hashmap_order_and_capacity():
    # new HashMap<>(3): 4 buckets; 4 and 8 share bucket 0 in insertion order
    assert hashmap_order([4, 1, 8]) == [0, 2, 1]
    # 7 keys: new HashMap<>(7) has 8 buckets and doubles to 16 on the 7th insert
    assert hashmap_order([16, 1, 0, 32, 5, 21, 64]) == [0, 2, 3, 6, 1, 4, 5]
    model = HashMapModel()
    for _ in range(13):
        model.on_insert()
    assert model.capacity == 32
    assert default_capacity(12) == 16 and default_capacity(13) == 32
    assert [expected_size_capacity(n) for n in (0, 1, 2, 3, 12, 13)] == [1, 2, 4, 4, 16, 32]


def test_duration_to_string():
    assert java_duration_str(0, 0) == "PT0S"
    assert java_duration_str(1, 500_000_000) == "PT1.5S"
    assert java_duration_str(2, 0) == "PT2S"
    assert java_duration_str(60, 0) == "PT1M"
    assert java_duration_str(3600 + 61, 0) == "PT1H1M1S"
    assert java_duration_str(-1, 500_000_000) == "PT-0.5S"
    assert java_duration_str(0, 1) == "PT0.000000001S"
    assert java_duration_str(-2, 500_000_000) == "PT-1.5S"
    assert java_duration_str(2 * 86400, 0) == "PT48H"


def test_instant_and_timestamp_text():
    assert java_instant_str(0, 0) == "1970-01-01T00:00:00Z"
    assert java_instant_str(1, 500_000_000) == "1970-01-01T00:00:01.500Z"
    assert java_instant_str(1, 500_000) == "1970-01-01T00:00:01.000500Z"
    assert java_instant_str(-2, 500_000_000) == "1969-12-31T23:59:58.500Z"
    ts = datetime.datetime(2020, 1, 2, 3, 4, 5, 120000)
    assert java_sql_timestamp_str(ts) == "2020-01-02 03:04:05.12"
    assert java_sql_timestamp_str(ts.replace(microsecond=0)) == "2020-01-02 03:04:05.0"


def test_local_time_text():
    # LocalTime.toString on Java 17
    local_time = LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_TIME)
    assert local_time._java_str(datetime.time(1, 2)) == "01:02"
    assert local_time._java_str(datetime.time(1, 2, 3)) == "01:02:03"
    assert local_time._java_str(datetime.time(1, 2, 3, 4000)) == "01:02:03.004"
    assert local_time._java_str(datetime.time(1, 2, 3, 4)) == "01:02:03.000004"
