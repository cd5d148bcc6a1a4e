"""JdbcSink.sink's credentials against MariaDB, through both Java drivers' URL schemes: which
user the statement runs as when the URL and with_user_name / with_password disagree. With
jdbc:mysql: (MySQL Connector/J) the builder's credentials win over the URL's; with
jdbc:mariadb: (MariaDB Connector/J) the URL's win and the builder's only fill in what it lacks.
The server's JDBC URL comes from PYFLINK_ON_SPARK_TEST_MARIADB_URL (the tests' `mariadb`
fixture); the user and the table are made and read back with the `mariadb` client.

Real PyFlink 1.20 needs flink-connector-jdbc 3.1.2-1.18 and both drivers, from the local
Maven repository:
  mvn dependency:get -Dartifact=org.apache.flink:flink-connector-jdbc:3.1.2-1.18 -Dtransitive=false
  mvn dependency:get -Dartifact=com.mysql:mysql-connector-j:8.4.0 -Dtransitive=false
  mvn dependency:get -Dartifact=org.mariadb.jdbc:mariadb-java-client:3.5.7 -Dtransitive=false
"""
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
        M2 + "/com/mysql/mysql-connector-j/8.4.0/mysql-connector-j-8.4.0.jar",
        M2 + "/org/mariadb/jdbc/mariadb-java-client/3.5.7/mariadb-java-client-3.5.7.jar"]


def mariadb(sql):
    return subprocess.run(["mariadb", "--no-defaults", "-h", HOST, "-P", PORT, "-u", "root",
                           "-N", "-B", DATABASE, "-e", sql], check=True, capture_output=True,
                          text=True).stdout


mariadb("DROP USER IF EXISTS 'compat_user'@'%'; "
        "CREATE USER 'compat_user'@'%' IDENTIFIED BY 'compat-pw'; "
        "GRANT ALL ON " + DATABASE + ".* TO 'compat_user'@'%'; "
        "DROP TABLE IF EXISTS compat_credentials; "
        "CREATE TABLE compat_credentials (id int PRIMARY KEY, via varchar(20), who varchar(80))")

env = StreamExecutionEnvironment.get_execution_environment()
env.add_jars(*["file://" + jar for jar in JARS if os.path.exists(jar)])
env.set_parallelism(1)
row = Types.ROW([Types.INT(), Types.STRING()])
INSERT = "INSERT INTO compat_credentials (id, via, who) VALUES (?, ?, CURRENT_USER())"
EXECUTION = JdbcExecutionOptions.builder().with_batch_size(1).with_max_retries(0).build()


def options(url, driver, user=None, password=None):
    builder = JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url) \
        .with_driver_name(driver)
    if user is not None:
        builder = builder.with_user_name(user)
    if password is not None:
        builder = builder.with_password(password)
    return builder.build()


base = "//%s:%s/%s" % (HOST, PORT, DATABASE)
# the URL names root; the builder names compat_user
env.from_collection([Row(1, "mysql url root")], type_info=row).add_sink(JdbcSink.sink(
    INSERT, row, options("jdbc:mysql:" + base + "?user=root", "com.mysql.cj.jdbc.Driver",
                         "compat_user", "compat-pw"), EXECUTION))
# the URL names compat_user and its password; the builder names root
env.from_collection([Row(2, "mariadb url compat")], type_info=row).add_sink(JdbcSink.sink(
    INSERT, row, options("jdbc:mariadb:" + base + "?user=compat_user&password=compat-pw",
                         "org.mariadb.jdbc.Driver", "root"), EXECUTION))
# the URL names compat_user without a password; the builder's password fills it in
env.from_collection([Row(3, "mariadb url user")], type_info=row).add_sink(JdbcSink.sink(
    INSERT, row, options("jdbc:mariadb:" + base + "?user=compat_user",
                         "org.mariadb.jdbc.Driver", "root", "compat-pw"), EXECUTION))
env.execute("jdbc credentials")
print(mariadb("SELECT id, via, who FROM compat_credentials ORDER BY id"), end="")
