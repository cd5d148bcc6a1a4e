"""The jdbc table connector against PostgreSQL in STREAMING mode: a partitioned bounded scan
(scan.partition.*: Flink reads its 3 splits last first at parallelism 1), an append INSERT of
an insert-only query (in the order it ran: the table's heap order), Table.execute_insert, an
upsert INSERT of a GROUP BY aggregate into a table with a primary key, and the updating query
refused for a table without one. The server's JDBC URL comes from
PYFLINK_ON_SPARK_TEST_POSTGRES_URL (the tests' `postgres` fixture); tables are made and read
back with psql.

Real PyFlink 1.20 needs flink-connector-jdbc 3.1.2-1.18 and the PostgreSQL driver, from the
local Maven repository (postgres_upsert.py says how to fetch them)."""
import os
import subprocess

from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

URL = os.environ["PYFLINK_ON_SPARK_TEST_POSTGRES_URL"]
M2 = os.path.expanduser("~/.m2/repository")
JARS = [M2 + "/org/apache/flink/flink-connector-jdbc/3.1.2-1.18/flink-connector-jdbc-3.1.2-1.18.jar",
        M2 + "/org/postgresql/postgresql/42.7.4/postgresql-42.7.4.jar"]


def psql(sql):
    return subprocess.run(["psql", URL[len("jdbc:"):], "-qAtc", sql], check=True,
                          capture_output=True, text=True).stdout


psql("DROP TABLE IF EXISTS compat_orders, compat_big, compat_totals; "
     "CREATE TABLE compat_orders (id int, customer text, amount double precision); "
     "INSERT INTO compat_orders SELECT i, 'c' || (i % 3), i * 1.25 FROM generate_series(1, 10) i; "
     "CREATE TABLE compat_big (id int, customer text, amount double precision); "
     "CREATE TABLE compat_totals (customer text PRIMARY KEY, total double precision, n bigint)")

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
# PyFlink needs the connector and driver jars; the shim reaches PostgreSQL through psycopg
t_env.get_config().set("pipeline.jars", ";".join("file://" + j for j in JARS if os.path.exists(j)))
t_env.execute_sql(
    "CREATE TABLE orders (id INT, customer STRING, amount DOUBLE) WITH ('connector' = 'jdbc', "
    "'url' = '%s', 'table-name' = 'compat_orders', 'scan.partition.column' = 'id', "
    "'scan.partition.num' = '3', 'scan.partition.lower-bound' = '1', "
    "'scan.partition.upper-bound' = '10')" % URL)
t_env.execute_sql(
    "CREATE TABLE big (id INT, customer STRING, amount DOUBLE) WITH ('connector' = 'jdbc', "
    "'url' = '%s', 'table-name' = 'compat_big', 'sink.buffer-flush.max-rows' = '2')" % URL)
t_env.execute_sql(
    "CREATE TABLE totals (customer STRING, total DOUBLE, n BIGINT, "
    "PRIMARY KEY (customer) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = '%s', "
    "'table-name' = 'compat_totals')" % URL)

t_env.execute_sql("SELECT * FROM orders").print()
t_env.execute_sql("INSERT INTO big SELECT id, UPPER(customer), amount * 2 FROM orders "
                  "WHERE amount > 6").wait()
t_env.from_path("orders").filter(col("id") <= 2).execute_insert("big").wait()
print(psql("SELECT * FROM compat_big"), end="")
t_env.execute_sql("INSERT INTO totals SELECT customer, SUM(amount), COUNT(*) FROM orders "
                  "GROUP BY customer").wait()
print(psql("SELECT * FROM compat_totals ORDER BY customer"), end="")
try:
    t_env.execute_sql("INSERT INTO big SELECT MAX(id), customer, SUM(amount) FROM orders "
                      "GROUP BY customer").wait()
except Exception as e:
    print("refused:", "please declare primary key for sink table when query contains "
          "update/delete record." in str(e))
