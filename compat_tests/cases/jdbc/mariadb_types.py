"""JdbcSink.sink into MariaDB, the field types compat case jdbc/mariadb_upsert leaves out:
SQL_TIME with a fraction, BYTE / SHORT / LONG at their limits, a string holding a quote, a
percent sign, a backslash, a question mark and a non-ASCII letter (escaped by the driver, never
read as SQL or as a placeholder), NULL, and timestamps with milliseconds. The server's JDBC URL
comes from PYFLINK_ON_SPARK_TEST_MARIADB_URL (the tests' `mariadb` fixture); the table is made
and read back with the `mariadb` client.

Real PyFlink 1.20 needs flink-connector-jdbc 3.1.2-1.18 and MariaDB Connector/J from the local
Maven repository (see jdbc/mariadb_upsert.py for the mvn commands).
"""
import datetime
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


mariadb("DROP TABLE IF EXISTS compat_types; CREATE TABLE compat_types (id int PRIMARY KEY, "
        "t time(6), b tinyint, s smallint, l bigint, txt varchar(40), ts datetime(6))")

env = StreamExecutionEnvironment.get_execution_environment()
env.add_jars(*["file://" + jar for jar in JARS if os.path.exists(jar)])
env.set_parallelism(1)
row = Types.ROW([Types.INT(), Types.SQL_TIME(), Types.BYTE(), Types.SHORT(), Types.LONG(),
                 Types.STRING(), Types.SQL_TIMESTAMP()])
records = [
    Row(1, datetime.time(12, 30, 15, 250000), -5, 300, 2 ** 40, "it's 100% \\ ok ? \u00e9",
        datetime.datetime(2024, 3, 31, 2, 30, 0)),
    Row(2, datetime.time(0, 0, 1), 127, -32768, -2 ** 63, None,
        datetime.datetime(1970, 1, 1, 0, 0, 0, 1000)),
    Row(3, None, -128, 32767, 2 ** 63 - 1, "", None),
]
env.from_collection(records, type_info=row).add_sink(JdbcSink.sink(
    "INSERT INTO compat_types VALUES (?, ?, ?, ?, ?, ?, ?)", row,
    JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(URL)
    .with_driver_name("org.mariadb.jdbc.Driver").build(),
    JdbcExecutionOptions.builder().with_batch_size(2).build()))
env.execute("jdbc types")
print(mariadb("SELECT * FROM compat_types ORDER BY id"), end="")
