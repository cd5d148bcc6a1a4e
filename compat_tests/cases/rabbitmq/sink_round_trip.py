"""RMQSink from a bounded job: every record of a word stream, upper-cased at parallelism 2,
published to a new queue of the broker named by PYFLINK_ON_SPARK_TEST_RABBITMQ (host:port,
user guest; set by the tests' `rabbitmq` fixture), then read back with pika and printed in
order (the order across the two sink subtasks is not fixed), with the messages' properties.

Real PyFlink 1.20 needs flink-sql-connector-rabbitmq 3.0.0-1.16 (the newest build on Maven
Central; none is built for 1.17+) from the local Maven repository:
  mvn dependency:get -Dartifact=org.apache.flink:flink-sql-connector-rabbitmq:3.0.0-1.16 -Dtransitive=false
and pika in its Python.
"""
import os
import uuid

import pika

from pyflink.common import Types
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.rabbitmq import RMQConnectionConfig, RMQSink

HOST, PORT = os.environ["PYFLINK_ON_SPARK_TEST_RABBITMQ"].rsplit(":", 1)
JAR = os.path.expanduser("~/.m2/repository/org/apache/flink/flink-sql-connector-rabbitmq/"
                         "3.0.0-1.16/flink-sql-connector-rabbitmq-3.0.0-1.16.jar")
QUEUE = "compat-sink-" + uuid.uuid4().hex[:8]

env = StreamExecutionEnvironment.get_execution_environment()
# PyFlink needs the connector jar (fetched with mvn where it is recorded); the shim
# publishes with pika
env.add_jars(*["file://" + jar for jar in [JAR] if os.path.exists(jar)])
env.set_parallelism(2)
config = RMQConnectionConfig.Builder().set_host(HOST).set_port(int(PORT)) \
    .set_virtual_host("/").set_user_name("guest").set_password("guest").build()
words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"] * 3
env.from_collection(words, type_info=Types.STRING()) \
    .map(lambda w: w.upper() + "-" + str(len(w)), output_type=Types.STRING()) \
    .add_sink(RMQSink(config, QUEUE, SimpleStringSchema()))
env.execute("rmq sink")

connection = pika.BlockingConnection(pika.ConnectionParameters(HOST, int(PORT)))
channel = connection.channel()
declared = channel.queue_declare(QUEUE, durable=True, passive=True)
print("messages in the queue:", declared.method.message_count)
bodies = []
while True:
    method, properties, body = channel.basic_get(QUEUE, auto_ack=True)
    if method is None:
        break
    bodies.append(body.decode())
    if len(bodies) == 1:
        print("exchange %r, routing key is the queue: %s, delivery mode %r, content type "
              "%r, correlation id %r" % (method.exchange, method.routing_key == QUEUE,
                                     properties.delivery_mode, properties.content_type,
                                     properties.correlation_id))
channel.queue_delete(QUEUE)
connection.close()
for body in sorted(bodies):
    print(body)
