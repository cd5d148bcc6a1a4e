"""A kafka table's watermark is generated per Kafka partition (issue 44): Flink pushes
`WATERMARK FOR ts AS ts - INTERVAL '1' SECOND` into the kafka source, which generates it
per partition and emits the minimum over its partitions. A topic of two partitions
(confluent-kafka's producer; the program's own Python), rowtimes 1, 2, 6, 12 s in partition
0 and 3, 7 s in partition 1, read as an unbounded kafka table at parallelism 1 into a
TUMBLE TVF of 5 s: the watermark is 6 s (partition 1's 7 s - 1 s), so only the [0 s, 5 s)
windows fire (over all the subtask's rows it would be 11 s, firing [5 s, 10 s) too). Then
partition 1 gets 8 s (on time: behind partition 0's rows, ahead of the watermark) and 20 s:
the watermark reaches 11 s and the [5 s, 10 s) windows fire, bob's with the 8 s row. Each
firing's rows are printed sorted (windows fired together come in timer-heap order).

The broker's bootstrap.servers come from PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS (the
tests' `kafka_broker` fixture). Real PyFlink 1.20 needs flink-sql-connector-kafka 3.2.0-1.19
(see table_watermark_windows.py) and confluent-kafka in its venv.
"""
import json
import os
import uuid

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment

BOOTSTRAP = os.environ["PYFLINK_ON_SPARK_TEST_KAFKA_BOOTSTRAP_SERVERS"]
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-kafka/"
                         "3.2.0-1.19/flink-sql-connector-kafka-3.2.0-1.19.jar")
TOPIC = "compat-partition-watermarks-" + uuid.uuid4().hex

admin = AdminClient({"bootstrap.servers": BOOTSTRAP})
admin.create_topics([NewTopic(TOPIC, num_partitions=2, replication_factor=1)])[TOPIC].result()
producer = Producer({"bootstrap.servers": BOOTSTRAP})


def produce(rows):
    """(partition, k, v, seconds) rows, each partition's in order."""
    for partition, k, v, seconds in rows:
        producer.produce(TOPIC, partition=partition, value=json.dumps(
            {"k": k, "v": v, "ts": "2024-01-01 00:00:%02d.000" % seconds}))
    producer.flush()


produce([(0, "alice", 1, 1), (0, "bob", 2, 2), (0, "alice", 3, 6), (0, "bob", 4, 12),
         (1, "bob", 5, 3), (1, "alice", 6, 7)])

env = StreamExecutionEnvironment.get_execution_environment()
if os.path.exists(JAR):  # PyFlink needs the connector; the shim uses Spark's own
    env.add_jars("file://" + JAR)
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t_env.execute_sql("""
    CREATE TABLE clicks (k STRING, v INT, ts TIMESTAMP(3),
                         WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
      'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
      'properties.group.id' = 'compat-partition-watermarks',
      'scan.startup.mode' = 'earliest-offset', 'format' = 'json')""" % (TOPIC, BOOTSTRAP))
windows = t_env.sql_query("""
    SELECT k, window_start, COUNT(*) AS n, SUM(v) AS total
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND))
    GROUP BY k, window_start, window_end""")
with t_env.to_data_stream(windows).map(str, output_type=Types.STRING()) \
        .execute_and_collect("partition watermarks") as rows:
    fired = [next(rows), next(rows)]
    for row in sorted(fired):
        print("first", row)
    produce([(1, "bob", 7, 8), (1, "alice", 8, 20)])
    fired = [next(rows), next(rows)]
    for row in sorted(fired):
        print("then", row)
