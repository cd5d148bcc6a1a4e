"""JdbcSink.sink with an upsert statement (INSERT ... ON DUPLICATE KEY UPDATE) against MariaDB:
Flink's field types (int, string, double, float, BigDecimal, SQL date / timestamp, bytes,
boolean, NULL) as the table stores them, upserts in batches of 2; a FLOAT field goes to a
FLOAT and to a DOUBLE column (what the driver sends for it shows in the DOUBLE). The server's
JDBC URL comes from PYFLINK_ON_SPARK_TEST_MARIADB_URL (set by the tests' `mariadb` fixture);
the table is created and read back with the `mariadb` command-line client.

Real PyFlink 1.20 needs flink-connector-jdbc 3.1.2-1.18 (PyFlink 1.20's JdbcSink reflects on
JdbcOutputFormat.createRowJdbcStatementBuilder, which the 3.2+ releases moved) and MariaDB
Connector/J, from the local Maven repository:
  mvn dependency:get -Dartifact=org.apache.flink:flink-connector-jdbc:3.1.2-1.18 -Dtransitive=false
  mvn dependency:get -Dartifact=org.mariadb.jdbc:mariadb-java-client:3.5.7 -Dtransitive=false
"""
import datetime
import decimal
import os
import re
import subprocess

from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.jdbc import (JdbcConnectionOptions, JdbcExecutionOptions,
                                                JdbcSink)

URL = os.environ["PYFLINK_ON_SPARK_TEST_MARIADB_URL"]
HOST, PORT, DATABASE = re.match(r"jdbc:mariadb://([^:/]+):(\d+)/([^?]+)", URL).groups()
M2 = os.path.expanduser("~/.m2/repository")
JARS = [M2 + "/org/apache/flink/flink-connector-jdbc/3.1.2-1.18/flink-connector-jdbc-3.1.2-1.18.jar",
        M2 + "/org/mariadb/jdbc/mariadb-java-client/3.5.7/mariadb-java-client-3.5.7.jar"]


def mariadb(sql):
    return subprocess.run(["mariadb", "--no-defaults", "-h", HOST, "-P", PORT, "-u", "root",
                           "-N", "-B", DATABASE, "-e", sql], check=True, capture_output=True,
                          text=True).stdout


mariadb("DROP TABLE IF EXISTS compat_upsert; CREATE TABLE compat_upsert (id int PRIMARY KEY, "
        "name varchar(40), amount double, ratio float, ratio_d double, price decimal(10, 2), "
        "day date, at datetime(6), raw varbinary(8), ok boolean, updates int DEFAULT 0)")

env = StreamExecutionEnvironment.get_execution_environment()
# PyFlink needs the connector and driver jars (fetched with mvn where it is recorded); the
# shim runs the statement on Python's drivers, and add_jars of a missing file fails on both
env.add_jars(*["file://" + jar for jar in JARS if os.path.exists(jar)])
env.set_parallelism(1)
row = Types.ROW_NAMED(["id", "name", "amount", "ratio", "ratio_d", "price", "day", "at", "raw",
                       "ok"],
                      [Types.INT(), Types.STRING(), Types.DOUBLE(), Types.FLOAT(), Types.FLOAT(),
                       Types.BIG_DEC(), Types.SQL_DATE(), Types.SQL_TIMESTAMP(),
                       Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.BOOLEAN()])


def record(i, name, amount):
    return Row(i, name, amount, i / 3, i / 7, decimal.Decimal("%d.25" % i),
               datetime.date(2024, 1, i), datetime.datetime(2024, 1, i, 12, 30, 15, 250000),
               bytes([i, 255]), i % 2 == 0)


records = [record(i, "v%d" % i, 1.0) for i in range(1, 5)] + \
    [record(2, "second", 2.5), record(3, None, 0.5)]
env.from_collection(records, type_info=row).add_sink(JdbcSink.sink(
    "INSERT INTO compat_upsert (id, name, amount, ratio, ratio_d, price, day, at, raw, ok) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE name = VALUES(name), "
    "amount = amount + VALUES(amount), updates = updates + 1",
    row,
    JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(URL)
    .with_driver_name("org.mariadb.jdbc.Driver").build(),
    JdbcExecutionOptions.builder().with_batch_size(2).with_batch_interval_ms(0)
    .with_max_retries(1).build()))
env.execute("jdbc upsert")
print(mariadb("SELECT id, name, amount, ratio, ratio_d, price, day, at, HEX(raw), ok, updates "
              "FROM compat_upsert ORDER BY id"), end="")
