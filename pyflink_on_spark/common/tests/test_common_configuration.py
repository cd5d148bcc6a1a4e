"""Configuration against PyFlink 1.20 (org.apache.flink.configuration.Configuration).

Single behaviours were observed with tests/reference/probe_api.py; key orders of to_dict()
and str(), and hash(), for 60 random sequences of set/remove/copy/add_all operations with
tests/reference/probe_configuration.py (recorded in configuration_observed.json).
"""
import copy
import json
import os
import re

import pytest

from pyflink_on_spark.common import Configuration

_OBSERVED = json.load(open(os.path.join(os.path.dirname(__file__), "reference",
                                        "configuration_observed.json"), encoding="utf-8"))


def _replay(case) -> Configuration:
    conf = Configuration()
    for op, key, value in case["ops"]:
        if op == "s":
            conf.set_string(key, value)
        elif op == "i":
            conf.set_integer(key, value)
        elif op == "b":
            conf.set_boolean(key, value)
        elif op == "f":
            conf.set_float(key, value)
        else:
            conf.remove_config(key)
    if case["copy"] == "copy":
        conf = Configuration(conf)
    elif case["copy"] == "addall":
        conf = Configuration().set_string("zz", "1").add_all(conf)
    elif case["copy"] == "prefix":
        conf = Configuration().add_all(conf, "p.")
    return conf


@pytest.mark.parametrize("case", _OBSERVED["cases"], ids=lambda c: "%s-%d" % (c["copy"],
                                                                              len(c["ops"])))
def test_orders_and_hash_like_pyflink(case):
    conf = _replay(case)
    assert [list(kv) for kv in conf.to_dict().items()] == case["to_dict"]
    assert str(conf) == case["str"]
    assert hash(conf) == case["hash"]


def test_typed_values_and_string_forms():
    conf = Configuration()
    assert conf.set_integer("i", 5).get_string("i", "d") == "5"
    assert conf.set_string("s", "12").get_integer("s", 0) == 12
    assert conf.set_string("b", "TRUE").get_boolean("b", False) is True
    assert conf.set_boolean("bb", True).get_string("bb", "") == "true"
    assert conf.set_float("f", 1.5).get_string("f", "") == "1.5"
    assert conf.set_float("f2", 1e10).get_string("f2", "") == "1.0E10"
    assert conf.get_float("i", 0.0) == 5.0
    assert conf.set_integer("big", 2 ** 40).get_integer("big", 0) == 1099511627776
    assert conf.get_string("missing", "dflt") == "dflt"
    assert conf.get_string("missing", None) is None
    assert conf.get_integer("missing", 3) == 3
    assert conf.set_bytearray("ba", bytearray(b"\x01\x02")).get_bytearray("ba", bytearray()) \
        == bytearray(b"\x01\x02")
    assert conf.get_string("ba", "") == "!!binary |-\n  AQI="
    assert Configuration().set_bytearray("b", bytearray(range(100))).get_string("b", None) == \
        _OBSERVED["bytes100_get_string"]
    assert sorted(conf.key_set()) == ['b', 'ba', 'bb', 'big', 'f', 'f2', 'i', 's']
    assert (conf.contains_key("i"), conf.contains_key("nope")) == (True, False)
    assert (conf.remove_config("i"), conf.remove_config("i")) == (True, False)


def test_conversion_errors_like_java():
    conf = Configuration().set_string("bad", "abc").set_integer("i", 5).set_float("f", 1.5)
    with pytest.raises(ValueError, match='For input string: "abc"'):
        conf.get_integer("bad", 7)
    with pytest.raises(ValueError, match="Unrecognized option for boolean: abc. Expected either "
                                         r"true or false\(case insensitive\)"):
        conf.get_boolean("bad", False)
    with pytest.raises(ValueError, match="Unrecognized option for boolean: 5"):
        conf.get_boolean("i", False)
    with pytest.raises(ValueError, match='For input string: "1.5"'):
        conf.get_integer("f", 0)
    with pytest.raises(ValueError, match="cannot evaluate value 5 as a byte"):
        conf.get_bytearray("i", bytearray())
    with pytest.raises(TypeError):
        Configuration().set_string("k", 5)
    assert Configuration().set_integer("k", 5).get_float("k", 0.0) == 5.0
    with pytest.raises(ValueError):
        Configuration().set_float("k", 5.0).get_integer("k", 0)


def test_add_all_copy_equality():
    source = Configuration().set_string("x", "1")
    assert Configuration().add_all(source, "p.").to_dict() == {'p.x': '1'}
    assert Configuration().add_all(source).to_dict() == {'x': '1'}
    clone = Configuration(source)
    assert clone.to_dict() == {'x': '1'}
    assert (clone == source, Configuration() == source, hash(clone) == hash(source)) == \
        (True, False, True)
    clone.set_string("y", "2")
    assert not source.contains_key("y")
    assert Configuration().set_integer("a", 1) != Configuration().set_string("a", "1")
    assert copy.deepcopy(source) == source and copy.deepcopy(source) is not source
    target = {}
    Configuration().set_integer("a", 1).set_boolean("b", True).add_all_to_dict(target)
    assert target == {'a': 1, 'b': True}


def test_str_shows_java_values():
    text = str(Configuration().set_integer("k", 5).set_string("s", "v"))
    assert text == "{s=v, k=5}"
    conf = Configuration().set_integer("i", 5).set_string("bad", "abc").set_float("f2", 1e10)
    conf.set_bytearray("ba", bytearray(b"\x01\x02"))
    assert conf.to_dict() == {'i': '5', 'bad': 'abc', 'f2': '1.0E10', 'ba': '!!binary |-\n  AQI='}
    assert list(conf.to_dict()) == ['i', 'bad', 'f2', 'ba']
    assert re.fullmatch(r"\{bad=abc, i=5, f2=1\.0E10, ba=\[B@[0-9a-f]+\}", str(conf))
    assert re.fullmatch(r"\{b=\[B@[0-9a-f]+\}", str(Configuration().set_bytearray("b", b"x")))


def test_parse_list_value():
    assert Configuration.parse_list_value("a;b") == ['a', 'b']
    assert Configuration.parse_list_value("[a, b]") == ['a', 'b']
    assert Configuration.parse_list_value("") == []
    assert Configuration.parse_list_value("a;b", False) == ['a', 'b']
    assert Configuration.parse_list_value("['x;y', 2]") == ['x;y', 2]


def test_no_jvm_constructor():
    with pytest.raises(NotImplementedError, match="Configuration"):
        Configuration(j_configuration=object())
