"""JDBC (mirror of pyflink.datastream.connectors.jdbc, PyFlink 1.20).

Programs build JdbcSink.sink(sql, row_type_info, connection options, execution options) as on
PyFlink; add_sink raises NotImplementedError until the JDBC sink runs (issue 12: the program's
own statement executed in batches inside the Spark tasks through DB-API drivers).
"""
from __future__ import annotations

from typing import Any, Dict, Optional

from pyflink_on_spark.common.typeinfo import RowTypeInfo
from pyflink_on_spark.datastream.connectors._not_on_spark import UnmappedSink, require
from pyflink_on_spark.datastream.functions import SinkFunction

__all__ = [
    'JdbcSink',
    'JdbcConnectionOptions',
    'JdbcExecutionOptions'
]

_ROUTE = ("Spark's own JDBC route, DataFrame.write.jdbc(url, table), inserts rows into a "
          "table rather than running your statement (no upserts); pyflink_on_spark will run "
          "the statement itself in batches inside the Spark tasks (not built yet).")


class JdbcSink(UnmappedSink, SinkFunction):
    _connector_name = "JdbcSink"
    _spark_route = _ROUTE

    def __init__(self, j_jdbc_sink):
        # a Java-backed SinkFunction in PyFlink: here its settings stand for the Java object
        self._j_function = j_jdbc_sink

    @staticmethod
    def sink(sql: str, type_info: RowTypeInfo, jdbc_connection_options: 'JdbcConnectionOptions',
             jdbc_execution_options: 'JdbcExecutionOptions' = None):
        if not isinstance(type_info, RowTypeInfo):
            # PyFlink reads type_info.get_field_types() to choose each parameter's SQL type
            raise TypeError("JdbcSink.sink needs the row type of the records "
                            "(Types.ROW / Types.ROW_NAMED), got %r" % (type_info,))
        if jdbc_execution_options is None:
            jdbc_execution_options = JdbcExecutionOptions.defaults()
        sink = JdbcSink(("jdbc", sql))
        sink._sql = sql
        sink._type_info = type_info
        sink._connection_options = jdbc_connection_options
        sink._execution_options = jdbc_execution_options
        return sink


class JdbcConnectionOptions(object):
    """The database's URL, driver class and credentials."""

    def __init__(self, j_jdbc_connection_options):
        self._j_jdbc_connection_options = j_jdbc_connection_options

    def get_db_url(self) -> str:
        return self._j_jdbc_connection_options.get("url")

    def get_driver_name(self) -> str:
        return self._j_jdbc_connection_options.get("driver_name")

    def get_user_name(self) -> str:
        return self._j_jdbc_connection_options.get("user_name")

    def get_password(self) -> str:
        return self._j_jdbc_connection_options.get("password")

    class JdbcConnectionOptionsBuilder(object):
        def __init__(self):
            self._settings: Dict[str, Any] = {}

        def with_url(self, url: str) -> 'JdbcConnectionOptions.JdbcConnectionOptionsBuilder':
            self._settings["url"] = url
            return self

        def with_driver_name(self, driver_name: str) \
                -> 'JdbcConnectionOptions.JdbcConnectionOptionsBuilder':
            self._settings["driver_name"] = driver_name
            return self

        def with_user_name(self, user_name: str) \
                -> 'JdbcConnectionOptions.JdbcConnectionOptionsBuilder':
            self._settings["user_name"] = user_name
            return self

        def with_password(self, password: str) \
                -> 'JdbcConnectionOptions.JdbcConnectionOptionsBuilder':
            self._settings["password"] = password
            return self

        def build(self) -> 'JdbcConnectionOptions':
            require(self._settings.get("url") is not None, "jdbc url is empty")
            return JdbcConnectionOptions(j_jdbc_connection_options=dict(self._settings))


class JdbcExecutionOptions(object):
    """How the sink batches and retries its statements."""

    _DEFAULTS = {"batch_size": 5000, "batch_interval_ms": 0, "max_retries": 3}

    def __init__(self, j_jdbc_execution_options):
        self._j_jdbc_execution_options = j_jdbc_execution_options

    def get_batch_interval_ms(self) -> int:
        return self._j_jdbc_execution_options["batch_interval_ms"]

    def get_batch_size(self) -> int:
        return self._j_jdbc_execution_options["batch_size"]

    def get_max_retries(self) -> int:
        return self._j_jdbc_execution_options["max_retries"]

    @staticmethod
    def defaults() -> 'JdbcExecutionOptions':
        return JdbcExecutionOptions(j_jdbc_execution_options=dict(JdbcExecutionOptions._DEFAULTS))

    @staticmethod
    def builder() -> 'Builder':
        return JdbcExecutionOptions.Builder()

    class Builder(object):
        def __init__(self):
            self._settings: Dict[str, int] = dict(JdbcExecutionOptions._DEFAULTS)

        def with_batch_size(self, size: int) -> 'JdbcExecutionOptions.Builder':
            self._settings["batch_size"] = size
            return self

        def with_batch_interval_ms(self, interval_ms: int) -> 'JdbcExecutionOptions.Builder':
            self._settings["batch_interval_ms"] = interval_ms
            return self

        def with_max_retries(self, max_retries: int) -> 'JdbcExecutionOptions.Builder':
            self._settings["max_retries"] = max_retries
            return self

        def build(self) -> 'JdbcExecutionOptions':
            # Flink: checkArgument(maxRetries >= 0), an IllegalArgumentException without text
            require(self._settings["max_retries"] >= 0, "max_retries must be >= 0")
            return JdbcExecutionOptions(j_jdbc_execution_options=dict(self._settings))
