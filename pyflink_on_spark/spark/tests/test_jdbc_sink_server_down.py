"""A JdbcSink whose database is not there fails the job with one clear message naming
host:port and what to check, within the URL's connectTimeout, for every JDBC URL the shim
runs (no server needed: a port where nothing listens)."""
import socket
import threading
import time

import pytest

from pyflink_on_spark.common import Row
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.jdbc import (JdbcConnectionOptions,
                                                         JdbcExecutionOptions, JdbcSink)
from pyflink_on_spark.runtime.errors import JobExecutionError


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_one(url, driver):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    row = Types.ROW([Types.INT()])
    env.from_collection([Row(1)], type_info=row).add_sink(JdbcSink.sink(
        "INSERT INTO t (id) VALUES (?)", row,
        JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url)
        .with_driver_name(driver).build(),
        JdbcExecutionOptions.builder().with_max_retries(0).build()))
    env.execute("jdbc down")


@pytest.mark.parametrize("url, driver", [
    ("jdbc:mariadb://127.0.0.1:%d/test?user=root&password=secret&connectTimeout=2000",
     "org.mariadb.jdbc.Driver"),
    ("jdbc:mysql://127.0.0.1:%d/test?user=root&connectTimeout=2000", "com.mysql.cj.jdbc.Driver"),
    ("jdbc:postgresql://127.0.0.1:%d/postgres?user=postgres&connectTimeout=2",
     "org.postgresql.Driver"),
])
def test_a_database_that_is_down_fails_the_job_with_one_clear_message(spark, url, driver):
    port = _closed_port()
    started = time.monotonic()
    with pytest.raises(JobExecutionError) as error:
        _write_one(url % port, driver)
    assert time.monotonic() - started < 60
    text = str(error.value)
    assert "cannot connect to the database at 127.0.0.1:%d" % port in text
    assert "Check that the database server is running and accepts connections on " \
        "127.0.0.1:%d" % port in text
    assert "refused" in text                  # the driver's own reason
    assert "secret" not in text
    assert len(text.splitlines()) <= 6, text


def test_a_server_that_accepts_and_never_answers_fails_within_connect_timeout(spark):
    """A port that accepts connections and says nothing (a hung server, another service):
    the MySQL handshake waits connectTimeout, never forever."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        accepted = []
        threading.Thread(target=lambda: accepted.append(silent.accept()), daemon=True).start()
        started = time.monotonic()
        with pytest.raises(JobExecutionError) as error:
            _write_one("jdbc:mariadb://127.0.0.1:%d/test?connectTimeout=1500" % port,
                       "org.mariadb.jdbc.Driver")
        assert time.monotonic() - started < 60
    text = str(error.value)
    assert "cannot connect to the database at 127.0.0.1:%d" % port in text
    assert "timed out" in text
