"""ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) in BATCH mode: Flink's Top-N (WHERE rn <=
N), deduplication (WHERE rn = 1) and the numbering alone, rn a BIGINT NOT NULL; values without
ties in each partition's order, so the numbering is one. (STREAMING mode, where PyFlink emits
the Top-N's rank updates as a changelog, is refused by pyflink_on_spark: docs/table.md.)"""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
rows = [('a', 3, 1), ('b', 5, 2), ('a', 7, 3), ('a', 1, 4), ('b', 2, 5), ('a', 9, 6),
        ('b', 8, 7), ('c', None, 8)]
t_env.create_temporary_view('t', t_env.from_elements(rows, ['k', 'v', 'n']))
for query in (
        "SELECT k, v, rn FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) "
        "AS rn FROM t) WHERE rn <= 2",
        "SELECT k, v, n FROM (SELECT k, v, n, ROW_NUMBER() OVER (PARTITION BY k ORDER BY n DESC)"
        " AS rn FROM t) WHERE rn = 1",
        "SELECT k, v, ROW_NUMBER() OVER (ORDER BY n) AS rn FROM t"):
    table = t_env.sql_query(query)
    table.print_schema()
    with table.execute().collect() as results:
        for line in sorted(str(r) for r in results):
            print(line)
