"""JsonRowDeserializationSchema's reading of malformed and oddly typed messages, replayed
against what flink-json did on PyFlink 1.20 (reference/probe_json_rows.py wrote
reference/json_row_observed.json): same rows, same skips with ignore_parse_errors, a failure
naming the same cause otherwise."""
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyflink_on_spark.codecs.formats.fields import Field
from pyflink_on_spark.codecs.formats.json_rows import deserialize_row

_OBSERVED = os.path.join(os.path.dirname(__file__), "reference", "json_row_observed.json")


def _observed():
    with open(_OBSERVED) as f:
        return json.load(f)


def _row_field(names, types):
    return Field("row", names=tuple(names), fields=tuple(Field(t) for t in types))


def _innermost(error: str) -> str:
    return error.split("Exception: ", 1)[-1].strip()


@pytest.mark.parametrize("case", _observed(), ids=lambda c: "%s%s:%s" % (
    "ignore:" if c["ignore"] else "", "strict:" if c["fail_missing"] else "", c["input"]))
def test_json_rows_match_flink(case):
    field = _row_field(case["names"], case["types"])
    message = case["input"].encode()
    if case["error"] is None:
        row = deserialize_row(message, field, case["fail_missing"], case["ignore"])
        got = None if row is None else [None if v is None else str(v) for v in row]
        assert got == case["row"]
    else:
        with pytest.raises(ValueError) as raised:
            deserialize_row(message, field, case["fail_missing"], case["ignore"])
        cause = _innermost(case["error"])
        if "cannot be cast" in cause:    # Java's ClassCastException: a non-object message
            assert "expected an object" in str(raised.value) or "end-of-input" in str(
                raised.value)
        elif "JsonParseException" in case["error"] or "JsonEOFException" in case["error"]:
            assert str(raised.value).startswith("Failed to deserialize JSON")
        else:
            assert cause in str(raised.value)


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from(list('{}[]:,"ab1.e-tn ul\\')), max_size=30), st.booleans())
def test_any_message_is_a_row_none_or_a_value_error(text, ignore):
    field = _row_field(["a", "b"], ["int", "string"])
    try:
        row = deserialize_row(text.encode(), field, False, ignore)
    except ValueError:
        assert not ignore
        return
    assert row is None or len(row) == 2
