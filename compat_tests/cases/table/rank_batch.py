"""RANK() and DENSE_RANK() OVER (PARTITION BY ... ORDER BY ...) in BATCH mode: a Top-N over
values with ties (tied rows share a rank; RANK leaves the gap after them, DENSE_RANK not) and
the ranks alone, NULL first for ASC, last for DESC; each rank a BIGINT NOT NULL."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
rows = [('a', 3, 1), ('a', None, 2), ('b', 5, 3), ('a', 5, 4), ('a', 7, 5), ('b', 2, 6),
        ('a', 9, 7), ('a', 7, 8), ('b', 8, 9), ('a', 5, 10), ('b', None, 11)]
t_env.create_temporary_view('t', t_env.from_elements(rows, ['k', 'v', 'n']))
for query in (
        "SELECT k, v, n, r FROM (SELECT k, v, n, RANK() OVER (PARTITION BY k ORDER BY v DESC) "
        "AS r FROM t) WHERE r <= 3",
        "SELECT k, v, n, RANK() OVER (PARTITION BY k ORDER BY v) AS r, DENSE_RANK() OVER "
        "(PARTITION BY k ORDER BY v) AS d FROM t"):
    table = t_env.sql_query(query)
    table.print_schema()
    with table.execute().collect() as results:
        for line in sorted(str(r) for r in results):
            print(line)
