"""Reserved words as bare identifiers (table/sql/reserved_words.py): refused with the parse
error PyFlink 1.20.5 gives, where it gives it. The word lists are checked against the probe's
output (tests/reference/reserved_words_observed.json, from reserved_words_probe.py); every
query and message below was seen on PyFlink 1.20.5 (sql_query of the same text over views t
(x, value) and u (x, y))."""
import json
import os

import pytest

from pyflink_on_spark.table.sql import SqlValidationError, UnsupportedSqlError, translate_query
from pyflink_on_spark.table.sql.reserved_words import REFERENCE_ONLY, RESERVED

REFERENCE = os.path.join(os.path.dirname(__file__), "reference")
OBSERVED = os.path.join(REFERENCE, "reserved_words_observed.json")
MESSAGES = os.path.join(REFERENCE, "reserved_words_messages_observed.json")
TABLES = {"t": [("x", "INT"), ("value", "INT")], "u": [("x", "INT"), ("y", "INT")],
          "w": [("x", "INT"), ("ts", "TIMESTAMP(3)")]}
PARSE_FAILED = "org.apache.flink.table.api.SqlParserException: SQL parse failed. "


def _observed():
    with open(OBSERVED) as f:
        return json.load(f)


def test_the_word_lists_are_the_probes():
    observed = _observed()
    assert RESERVED == {w for w, r in observed.items() if r["alias"] != "ok"}
    assert REFERENCE_ONLY == {w for w, r in observed.items()
                              if r["alias"] != "ok" and r["ref"] == "ok"}
    assert {"A", "DATA", "NAME", "KEY", "TYPE"} & RESERVED == set()    # documented, accepted


def test_every_probed_word_as_an_alias_fails_as_it_failed_on_pyflink():
    # reserved_words_messages_probe.py: each word as an alias in upper and in lower case
    with open(MESSAGES) as f:
        seen = json.load(f)
    assert len(seen) == 688
    for i, (word, messages) in enumerate(sorted(seen.items())):
        # each word in one case, upper and lower in turn (both cases of all words: 2x the time)
        case = "upper" if i % 2 else "lower"
        for written, message in ((getattr(word, case)(), messages[case]),):
            query = "SELECT x AS %s FROM u" % written
            if message == "ok":
                assert translate_query(query, TABLES).columns == ((written, "INT"),), word
            elif word in ("NOT", "SELECT", "UNNEST", "MATCH_RECOGNIZE"):
                # refused before: not parsed, or a construct the shim does not run
                with pytest.raises((SqlValidationError, UnsupportedSqlError)):
                    translate_query(query, TABLES)
            else:
                with pytest.raises(SqlValidationError) as refused:
                    translate_query(query, TABLES)
                assert str(refused.value) == \
                    "org.apache.flink.table.api.SqlParserException: " + message


@pytest.mark.parametrize("query, message", [
    ("SELECT value FROM t", 'Encountered "value" at line 1, column 8.'),
    ("SELECT x AS value FROM t", 'Encountered "value" at line 1, column 13.'),
    ("SELECT t.value FROM t", 'Encountered ". value" at line 1, column 9.'),
    ("SELECT x FROM t WHERE value = 2", 'Encountered "value" at line 1, column 23.'),
    ("SELECT COUNT(*) AS count FROM u", 'Encountered "count" at line 1, column 20.'),
    ("SELECT x,\n  y AS `time`, x AS day FROM u", 'Encountered "day" at line 2, column 21.'),
    ("SELECT x FROM u AS value", 'Encountered "value" at line 1, column 20.'),
    ("SELECT x FROM u value", 'Encountered "value" at line 1, column 17.'),
    ("SELECT x AS Value FROM u", 'Encountered "Value" at line 1, column 13.'),
    ("SELECT x AS VALUE FROM u", "Incorrect syntax near the keyword 'VALUE' at line 1, column 13."),
    ("SELECT x AS user FROM u", 'Encountered "user" at line 1, column 13.'),
    ("SELECT x AS current_date FROM u", 'Encountered "current_date" at line 1, column 13.'),
    ("SELECT x AS null FROM u", 'Encountered "null" at line 1, column 13.'),
    ("SELECT x AS value_of FROM u", 'Encountered "value_of" at line 1, column 13.'),
    ("SELECT VALUE FROM t", "Incorrect syntax near the keyword 'VALUE' at line 1, column 8."),
    ("SELECT x FROM t WHERE VALUE = 2",
     "Incorrect syntax near the keyword 'VALUE' at line 1, column 23."),
    ("SELECT t.VALUE FROM t", 'Encountered ". VALUE" at line 1, column 9.'),
    ("SELECT x FROM u VALUE", "Incorrect syntax near the keyword 'VALUE' at line 1, column 17."),
    ("SELECT x AS COUNT FROM u", "Incorrect syntax near the keyword 'COUNT' at line 1, column 13."),
    ("SELECT x AS Count FROM u", 'Encountered "Count" at line 1, column 13.'),
    ("SELECT x AS CURRENT_DATE FROM u",
     "Incorrect syntax near the keyword 'CURRENT_DATE' at line 1, column 13."),
    ("SELECT x, y FROM u ORDER BY value", 'Encountered "value" at line 1, column 29.'),
    ("SELECT x FROM u GROUP BY value", 'Encountered "value" at line 1, column 26.'),
    ("SELECT x FROM (SELECT x FROM u) value", 'Encountered "value" at line 1, column 33.'),
    ("SELECT x AS `value`, y AS day FROM u", 'Encountered "day" at line 1, column 27.'),
    ("SELECT  x  AS\tvalue FROM u", 'Encountered "value" at line 1, column 15.'),
    ("SELECT x FROM u WHERE x IN (SELECT value FROM t)",
     'Encountered "value" at line 1, column 36.'),
    ("SELECT x AS value FROM u UNION ALL SELECT 1", 'Encountered "value" at line 1, column 13.'),
])
def test_a_reserved_word_as_a_bare_identifier_fails_as_on_pyflink(query, message):
    with pytest.raises(SqlValidationError) as refused:
        translate_query(query, TABLES)
    assert str(refused.value) == PARSE_FAILED + message


@pytest.mark.parametrize("query", [
    "SELECT `value` FROM t",
    "SELECT v.x FROM u AS v",
    "SELECT x AS a, y AS data, x AS name, y AS key, x AS type FROM u",
    "SELECT SUM(x) AS total FROM u GROUP BY y HAVING SUM(x) > 0 ORDER BY total",
    "SELECT x AS count1 FROM u",
    "SELECT COUNT(*), CURRENT_DATE FROM u",             # a call; a function without ()
    "SELECT TIMESTAMPDIFF(DAY, ts, ts) FROM w",        # a time unit
])
def test_what_pyflink_accepts_is_accepted(query):
    assert translate_query(query, TABLES).sql
