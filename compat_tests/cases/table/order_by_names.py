"""ORDER BY names the select list's items as written: a name two items give (equal names,
an alias equal to a column, a star's column and the column again) is ambiguous, in an
expression too and in a subquery; a qualified column, an ordinal, a name the select list
gives once and a column of the FROM not selected order the rows."""
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.create_temporary_view("t", t_env.from_elements([(1, "a"), (2, "b"), (3, "a")],
                                                     ["k", "v"]))
for query in ["SELECT k, k FROM t ORDER BY k", "SELECT k, v AS k FROM t ORDER BY k",
              "SELECT k AS x, k AS x FROM t ORDER BY x", "SELECT *, k FROM t ORDER BY k",
              "SELECT k, k FROM t GROUP BY k ORDER BY k",
              "SELECT k, COUNT(*) AS k FROM t GROUP BY k ORDER BY k",
              "SELECT k, k FROM t ORDER BY v DESC, k + 1",
              "SELECT k, k FROM t ORDER BY `k` LIMIT 2",
              "SELECT * FROM (SELECT k, k FROM t ORDER BY k)",
              "SELECT k, k FROM t ORDER BY 1 DESC", "SELECT k, k FROM t ORDER BY t.k DESC",
              "SELECT k, k, v FROM t ORDER BY v, k0",
              "SELECT v AS k, k AS v FROM t ORDER BY k DESC, v",
              "SELECT v FROM t ORDER BY k DESC", "SELECT *, k FROM t ORDER BY v DESC, 1",
              "SELECT UPPER(v) AS u, k FROM t ORDER BY u DESC, k",
              "SELECT v, SUM(k) AS s FROM t GROUP BY v ORDER BY s DESC",
              "SELECT k FROM t UNION ALL SELECT k FROM t ORDER BY k DESC"]:
    try:
        table = t_env.sql_query(query)
        with table.execute().collect() as rows:
            print(query, "->", table.get_schema().get_field_names(), [str(r) for r in rows])
    except Exception as e:
        print(query, "-> ambiguous:", "is ambiguous" in str(e),
              "not found:", "not found in any table" in str(e))
