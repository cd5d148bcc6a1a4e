"""JDBC (mirror of pyflink.datastream.connectors.jdbc, PyFlink 1.20).

JdbcSink.sink(sql, row_type_info, connection options, execution options) runs as on PyFlink:
the program's own statement (inserts, upserts) is executed in batches inside the sink's Spark
tasks, through the DB-API driver the JDBC URL names (codecs/jdbc: PostgreSQL through psycopg 3,
SQLite through sqlite3), with Flink's batching, retries and at-least-once guarantee.
"""
from __future__ import annotations

from typing import Any, Dict

from pyflink_on_spark.codecs.jdbc.parameters import row_sql_types
from pyflink_on_spark.common.typeinfo import RowTypeInfo
from pyflink_on_spark.datastream.connectors._not_on_spark import require
from pyflink_on_spark.datastream.functions import SinkFunction
from pyflink_on_spark.specs.sinks import JdbcSinkSpec

__all__ = [
    'JdbcSink',
    'JdbcConnectionOptions',
    'JdbcExecutionOptions'
]


class JdbcSink(SinkFunction):
    _sink_name = "JdbcSink"

    def __init__(self, j_jdbc_sink):
        # a Java-backed SinkFunction in PyFlink: here the spec of what runs stands for it
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
        connection = jdbc_connection_options._j_jdbc_connection_options
        execution = jdbc_execution_options._j_jdbc_execution_options
        spec = JdbcSinkSpec(sql=sql, url=connection["url"],
                            user_name=connection.get("user_name"),
                            password=connection.get("password"),
                            sql_types=row_sql_types(type_info),
                            batch_size=execution["batch_size"],
                            batch_interval_ms=execution["batch_interval_ms"],
                            max_retries=execution["max_retries"],
                            converter=type_info._python_converter())
        return JdbcSink(spec)

    def _sink_definition(self, input_type: Any = None) -> JdbcSinkSpec:
        return self._j_function


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
