"""The jdbc table connector against PostgreSQL in BATCH mode: columns of Flink's types
written by INSERT (upserts by a primary key, NULLs) and read back by a jdbc source and by
psql. The server's JDBC URL comes from PYFLINK_ON_SPARK_TEST_POSTGRES_URL (the tests'
`postgres` fixture).

Real PyFlink 1.20 needs flink-connector-jdbc 3.1.2-1.18 and the PostgreSQL driver, from the
local Maven repository (postgres_upsert.py says how to fetch them)."""
import os
import subprocess

from pyflink.table import EnvironmentSettings, TableEnvironment

URL = os.environ["PYFLINK_ON_SPARK_TEST_POSTGRES_URL"]
M2 = os.path.expanduser("~/.m2/repository")
JARS = [M2 + "/org/apache/flink/flink-connector-jdbc/3.1.2-1.18/flink-connector-jdbc-3.1.2-1.18.jar",
        M2 + "/org/postgresql/postgresql/42.7.4/postgresql-42.7.4.jar"]


def psql(sql):
    return subprocess.run(["psql", URL[len("jdbc:"):], "-qAtc", sql], check=True,
                          capture_output=True, text=True).stdout


psql("DROP TABLE IF EXISTS compat_types; CREATE TABLE compat_types (id int PRIMARY KEY, "
     "s smallint, b bigint, f real, d double precision, n numeric(10, 2), t text, "
     "v varchar(10), ok boolean, dt date, ts timestamp(3))")

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
# PyFlink needs the connector and driver jars; the shim reaches PostgreSQL through psycopg
t_env.get_config().set("pipeline.jars", ";".join("file://" + j for j in JARS if os.path.exists(j)))
t_env.execute_sql(
    "CREATE TABLE types (id INT, s SMALLINT, b BIGINT, f FLOAT, d DOUBLE, n DECIMAL(10, 2), "
    "t STRING, v VARCHAR(10), ok BOOLEAN, dt DATE, ts TIMESTAMP(3), "
    "PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = '%s', "
    "'table-name' = 'compat_types', 'sink.buffer-flush.max-rows' = '1')" % URL)
t_env.execute_sql(
    "INSERT INTO types VALUES (1, CAST(7 AS SMALLINT), 10000000000, CAST(0.1 AS FLOAT), 0.1, "
    "CAST(12.345 AS DECIMAL(10, 2)), 'text', 'var', TRUE, DATE '2024-01-02', "
    "TIMESTAMP '2024-01-02 03:04:05.678'), "
    "(2, CAST(NULL AS SMALLINT), CAST(NULL AS BIGINT), CAST(NULL AS FLOAT), "
    "CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS STRING), "
    "CAST(NULL AS VARCHAR(10)), CAST(NULL AS BOOLEAN), CAST(NULL AS DATE), "
    "CAST(NULL AS TIMESTAMP(3))), "
    "(3, CAST(-3 AS SMALLINT), -1, CAST(1.5 AS FLOAT), -2.25, CAST(-0.5 AS DECIMAL(10, 2)), "
    "'', 'x y', FALSE, DATE '1999-12-31', TIMESTAMP '1999-12-31 23:59:59')").wait()
print(psql("SELECT * FROM compat_types ORDER BY id"), end="")
t_env.execute_sql(
    "INSERT INTO types VALUES (1, CAST(8 AS SMALLINT), 1, CAST(2.5 AS FLOAT), 1e300, "
    "CAST(99.99 AS DECIMAL(10, 2)), 'again', 'v2', FALSE, DATE '2024-02-29', "
    "TIMESTAMP '2024-02-29 00:00:00.001')").wait()
print(psql("SELECT * FROM compat_types ORDER BY id"), end="")
t_env.execute_sql("SELECT * FROM types ORDER BY id").print()
for row in t_env.sql_query("SELECT id, f, n, ts FROM types ORDER BY id").execute().collect():
    print(row)
