"""Kafka tables as sinks (INSERT INTO a 'connector' = 'kafka' table): a bounded query written
in the json, csv (',' and ';') and raw formats by one statement set, the topics read back as
text in one query (the values' exact bytes: field order, nulls, numbers, decimals,
timestamps, quoting); then an unbounded
datagen table inserted into a csv kafka table (after a first row) while a job reads that
topic back through an unbounded kafka table, closed after the rows it takes; the insert's job cancelled through its
TableResult's JobClient.

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (the
tests' `kafka_broker` fixture). Real PyFlink 1.20 needs flink-sql-connector-kafka 3.2.0-1.19:
  mvn dependency:get -Dartifact=org.apache.flink:flink-sql-connector-kafka:3.2.0-1.19
"""
import os
import uuid

from pyflink.common import Configuration, Types
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

COLUMNS = ("i INT, s STRING, d DOUBLE, f FLOAT, dm DECIMAL(5, 2), ts TIMESTAMP(3), b BOOLEAN, "
           "n STRING, big BIGINT, dt DATE")
ROWS = ("SELECT * FROM (VALUES "
        "(1, 'a,b \"q\"', 1.0E10, CAST(0.1 AS FLOAT), CAST(1.20 AS DECIMAL(5, 2)), "
        "TIMESTAMP '2024-01-02 03:04:05.120', TRUE, CAST(NULL AS STRING), 12345678901, "
        "DATE '2024-03-04'), "
        "(-2, '', 0.5, CAST(3 AS FLOAT), CAST(100 AS DECIMAL(5, 2)), "
        "TIMESTAMP '2024-01-02 03:04:00', FALSE, 'x', 0, DATE '2024-03-05')) "
        "AS t(i, s, d, f, dm, ts, b, n, big, dt)")


def kafka_table(name, columns, topic, fmt, extra=""):
    t_env.execute_sql(
        "CREATE TABLE %s (%s) WITH ('connector' = 'kafka', 'topic' = '%s', "
        "'properties.bootstrap.servers' = '%s', 'properties.group.id' = '%s', "
        "'scan.startup.mode' = 'earliest-offset', 'format' = '%s'%s)"
        % (name, columns, topic, BOOTSTRAP, name, fmt, extra))


def raw_table(topic):
    """A bounded raw kafka table of the topic's values, as text."""
    name = "read_" + uuid.uuid4().hex[:8]
    t_env.execute_sql(
        "CREATE TABLE %s (line STRING) WITH ('connector' = 'kafka', 'topic' = '%s', "
        "'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset', "
        "'scan.bounded.mode' = 'latest-offset', 'format' = 'raw')" % (name, topic, BOOTSTRAP))
    return name


# one statement set (one job): the rows in json, csv, csv with ';', and raw; and the first
# row of the live topic below (the topic exists before the reading job starts: PyFlink's
# kafka table source would find a partition created later only at its next partition
# discovery, minutes later)
statements = t_env.create_statement_set()
topics = {}
for label, fmt, extra in (("json", "json", ""), ("csv", "csv", ""),
                          ("csv ;", "csv", ", 'csv.field-delimiter' = ';'")):
    topics[label] = "compat-sink-" + uuid.uuid4().hex
    name = "sink_%s" % uuid.uuid4().hex[:8]
    kafka_table(name, COLUMNS, topics[label], fmt, extra)
    statements.add_insert_sql("INSERT INTO %s %s" % (name, ROWS))
topics["raw"] = "compat-raw-" + uuid.uuid4().hex
kafka_table("raw_sink", "v STRING", topics["raw"], "raw")
statements.add_insert("raw_sink", t_env.from_elements([("hello, world",), ("",), ("x y",)],
                                                      ["v"]))
live_topic = "compat-live-" + uuid.uuid4().hex
kafka_table("live", "user_id INT, page STRING", live_topic, "csv",
            ", 'csv.field-delimiter' = ';'")
statements.add_insert_sql("INSERT INTO live VALUES (0, 'first')")
result = statements.execute()
result.wait()
print(len(result.get_table_schema().get_field_names()))
# the topics' values as text, in one query
query = " UNION ALL ".join("SELECT '%s' AS topic, line FROM %s" % (label, raw_table(topic))
                           for label, topic in topics.items())
with t_env.execute_sql(query).collect() as rows:
    for line in sorted("%s | %s" % (row[0], row[1]) for row in rows):
        print(line)

# unbounded: a datagen table into a csv kafka table, read back while the insert runs
t_env.execute_sql("""
    CREATE TABLE clicks (user_id INT, page STRING) WITH (
      'connector' = 'datagen', 'rows-per-second' = '20',
      'fields.user_id.min' = '7', 'fields.user_id.max' = '7', 'fields.page.length' = '5')""")
insert = t_env.execute_sql("INSERT INTO live SELECT user_id * 3, UPPER(page) FROM clicks")
seen = set()
with t_env.to_data_stream(t_env.from_path("live")).map(
        lambda row: "%d %d %s" % (row.user_id, len(row.page), row.page == row.page.upper()),
        output_type=Types.STRING()).execute_and_collect("read live") as rows:
    taken = 0
    for value in rows:
        seen.add(value)
        taken += 1
        if taken == 13:
            break
print(sorted(seen), taken)
insert.get_job_client().cancel().result()
print("cancelled")
