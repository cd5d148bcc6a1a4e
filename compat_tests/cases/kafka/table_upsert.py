"""Upsert-kafka tables as sinks: a STREAMING GROUP BY count (an updating query) inserted into
an upsert-kafka table (json key and value: +I / +U rows written, -U rows not), into one with
a csv value of the columns besides the key (`value.fields-include` = `EXCEPT_KEY`, the key
`key_`-prefixed), into one keyed by the count (Flink's SinkUpsertMaterializer: a key's
rows kept, a tombstone when none is left, which the raw format reads as NULL), into one
that buffers (`sink.buffer-flush.*`: one record per key), and an
insert-only query with a repeated key (each row written); the topics read back as text by
'kafka' tables of the raw format, in topic order. Then what Flink rejects when the table is
used: no PRIMARY KEY, no key.format, a key prefix with `value.fields-include` = `ALL`.

The record keys (not readable here: PyFlink's DataStream KafkaSource and the shim's kafka
tables read values only) were compared with a plain consumer on PyFlink 1.20.5 and on the
shim: `{"k":"a"}` for a json key, `a` for a csv / raw one, the prefix stripped
(table/upsert_kafka_tables.py).

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (the
tests' `kafka_broker` fixture). Real PyFlink 1.20 needs flink-sql-connector-kafka 3.2.0-1.19:
  mvn dependency:get -Dartifact=org.apache.flink:flink-sql-connector-kafka:3.2.0-1.19
"""
import os
import uuid

from pyflink.common import Configuration
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")

# PyFlink's Kafka admin clients may log, on stdout, an error about the job's closed
# classloader when a job ends (seen under load); the check behind it is off
env = StreamExecutionEnvironment.get_execution_environment(
    Configuration().set_string("classloader.check-leaked-classloader", "false"))
if os.path.exists(JAR):
    env.add_jars("file://" + JAR)
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t_env.create_temporary_view("words", t_env.sql_query(
    "SELECT * FROM (VALUES ('a'), ('b,x'), ('a'), ('c'), ('a')) AS t(k)"))
t_env.create_temporary_view("words2", t_env.sql_query(
    "SELECT * FROM (VALUES ('a'), ('b'), ('a'), ('c'), ('a'), ('b'), ('b'), ('c')) AS t(k)"))
t_env.create_temporary_view("same", t_env.sql_query(
    "SELECT * FROM (VALUES ('a'), ('a'), ('a')) AS t(k)"))


def upsert_table(columns, options):
    name = "u_" + uuid.uuid4().hex[:8]
    topic = "compat-upsert-" + uuid.uuid4().hex
    t_env.execute_sql(
        "CREATE TABLE %s (%s) WITH ('connector' = 'upsert-kafka', 'topic' = '%s', "
        "'properties.bootstrap.servers' = '%s'%s)" % (name, columns, topic, BOOTSTRAP, options))
    return name, topic


def show(title, topic):
    """The topic's values as text, in topic order (one partition)."""
    name = "r_" + uuid.uuid4().hex[:8]
    t_env.execute_sql(
        "CREATE TABLE %s (v STRING) WITH ('connector' = 'kafka', 'topic' = '%s', "
        "'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset', "
        "'scan.bounded.mode' = 'latest-offset', 'format' = 'raw')" % (name, topic, BOOTSTRAP))
    print(title)
    with t_env.execute_sql("SELECT v FROM %s" % name).collect() as rows:
        for row in rows:
            print("  ", row[0])


JSON = ", 'key.format' = 'json', 'value.format' = 'json'"
counts, counts_topic = upsert_table("k STRING, c BIGINT, PRIMARY KEY (k) NOT ENFORCED", JSON)
t_env.execute_sql("INSERT INTO %s SELECT k, COUNT(*) AS c FROM words GROUP BY k"
                  % counts).wait()
show("json, GROUP BY count", counts_topic)

by_count, by_count_topic = upsert_table(
    "c BIGINT, k STRING, PRIMARY KEY (c) NOT ENFORCED", JSON)
t_env.execute_sql("INSERT INTO %s SELECT COUNT(*) AS c, k FROM words2 GROUP BY k"
                  % by_count).wait()
show("json, keyed by the count (materialized)", by_count_topic)

values, values_topic = upsert_table(
    "key_k STRING, c BIGINT, PRIMARY KEY (key_k) NOT ENFORCED",
    ", 'key.format' = 'json', 'key.fields-prefix' = 'key_', 'value.format' = 'csv', "
    "'value.fields-include' = 'EXCEPT_KEY'")
t_env.execute_sql("INSERT INTO %s SELECT k, COUNT(*) AS c FROM words GROUP BY k"
                  % values).wait()
show("csv value EXCEPT_KEY", values_topic)

buffered, buffered_topic = upsert_table(
    "k STRING, c BIGINT, PRIMARY KEY (k) NOT ENFORCED",
    JSON + ", 'sink.buffer-flush.max-rows' = '100', 'sink.buffer-flush.interval' = '1h'")
t_env.execute_sql("INSERT INTO %s SELECT k, COUNT(*) AS c FROM same GROUP BY k"
                  % buffered).wait()
show("buffered", buffered_topic)

rows, rows_topic = upsert_table("k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED",
                                ", 'key.format' = 'csv', 'value.format' = 'csv'")
t_env.execute_sql("INSERT INTO %s SELECT * FROM (VALUES ('a', 'x y'), ('b', 'z'), "
                  "('a', 'w')) AS t(k, v)" % rows).wait()
show("insert-only csv", rows_topic)

# what Flink rejects, when the table is used
for options, columns, expect in (
        (JSON, "k STRING, c BIGINT",
         "'upsert-kafka' tables require to define a PRIMARY KEY constraint."),
        (", 'value.format' = 'json'", "k STRING, c BIGINT, PRIMARY KEY (k) NOT ENFORCED",
         "Could not find required sink format 'key.format'."),
        (JSON + ", 'key.fields-prefix' = 'key_'",
         "key_k STRING, c BIGINT, PRIMARY KEY (key_k) NOT ENFORCED",
         "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'.")):
    name, _ = upsert_table(columns, options)
    try:
        t_env.execute_sql("INSERT INTO %s SELECT k, COUNT(*) AS c FROM words GROUP BY k"
                          % name).wait()
        print("written")
    except Exception as e:
        print("failed:", "Unable to create a sink for writing table" in str(e), expect in str(e))
