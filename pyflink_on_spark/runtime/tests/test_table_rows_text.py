"""Rows as Flink's table connectors write them: every expected text below was written by
PyFlink 1.20.5 (print connector lines, filesystem csv / json files)."""
import datetime
from decimal import Decimal

import pytest

from pyflink_on_spark.codecs.table_rows_text import (check_types, csv_line, java_double,
                                                      json_line, print_line)

TYPES = ["INT", "BOOLEAN", "FLOAT", "DOUBLE", "DECIMAL(10, 2)", "DATE", "TIMESTAMP(3)",
         "STRING", "STRING"]
ROW = (1, True, 1.5, 2.25, Decimal("1.20"), datetime.date(2024, 1, 2),
       datetime.datetime(2024, 1, 2, 3, 4, 5, 120000), "x y", None)
ROW2 = (2, False, 1e10, 1e-5, Decimal("-3.00"), datetime.date(1999, 12, 31),
        datetime.datetime(2024, 1, 2, 3, 4, 5), "", "q")


def test_java_double_switches_to_exponents_outside_1e_3_to_1e7():
    assert [java_double(v) for v in (1.0, 2.25, 1e10, 1e-5, 0.0, 1.1e11, -3.5)] == \
        ["1.0", "2.25", "1.0E10", "1.0E-5", "0.0", "1.1E11", "-3.5"]
    assert java_double(0.1, single=True) == "0.1"


def test_print_lines():
    assert print_line(ROW, TYPES) == \
        "+I[1, true, 1.5, 2.25, 1.20, 2024-01-02, 2024-01-02T03:04:05.120, x y, null]"
    assert print_line(ROW2, TYPES) == \
        "+I[2, false, 1.0E10, 1.0E-5, -3.00, 1999-12-31, 2024-01-02T03:04:05, , q]"
    assert print_line((datetime.datetime(2024, 1, 2, 3, 4),), ["TIMESTAMP(3)"], 2) == \
        "+U[2024-01-02T03:04]"


def test_json_lines():
    names = ["a", "b", "f", "d", "dec", "dt", "ts", "s", "n"]
    assert json_line(ROW, names, TYPES) == (
        '{"a":1,"b":true,"f":1.5,"d":2.25,"dec":1.2,"dt":"2024-01-02",'
        '"ts":"2024-01-02 03:04:05.12","s":"x y","n":null}')
    assert json_line(ROW2, names, TYPES) == (
        '{"a":2,"b":false,"f":1.0E10,"d":1.0E-5,"dec":-3,"dt":"1999-12-31",'
        '"ts":"2024-01-02 03:04:05","s":"","n":"q"}')
    assert json_line((Decimal("100.00"), "a\nb"), ["dec", "s"], ["DECIMAL(10, 2)", "STRING"]) \
        == '{"dec":1E+2,"s":"a\\nb"}'


def test_csv_quotes_values_with_characters_below_the_separator():
    types = ["BIGINT", "STRING", "DOUBLE", "TIMESTAMP(3)", "INT"]
    assert csv_line((1, 'a,b"1', 1.0, datetime.datetime(2024, 1, 2, 3, 4, 5, 123000), None),
                    types, {}) == '1,"a,b""1",1.0,"2024-01-02 03:04:05.123",'
    texts = ["x y", "", "a!b", "plain", "#c", "tab\tx", "it's", "a;b", "ü", "-1"]
    assert [csv_line((t,), ["STRING"], {}) for t in texts] == \
        ['"x y"', '', '"a!b"', 'plain', '"#c"', '"tab\tx"', '"it\'s"', 'a;b', 'ü', '-1']
    assert csv_line((Decimal("100.00"), datetime.datetime(2024, 1, 2, 3, 4)),
                    ["DECIMAL(10, 2)", "TIMESTAMP(3)"], {}) == '"1E+2","2024-01-02 03:04:00"'


def test_csv_with_a_semicolon_quotes_digits_of_text_but_not_numbers():
    types = ["BIGINT", "STRING", "DOUBLE", "TIMESTAMP(3)", "STRING"]
    assert csv_line((1, "10", 0.25, datetime.datetime(2024, 1, 2, 3, 4, 6, 120000), None),
                    types, {"sep": ";"}) == '1;"10";0.25;"2024-01-02 03:04:06.12";'


def test_a_print_line_writes_timestamp_ltz_as_javas_instant():
    import datetime
    utc = datetime.timezone.utc
    types = ["TIMESTAMP_LTZ(3)"] * 3
    values = [datetime.datetime(1970, 1, 1, 0, 0, 5, tzinfo=utc),
              datetime.datetime(2024, 1, 2, 3, 4, 5, 120000, tzinfo=utc),
              datetime.datetime(2024, 1, 2, 3, 4, 5, 123456)]
    assert print_line(values, types) == \
        "+I[1970-01-01T00:00:05Z, 2024-01-02T03:04:05.120Z, 2024-01-02T03:04:05.123456Z]"
    check_types(types, "print")
    with pytest.raises(NotImplementedError, match="TIMESTAMP_LTZ"):
        check_types(types, "filesystem")
