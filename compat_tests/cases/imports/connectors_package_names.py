"""Every name PyFlink 1.20 makes importable from pyflink.datastream.connectors, imported the
way programs import them (without building the Java-backed ones)."""
import pyflink.datastream.connectors as connectors
from pyflink.datastream.connectors import (BucketAssigner, DeliveryGuarantee,  # noqa: F401
                                           FileEnumeratorProvider, FileSink, FileSource,
                                           FileSourceBuilder, FileSplitAssignerProvider,
                                           FlinkKafkaConsumer, FlinkKafkaProducer,
                                           JdbcConnectionOptions, JdbcExecutionOptions,
                                           JdbcSink, KafkaSource, NumberSequenceSource,
                                           OutputFileConfig, PulsarSource, PulsarSourceBuilder,
                                           RMQConnectionConfig, RMQSink, RMQSource,
                                           RollingPolicy, Semantic, Sink, Source, StartCursor,
                                           StopCursor, StreamFormat, StreamingFileSink)
from pyflink.datastream.connectors.cassandra import ConsistencyLevel
from pyflink.datastream.connectors.elasticsearch import FlushBackoffType
from pyflink.datastream.connectors.hybrid_source import HybridSource, HybridSourceBuilder
from pyflink.datastream.connectors.kinesis import FlinkKinesisConsumer, KinesisStreamsSink
from pyflink.datastream.connectors.pulsar import TopicRoutingMode

print(sorted(connectors.__all__))
print(sorted(n for n in dir(connectors) if n[:1].isupper()))
print([m.name for m in Semantic], [m.name for m in DeliveryGuarantee])
print([m.name for m in ConsistencyLevel])
print([(m.name, m.value) for m in FlushBackoffType])
print([(m.name, m.value) for m in TopicRoutingMode])
print(issubclass(HybridSource, Source), issubclass(KinesisStreamsSink, Sink))
print(HybridSourceBuilder.__name__, FlinkKinesisConsumer.__name__)
