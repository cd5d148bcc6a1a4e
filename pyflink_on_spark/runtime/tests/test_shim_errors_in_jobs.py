"""An error the shim raises for the user (a JobExecutionError, e.g. a Kafka broker that does
not answer) inside a Spark task or a streaming query's foreachBatch reaches the program as its
own message, without the shim's traceback; any other error keeps its traceback."""
from pyflink_on_spark.runtime.errors import JobExecutionError, job_error

MESSAGE = "KafkaSink (AT_LEAST_ONCE): no Kafka broker answered at bootstrap.servers 'h:1'"
TRACEBACK = ('Traceback (most recent call last):\n  File "x.py", line 1, in f\n    g()\n'
             'pyflink_on_spark.codecs.kafka.brokers.KafkaUnreachableError: %s\n' % MESSAGE)


def test_from_a_task_channel_a_python_worker_and_a_foreach_batch():
    texts = [TRACEBACK,
             "PythonException: An exception was thrown from the Python worker: %s "
             "SQLSTATE: 39000\n\tat org.apache.spark.X" % TRACEBACK,
             "[STREAM_FAILED] ... Reason: An exception was raised by the Python Proxy. Return "
             "Message: %s SQLSTATE: 39000\nCaused by: py4j.Py4JException: %s"
             % (TRACEBACK, TRACEBACK)]
    for text in texts:
        error = job_error(RuntimeError(text))
        assert isinstance(error, JobExecutionError) and str(error) == MESSAGE, text


def test_other_errors_keep_their_traceback():
    other = TRACEBACK.replace("pyflink_on_spark.codecs.kafka.brokers.KafkaUnreachableError",
                              "ValueError")
    error = job_error(RuntimeError("An exception was thrown from the Python worker: " + other))
    assert str(error).startswith("Job execution failed in a Spark task:\nTraceback")
    plain = RuntimeError(other)
    assert job_error(plain) is plain
