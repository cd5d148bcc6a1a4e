"""Flink's tableau rendering (table/tableau.py), without Spark: widths from the column types,
long strings cut, <NULL>, the op column in STREAMING mode, the row count line."""
import decimal

from pyflink_on_spark.specs.tables import TableColumn
from pyflink_on_spark.table.tableau import tableau, type_width


def test_widths_come_from_types_names_and_null():
    assert [type_width(t) for t in ("STRING", "INT", "BIGINT", "BOOLEAN", "DECIMAL(10, 2)",
                                    "TIMESTAMP(3)", "DATE", "DOUBLE")] == \
        [30, 11, 20, 5, 12, 23, 10, 30]


def test_a_streaming_result_with_kinds_nulls_and_long_strings():
    columns = (TableColumn("k", "STRING"), TableColumn("flag", "BOOLEAN"),
               TableColumn("de", "DECIMAL(4, 2)"), TableColumn("d", "DOUBLE"))
    rows = [(("x" * 31, True, decimal.Decimal("3"), 1.5e7), 0),
            ((None, False, None, -0.25), 1)]
    assert tableau(columns, rows, streaming=True) == [
        "+----+--------------------------------+--------+--------+--------------------------------+",
        "| op |                              k |   flag |     de |                              d |",
        "+----+--------------------------------+--------+--------+--------------------------------+",
        "| +I | xxxxxxxxxxxxxxxxxxxxxxxxxxx... |   TRUE |   3.00 |                          1.5E7 |",
        "| -U |                         <NULL> |  FALSE | <NULL> |                          -0.25 |",
        "+----+--------------------------------+--------+--------+--------------------------------+",
        "2 rows in set"]
    assert tableau(columns, [], streaming=False) == ["Empty set"]
    assert tableau(columns[:1], [(("a",), 0)], streaming=False)[-1] == "1 row in set"


def test_bytes_print_as_hex_literals():
    columns = (TableColumn("b", "BYTES"),)
    assert tableau(columns, [((bytearray(b"ab"),), 0)], streaming=False)[3] == \
        "|                        x'6162' |"


def test_nanosecond_timestamps_print_nine_digits():
    import datetime
    columns = (TableColumn("t", "TIMESTAMP_LTZ(9)"),)
    line = tableau(columns, [((datetime.datetime(1970, 1, 1, 0, 0, 1, 500000),), 0)],
                   streaming=False)[3]
    assert line == "| 1970-01-01 00:00:01.500000000 |"


def test_array_map_and_row_values_print_as_flinks_tableau_with_null_inside():
    # seen on PyFlink 1.20.5: [x, y], {1=1.5}, (1, [2]); a NULL inside is NULL, a NULL
    # column <NULL>
    from pyflink_on_spark.table.tableau import value_text
    assert value_text(["x", None], "ARRAY<STRING>") == "[x, NULL]"
    assert value_text({1: 1.5}, "MAP<INT NOT NULL, DOUBLE>") == "{1=1.5}"
    assert value_text((None, "u"), "ROW<`p` INT, `q` STRING>") == "(NULL, u)"
    assert value_text((1, [2]), "ROW<`p` INT, `q` ARRAY<INT NOT NULL>>") == "(1, [2])"
    assert value_text(None, "ARRAY<STRING>") == "<NULL>"
