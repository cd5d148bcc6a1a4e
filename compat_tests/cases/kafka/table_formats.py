"""Kafka tables in the csv, json and raw formats as sources (bounded: scan.bounded.mode
latest-offset), read in one UNION ALL query, with Flink's options: csv.field-delimiter,
csv.ignore-parse-errors (a bad field NULL, missing trailing fields NULL, a row of too many
fields skipped), json.ignore-parse-errors (text that is no JSON object skipped, a bad field
NULL); a bad record fails the job, with Flink's `Failed to deserialize
CSV row '...'.` / `Failed to deserialize JSON '...'.` among its messages (a topic of the bad
record alone: PyFlink's collect() may give the rows before it or not).

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (the
tests' `kafka_broker` fixture). Real PyFlink 1.20 needs flink-sql-connector-kafka 3.2.0-1.19:
  mvn dependency:get -Dartifact=org.apache.flink:flink-sql-connector-kafka:3.2.0-1.19
"""
import os
import uuid

from pyflink.common import Configuration, Types
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink
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


TOPICS = {
    "csv": ['1,apple,2.5', '2,"pe,ar",3'],
    "csv bad field": ['x,bad,1'],
    "csv lenient": ['1,apple,2.5', '2,"pe,ar",', 'x,bad,1', '3,fig', '4,kiwi,1.5,extra'],
    "csv ;": ['1;"a;b";2.5', '2;c;0.5'],
    "json": ['{"id": 1, "name": "a"}', 'not json', '{"id": 2}', '{"id": "3", "name": 4}',
             '{"id": "x", "name": "b"}'],
    "json bad": ['not json'],
}
# the topics, written by one job
names = {key: "compat-formats-" + uuid.uuid4().hex for key in TOPICS}
for key, lines in TOPICS.items():
    env.from_collection(lines, type_info=Types.STRING()).sink_to(
        KafkaSink.builder().set_bootstrap_servers(BOOTSTRAP)
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(names[key])
                               .set_value_serialization_schema(SimpleStringSchema()).build())
        .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("write")


def create(topic, columns, fmt, options=""):
    name = "t_" + uuid.uuid4().hex[:8]
    t_env.execute_sql(
        "CREATE TABLE %s (%s) WITH ('connector' = 'kafka', 'topic' = '%s', "
        "'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset', "
        "'scan.bounded.mode' = 'latest-offset', 'format' = '%s'%s)"
        % (name, columns, topic, BOOTSTRAP, fmt, options))
    return name


def fails(name, expect):
    try:
        with t_env.execute_sql("SELECT * FROM %s" % name).collect() as rows:
            for row in rows:
                print(row)
    except Exception as e:
        print("failed:", expect in str(e))


fruits = "id INT, name STRING, price DOUBLE"
people = "id INT, name STRING"
# the tables that read, in one query (sorted: PyFlink reads the topics in parallel)
tables = {
    "csv": create(names["csv"], fruits, "csv"),
    "csv lenient": create(names["csv lenient"], fruits, "csv",
                          ", 'csv.ignore-parse-errors' = 'true'"),
    "csv ;": create(names["csv ;"], fruits, "csv", ", 'csv.field-delimiter' = ';'"),
    "json lenient": create(names["json"], people, "json",
                           ", 'json.ignore-parse-errors' = 'true'"),
    "raw": create(names["json"], "line STRING", "raw"),
}
query = " UNION ALL ".join(
    "SELECT '%s' AS t, %s FROM %s" % (key, columns, tables[key]) for key, columns in (
        ("csv", "CAST(id AS STRING) AS a, name AS b, CAST(price AS STRING) AS c"),
        ("csv lenient", "CAST(id AS STRING), name, CAST(price AS STRING)"),
        ("csv ;", "CAST(id AS STRING), name, CAST(price AS STRING)"),
        ("json lenient", "CAST(id AS STRING), name, CAST(NULL AS STRING)"),
        ("raw", "line, CAST(NULL AS STRING), CAST(NULL AS STRING)")))
with t_env.execute_sql(query).collect() as rows:
    for line in sorted(str(row) for row in rows):
        print(line)
# a bad record fails the job (a topic of the bad record alone)
fails(create(names["csv bad field"], fruits, "csv"),
      "Failed to deserialize CSV row 'x,bad,1'.")
fails(create(names["json bad"], people, "json"), "Failed to deserialize JSON 'not json'.")
