"""The probe behind reserved_words_observed.json, run on PyFlink 1.20.5:
`PATH=/opt/venvs/flink/bin:$PATH python reserved_words_probe.py`. For each word of Flink
SQL's documented keyword list (flink_keywords.txt, the docs' "Reserved Keywords"), it asks
sql_query to read it as a bare column reference, an alias, a qualified column, a WHERE
operand, and in lower case, and keeps the first line of each error (or "ok")."""
import json
import os

from pyflink.table import EnvironmentSettings, TableEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
WORDS = open(os.path.join(HERE, "flink_keywords.txt")).read().split(", ")
t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
out = {}
for w in WORDS:
    if not w.replace("_", "").isalnum():
        continue
    t_env.create_temporary_view("t", t_env.from_elements([(1, 2)], ["x", w]))
    res = {}
    for ctx, q in (("ref", "SELECT %s FROM t"), ("alias", "SELECT x AS %s FROM t"),
                   ("qual", "SELECT t.%s FROM t"), ("where", "SELECT x FROM t WHERE %s = 2"),
                   ("lower_ref", "SELECT %s FROM t")):
        word = w.lower() if ctx == "lower_ref" else w
        try:
            t_env.sql_query(q % word)
            res[ctx] = "ok"
        except Exception as ex:
            msg = str(ex).strip()
            res[ctx] = msg.splitlines()[0][:200] if msg else repr(ex)[:200]
    t_env.drop_temporary_view("t")
    out[w] = res
json.dump(out, open(os.path.join(HERE, "reserved_words_observed.json"), "w"), indent=0)
print(len(out))
