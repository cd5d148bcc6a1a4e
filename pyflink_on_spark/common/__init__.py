"""Pure-Python mirror of PyFlink 1.20's ``pyflink.common`` (no JVM, no py4j).

Same module, class and method names as PyFlink; anything that needs a Java object raises
NotImplementedError saying so.
"""
from pyflink_on_spark.common import constants, io, utils  # noqa: F401 (PyFlink exposes them)
from pyflink_on_spark.common.completable_future import CompletableFuture
from pyflink_on_spark.common.config_options import ConfigOption, ConfigOptions
from pyflink_on_spark.common.configuration import Configuration
from pyflink_on_spark.common.execution_config import ExecutionConfig
from pyflink_on_spark.common.execution_mode import ExecutionMode
from pyflink_on_spark.common.input_dependency_constraint import InputDependencyConstraint
from pyflink_on_spark.common.job_client import JobClient
from pyflink_on_spark.common.job_execution_result import JobExecutionResult
from pyflink_on_spark.common.job_id import JobID
from pyflink_on_spark.common.job_status import JobStatus
from pyflink_on_spark.common.restart_strategy import RestartStrategies, \
    RestartStrategyConfiguration
from pyflink_on_spark.common.serialization import SerializationSchema, DeserializationSchema, \
    SimpleStringSchema, Encoder
from pyflink_on_spark.common.serializer import TypeSerializer
from pyflink_on_spark.common.typeinfo import Types, TypeInformation
from pyflink_on_spark.common.types import Row, RowKind
from pyflink_on_spark.common.time import Duration, Instant, Time
from pyflink_on_spark.common.watermark_strategy import WatermarkStrategy, \
    AssignerWithPeriodicWatermarksWrapper

__all__ = [
    'Configuration',
    'ConfigOption',
    'ConfigOptions',
    'ExecutionConfig',
    "TypeInformation",
    "TypeSerializer",
    "Types",
    'SerializationSchema',
    'DeserializationSchema',
    'SimpleStringSchema',
    'Encoder',
    'CompletableFuture',
    'ExecutionMode',
    'InputDependencyConstraint',
    'JobClient',
    'JobExecutionResult',
    'JobID',
    'JobStatus',
    'RestartStrategies',
    'RestartStrategyConfiguration',
    "Row",
    "RowKind",
    "WatermarkStrategy",
    "Duration",
    "Instant",
    "Time",
    "AssignerWithPeriodicWatermarksWrapper"
]

# PyFlink also attaches the JSON/CSV/Avro row (de)serialization schemas of
# pyflink.datastream.formats to this package at import time. They belong to the datastream
# layer; it is imported lazily here so that importing common never imports datastream first.


_FORMAT_SCHEMAS = {
    'JsonRowDeserializationSchema': 'json', 'JsonRowSerializationSchema': 'json',
    'CsvRowDeserializationSchema': 'csv', 'CsvRowSerializationSchema': 'csv',
    'AvroRowDeserializationSchema': 'avro', 'AvroRowSerializationSchema': 'avro',
}


def __dir__():
    # dir() lists them as on PyFlink, where they are real attributes of the package
    return sorted(set(globals()) | set(_FORMAT_SCHEMAS))


def __getattr__(name):
    formats = _FORMAT_SCHEMAS
    if name in formats:
        import importlib
        try:
            module = importlib.import_module(
                'pyflink_on_spark.datastream.formats.%s' % formats[name])
        except ImportError as e:
            raise AttributeError("%s is not available: %s" % (name, e)) from e
        return getattr(module, name)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
