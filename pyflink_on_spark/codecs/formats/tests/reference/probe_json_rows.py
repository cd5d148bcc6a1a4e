"""Records what flink-json's JsonRowDeserializationSchema (PyFlink 1.20) makes of malformed
and oddly typed JSON messages, with and without ignore_parse_errors / fail_on_missing_field.

Run with real PyFlink: `/opt/venvs/flink/bin/python probe_json_rows.py > json_row_observed.json`.
The Java schema is built by PyFlink's builder and called through the gateway (no job runs).
"""
import json
import sys

from py4j.protocol import Py4JJavaError
from pyflink.common import Types
from pyflink.datastream.formats.json import JsonRowDeserializationSchema

MESSAGES = ['{"a":1,"b":"x"}', '{"a":1} trailing', '{"a":1}{"a":2}', 'NaN', '{"a":NaN}', '',
            '  ', '[1]', '{"a":"1"}', '{"a":1,"a":2}', '{"a":1', 'null', '{"a":1e400}',
            '{"a":"x"}', "{'a':1}", '{"a":1.9}', '{"a":true}', '{"b":"x"}',
            '{"a":2147483648}', '{"a":1,}', '{"a":01}', '1', '"str"', '{"b":1}', '{"a":null}',
            '{"a":[1]}', '{"a":{"x":1}}', '{"b":{"x":1}}', '{"b":2}']
VALUES = ['1', '1.9', '-1.9', '"7"', '" 7 "', 'true', 'false', '"true"', '"yes"', '"x"',
          '9223372036854775808', '1e400', '[1]', '{"x":1}', 'null', '"1e3"', '"NaN"', '0']
TYPES = {"int": Types.INT(), "string": Types.STRING(), "long": Types.LONG(),
         "double": Types.DOUBLE(), "boolean": Types.BOOLEAN()}


def observe(names, types, messages, ignore, fail_missing):
    builder = JsonRowDeserializationSchema.builder().type_info(
        Types.ROW_NAMED(names, [TYPES[t] for t in types]))
    if ignore:
        builder = builder.ignore_parse_errors()
    if fail_missing:
        builder = builder.fail_on_missing_field()
    j_schema = builder.build()._j_deserialization_schema
    j_schema.open(None)
    for text in messages:
        record = {"types": types, "names": names, "ignore": ignore,
                  "fail_missing": fail_missing, "input": text, "row": None, "error": None}
        try:
            row = j_schema.deserialize(bytearray(text.encode()))
            if row is not None:      # py4j turns Java numbers/booleans into Python ones
                record["row"] = [None if row.getField(i) is None else str(row.getField(i))
                                 for i in range(row.getArity())]
        except Py4JJavaError as e:
            causes = [line for line in str(e).splitlines() if "Exception:" in line]
            record["error"] = causes[-1] if causes else str(e)[:200]
        yield record


def main() -> None:
    out = []
    for ignore, fail_missing in ((False, False), (False, True), (True, False)):
        out += observe(["a", "b"], ["int", "string"], MESSAGES, ignore, fail_missing)
    for ignore in (False, True):
        for field in ("l", "d", "z"):
            out += observe(["l", "d", "z"], ["long", "double", "boolean"],
                           ['{"%s":%s}' % (field, v) for v in VALUES], ignore, False)
    json.dump(out, sys.stdout, indent=0)


if __name__ == "__main__":
    main()
