"""RMQSink against a real broker (the session's `rabbitmq` fixture): every record of a bounded
job reaches the queue, read back with pika; a broker that is not there fails the job in one
clear message, quickly."""
import sys
import time
import uuid

import cloudpickle
import pytest

from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.rabbitmq import RMQConnectionConfig, RMQSink
from pyflink_on_spark.tests.rabbitmq_server import drain, free_port

cloudpickle.register_pickle_by_value(sys.modules[__name__])


def connection(address: str) -> RMQConnectionConfig:
    host, port = address.rsplit(":", 1)
    return RMQConnectionConfig.Builder().set_host(host).set_port(int(port)) \
        .set_virtual_host("/").set_user_name("guest").set_password("guest").build()


def test_sink_publishes_every_record(spark, rabbitmq):
    queue = "sink-" + uuid.uuid4().hex[:8]
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    values = ["v%04d" % i for i in range(1000)]
    env.from_collection(values, type_info=Types.STRING()) \
        .map(lambda v: v.upper(), output_type=Types.STRING()) \
        .add_sink(RMQSink(connection(rabbitmq), queue, SimpleStringSchema()))
    env.execute("rmq sink")
    written = [b.decode() for b in drain(rabbitmq, queue)]
    assert sorted(written) == [v.upper() for v in values]   # each record once


def test_sink_to_a_port_where_nothing_listens_fails_in_one_clear_message(spark):
    port = free_port()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection(["a", "b"], type_info=Types.STRING()) \
        .add_sink(RMQSink(connection("127.0.0.1:%d" % port), "q", SimpleStringSchema()))
    started = time.monotonic()
    with pytest.raises(Exception) as failure:
        env.execute("rmq sink, no broker")
    assert time.monotonic() - started < 60
    text = str(failure.value)
    assert "RMQSink: cannot connect to RabbitMQ at 127.0.0.1:%d" % port in text
    assert "connection refused" in text and "Check that the broker runs" in text
    assert len(text.splitlines()) <= 6, text
