"""RMQSource, unbounded: 12 messages published with pika to a new queue of the broker named by
PYFLINK_ON_SPARK_TEST_RABBITMQ (host:port, user guest; set by the tests' `rabbitmq` fixture),
read by a job that maps them and takes them with execute_and_collect(limit=12), which ends the
job once 12 results came (an RMQSource never ends by itself). At parallelism 1 the records
come in queue order. Without checkpointing Flink acknowledges each message on
delivery; what is left in the queue afterwards is printed too.

Real PyFlink 1.20 needs flink-sql-connector-rabbitmq 3.0.0-1.16 (see sink_round_trip.py)
and pika in its Python.
"""
import os
import uuid

import pika

from pyflink.common import Types
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.rabbitmq import RMQConnectionConfig, RMQSource

HOST, PORT = os.environ["PYFLINK_ON_SPARK_TEST_RABBITMQ"].rsplit(":", 1)
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-rabbitmq/"
                         "3.0.0-1.16/flink-sql-connector-rabbitmq-3.0.0-1.16.jar")
QUEUE = "compat-source-" + uuid.uuid4().hex[:8]
N = 12

connection = pika.BlockingConnection(pika.ConnectionParameters(HOST, int(PORT)))
channel = connection.channel()
channel.queue_declare(QUEUE, durable=True)
channel.confirm_delivery()
for i in range(N):
    channel.basic_publish("", QUEUE, ("event-%02d,%d" % (i, i * 7 % 10)).encode())

env = StreamExecutionEnvironment.get_execution_environment()
env.add_jars(*["file://" + jar for jar in [JAR] if os.path.exists(jar)])
env.set_parallelism(1)
config = RMQConnectionConfig.Builder().set_host(HOST).set_port(int(PORT)) \
    .set_virtual_host("/").set_user_name("guest").set_password("guest").build()
stream = env.add_source(RMQSource(config, QUEUE, False, SimpleStringSchema()), "rmq")
results = stream.map(lambda s: (s.split(",")[0], int(s.split(",")[1])),
                     output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .execute_and_collect("rmq source", limit=N)
for name, value in results:
    print(name, value)
print("left in the queue:", channel.queue_declare(QUEUE, durable=True,
                                                  passive=True).method.message_count)
channel.queue_delete(QUEUE)
connection.close()
