"""RMQSource through the streaming executor against the session's real broker: messages
published while the job runs are processed (a keyed running count, published back with
RMQSink), acknowledged once their batch completed (the queue holds nothing afterwards), and
the job ends when it is cancelled (JobClient.cancel(), as a PyFlink user stops an RMQSource
job, which never ends by itself). With correlation ids, a message whose id was seen is
dropped, as Flink's RMQSource drops it."""
import sys
import time
import uuid

import cloudpickle
import pytest

from pyflink_on_spark.common.job_status import JobStatus
from pyflink_on_spark.common.serialization import SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.rabbitmq import RMQSink, RMQSource
from pyflink_on_spark.runtime.errors import JobExecutionError
from pyflink_on_spark.spark.tests.test_rabbitmq_sink import connection
from pyflink_on_spark.tests.rabbitmq_server import drain, free_port, message_count, publish

cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _wait_for(predicate, timeout=600):   # generous: a loaded 2-core machine
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.3)
    raise AssertionError("timed out")


def _count_job(address, in_queue, out_queue, use_correlation_id, tmp_path):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.enable_checkpointing(300)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(tmp_path / "ckpt"))
    env.add_source(RMQSource(connection(address), in_queue, use_correlation_id,
                             SimpleStringSchema())) \
        .map(lambda s: (s.split(":")[0], int(s.split(":")[1])),
             output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda t: t[0], key_type=Types.STRING()) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])) \
        .map(lambda t: "%s=%d" % t, output_type=Types.STRING()) \
        .add_sink(RMQSink(connection(address), out_queue, SimpleStringSchema()))
    return env


def test_unbounded_source_processes_new_messages_until_cancelled(spark, rabbitmq, tmp_path):
    in_queue, out_queue = ("in-" + uuid.uuid4().hex[:8]), ("out-" + uuid.uuid4().hex[:8])
    # "1" twice: the second is dropped (its id was seen and is not acknowledged yet, or is
    # in the same batch)
    publish(rabbitmq, in_queue, [b"a:1", b"a:1", b"b:1"], correlation_ids=["1", "1", "2"])
    env = _count_job(rabbitmq, in_queue, out_queue, True, tmp_path)
    client = env.execute_async("rmq count")
    seen = []

    def outputs(n):
        assert client.get_job_status().result() == JobStatus.RUNNING   # no failed batch
        seen.extend(b.decode() for b in drain(rabbitmq, out_queue))
        return len(seen) >= n

    try:
        _wait_for(lambda: outputs(2))
        publish(rabbitmq, in_queue, [b"a:5", b"c:2"], correlation_ids=["3", "4"])
        _wait_for(lambda: outputs(4))
        _wait_for(lambda: message_count(rabbitmq, in_queue) == 0)
        time.sleep(1.5)      # a few more batches: a duplicate would have come by now
        outputs(0)
    finally:
        client.cancel().result()
    assert sorted(seen) == ["a=1", "a=6", "b=1", "c=2"]
    # every message was acknowledged (or rejected): nothing comes back once the consumer
    # is gone
    assert message_count(rabbitmq, in_queue) == 0


def test_source_whose_broker_is_not_there_fails_in_one_clear_message(spark):
    port = free_port()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.add_source(RMQSource(connection("127.0.0.1:%d" % port), "q", False,
                             SimpleStringSchema())).print()
    started = time.monotonic()
    with pytest.raises(JobExecutionError) as failure:
        env.execute("rmq source, no broker")
    assert time.monotonic() - started < 60
    text = str(failure.value)
    assert text.startswith("RMQSource: cannot connect to RabbitMQ at 127.0.0.1:%d "
                           "(virtual host '/', user 'guest'): connection refused. Check that "
                           "the broker runs" % port), text
    assert len(text.splitlines()) <= 3, text
