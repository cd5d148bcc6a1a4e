"""JdbcSink.sink with an upsert statement against PostgreSQL: Flink's field types (int, string,
double, float, BigDecimal, SQL date / timestamp, bytes, boolean, NULL) as the table stores them,
upserts in batches of 2. The server's JDBC URL comes from PYFLINK_ON_SPARK_TEST_POSTGRES_URL
(set by the tests' `postgres` fixture); the table is created and read back with psql.

Real PyFlink 1.20 needs flink-connector-jdbc 3.1.2-1.18 (PyFlink 1.20's JdbcSink reflects on
JdbcOutputFormat.createRowJdbcStatementBuilder, which the 3.2+ releases moved) and the
PostgreSQL driver, from the local Maven repository:
  mvn dependency:get -Dartifact=org.apache.flink:flink-connector-jdbc:3.1.2-1.18 -Dtransitive=false
  mvn dependency:get -Dartifact=org.postgresql:postgresql:42.7.4 -Dtransitive=false
"""
import datetime
import decimal
import os
import subprocess

from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.jdbc import (JdbcConnectionOptions, JdbcExecutionOptions,
                                                JdbcSink)

URL = os.environ["PYFLINK_ON_SPARK_TEST_POSTGRES_URL"]
M2 = os.path.expanduser("~/.m2/repository")
JARS = [M2 + "/org/apache/flink/flink-connector-jdbc/3.1.2-1.18/flink-connector-jdbc-3.1.2-1.18.jar",
        M2 + "/org/postgresql/postgresql/42.7.4/postgresql-42.7.4.jar"]


def psql(sql):
    return subprocess.run(["psql", URL[len("jdbc:"):], "-qAtc", sql], check=True,
                          capture_output=True, text=True).stdout


psql("DROP TABLE IF EXISTS compat_upsert; CREATE TABLE compat_upsert (id int PRIMARY KEY, "
     "name text, amount double precision, ratio real, price numeric(10, 2), day date, "
     "at timestamp, raw bytea, ok boolean, updates int DEFAULT 0)")

env = StreamExecutionEnvironment.get_execution_environment()
# PyFlink needs the connector and driver jars (fetched with mvn where it is recorded); the
# shim runs the statement on Python's drivers, and add_jars of a missing file fails on both
env.add_jars(*["file://" + jar for jar in JARS if os.path.exists(jar)])
env.set_parallelism(1)
row = Types.ROW_NAMED(["id", "name", "amount", "ratio", "price", "day", "at", "raw", "ok"],
                      [Types.INT(), Types.STRING(), Types.DOUBLE(), Types.FLOAT(),
                       Types.BIG_DEC(), Types.SQL_DATE(), Types.SQL_TIMESTAMP(),
                       Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.BOOLEAN()])


def record(i, name, amount):
    return Row(i, name, amount, i / 3, decimal.Decimal("%d.25" % i), datetime.date(2024, 1, i),
               datetime.datetime(2024, 1, i, 12, 30, 15, 250000), bytes([i, 255]), i % 2 == 0)


records = [record(i, "v%d" % i, 1.0) for i in range(1, 5)] + \
    [record(2, "second", 2.5), record(3, None, 0.5)]
env.from_collection(records, type_info=row).add_sink(JdbcSink.sink(
    "INSERT INTO compat_upsert (id, name, amount, ratio, price, day, at, raw, ok) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, "
    "amount = compat_upsert.amount + EXCLUDED.amount, updates = compat_upsert.updates + 1",
    row,
    JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(URL)
    .with_driver_name("org.postgresql.Driver").build(),
    JdbcExecutionOptions.builder().with_batch_size(2).with_batch_interval_ms(0)
    .with_max_retries(1).build()))
env.execute("jdbc upsert")
print(psql("SELECT * FROM compat_upsert ORDER BY id"), end="")
