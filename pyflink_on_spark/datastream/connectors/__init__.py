"""Connectors (mirror of pyflink.datastream.connectors, PyFlink 1.20).

Like PyFlink's package, this one offers the base classes in __all__ and, as plain attributes,
the connector classes programs import from here (`from pyflink.datastream.connectors import
FileSource, StreamFormat, FlinkKafkaConsumer`). The names are exactly PyFlink's
(pyflink_on_spark/tests/test_package_exports.py compares them).
"""
from pyflink_on_spark.datastream.connectors.base import DeliveryGuarantee, Sink, Source
from pyflink_on_spark.datastream.connectors.file_system import (
    BucketAssigner, FileEnumeratorProvider, FileSink, FileSource, FileSourceBuilder,
    FileSplitAssignerProvider, OutputFileConfig, RollingPolicy, StreamFormat, StreamingFileSink)
from pyflink_on_spark.datastream.connectors.jdbc import (JdbcConnectionOptions,
                                                         JdbcExecutionOptions, JdbcSink)
from pyflink_on_spark.datastream.connectors.kafka import (FlinkKafkaConsumer,
                                                          FlinkKafkaProducer, KafkaSource,
                                                          Semantic)
from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
from pyflink_on_spark.datastream.connectors.pulsar import (PulsarSource, PulsarSourceBuilder,
                                                           StartCursor, StopCursor)
from pyflink_on_spark.datastream.connectors.rabbitmq import (RMQConnectionConfig, RMQSink,
                                                             RMQSource)

__all__ = [
    'Sink',
    'Source',
    'DeliveryGuarantee'
]
