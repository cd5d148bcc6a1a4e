"""The probe behind reserved_words_messages_observed.json, run on PyFlink 1.20.5:
`PATH=/opt/venvs/flink/bin:$PATH python reserved_words_messages_probe.py`. For each word of
flink_keywords.txt, the parse error's text of `SELECT x AS <word> FROM u`, the word written in
upper case and in lower case ("ok" when accepted)."""
import json
import os

from pyflink.table import EnvironmentSettings, TableEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
WORDS = open(os.path.join(HERE, "flink_keywords.txt")).read().split(", ")
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.create_temporary_view("u", t_env.from_elements([(1, 2)], ["x", "y"]))


def message(query: str) -> str:
    try:
        t_env.sql_query(query)
        return "ok"
    except Exception as ex:
        lines = [line for line in str(ex).splitlines() if "SqlParser" in line]
        return lines[0].split("Exception: ", 1)[1] if lines else str(ex).splitlines()[0]


out = {}
for w in WORDS:
    if w.replace("_", "").isalnum():
        out[w] = {"upper": message("SELECT x AS %s FROM u" % w.upper()),
                  "lower": message("SELECT x AS %s FROM u" % w.lower())}
json.dump(out, open(os.path.join(HERE, "reserved_words_messages_observed.json"), "w"),
          indent=0)
print(len(out))
