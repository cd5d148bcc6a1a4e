"""Connectors with no Spark mapping yet: programs build them as on PyFlink (the builders check
what Flink's builders check), and adding one to a job raises NotImplementedError naming the
connector and the route Spark offers.

The builders' messages and the order of their checks were observed on PyFlink 1.20.5 with the
connector jars from Maven Central (flink-sql-connector-elasticsearch7 3.0.1-1.17,
flink-sql-connector-pulsar 4.0.0-1.17, flink-sql-connector-kinesis 4.0.0-1.16,
flink-sql-connector-rabbitmq 3.0.0-1.16 (RabbitMQ's builders: they run now, see
spark/tests/test_rabbitmq_sink.py), flink-connector-cassandra_2.12 3.0.0-1.16 (CassandraSink's
builder: it runs now, see test_cassandra_builder.py), flink-connector-jdbc 3.3.0-1.20) passed
with env.add_jars."""
import pytest

from pyflink_on_spark.common import Duration, SimpleStringSchema, Types, WatermarkStrategy
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors import DeliveryGuarantee
from pyflink_on_spark.datastream.connectors.elasticsearch import (Elasticsearch7SinkBuilder,
                                                                  FlushBackoffType)
from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink_on_spark.datastream.connectors.hybrid_source import HybridSource
from pyflink_on_spark.datastream.connectors.jdbc import (JdbcConnectionOptions,
                                                         JdbcExecutionOptions, JdbcSink)
from pyflink_on_spark.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                          KafkaSource)
from pyflink_on_spark.datastream.connectors.kinesis import (FlinkKinesisConsumer,
                                                            KinesisFirehoseSink,
                                                            KinesisStreamsSink,
                                                            PartitionKeyGenerator)
from pyflink_on_spark.datastream.connectors.pulsar import (MessageDelayer, PulsarSink,
                                                           PulsarSource, StartCursor,
                                                           StopCursor, TopicRoutingMode)
from pyflink_on_spark.datastream.connectors.rabbitmq import RMQConnectionConfig, RMQSink


def _stream(type_info=Types.STRING()):
    env = StreamExecutionEnvironment.get_execution_environment()
    return env, env.from_collection(["a"], type_info=Types.STRING()).map(lambda v: v,
                                                                       output_type=type_info)


def _pulsar_source(bounded=False):
    builder = PulsarSource.builder().set_service_url("pulsar://localhost:6650") \
        .set_admin_url("http://localhost:8080").set_subscription_name("sub") \
        .set_topics("t").set_start_cursor(StartCursor.earliest()) \
        .set_deserialization_schema(SimpleStringSchema())
    if bounded:
        builder.set_bounded_stop_cursor(StopCursor.latest())
    return builder.build()


def _rmq_config():
    return RMQConnectionConfig.Builder().set_host("localhost").set_port(5672) \
        .set_virtual_host("/").set_user_name("guest").set_password("guest").build()


@pytest.mark.parametrize("name,make_sink,route", [
    ("PulsarSink", lambda: PulsarSink.builder().set_service_url("pulsar://h:6650")
        .set_admin_url("http://h:8080").set_topics(["t"]).set_serialization_schema(SimpleStringSchema())
        .set_topic_routing_mode(TopicRoutingMode.ROUND_ROBIN)
        .delay_sending_message(MessageDelayer.fixed(Duration.of_seconds(1))).build(),
     "pulsar-spark"),
    ("KinesisStreamsSink", lambda: KinesisStreamsSink.builder().set_stream_name("s")
        .set_serialization_schema(SimpleStringSchema())
        .set_partition_key_generator(PartitionKeyGenerator.fixed())
        .set_kinesis_client_properties({"aws.region": "eu-west-1"}).build(),
     "spark-sql-kinesis"),
    ("KinesisFirehoseSink", lambda: KinesisFirehoseSink.builder()
        .set_delivery_stream_name("d").set_serialization_schema(SimpleStringSchema()).build(),
     "FileSink"),
])
def test_sink_to_raises_naming_the_connector_and_the_spark_route(name, make_sink, route):
    _, ds = _stream()
    with pytest.raises(NotImplementedError, match=name) as error:
        ds.sink_to(make_sink())
    assert route in str(error.value)


def test_sources_raise_when_added_to_the_job():
    env = StreamExecutionEnvironment.get_execution_environment()
    with pytest.raises(NotImplementedError, match="PulsarSource.*pulsar-spark"):
        env.from_source(_pulsar_source(), WatermarkStrategy.no_watermarks(), "pulsar")
    consumer = FlinkKinesisConsumer("stream", SimpleStringSchema(), {"aws.region": "us-east-1"})
    with pytest.raises(NotImplementedError, match="FlinkKinesisConsumer.*spark-sql-kinesis"):
        env.add_source(consumer)


def test_elasticsearch_builder_checks_like_flinks():
    builder = Elasticsearch7SinkBuilder()
    with pytest.raises(ValueError, match="does not support the EXACTLY_ONCE"):
        builder.set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE)
    with pytest.raises(ValueError, match="must be larger than 0"):
        builder.set_bulk_flush_max_actions(0)
    builder.set_bulk_flush_max_actions(-1)   # accepted (the BulkProcessor's 1000 then apply)
    with pytest.raises(ValueError, match="FlushBackoffType#NONE"):
        builder.set_bulk_flush_backoff_strategy(FlushBackoffType.NONE, 1, 1)
    with pytest.raises(ValueError, match="Hosts cannot be empty"):
        builder.set_hosts([])
    with pytest.raises(ValueError, match="emitter"):
        builder.set_hosts("http://h:9200").build()
    assert FlushBackoffType.CONSTANT.value == (0,)   # as in PyFlink 1.20


def test_kinesis_checks_config_and_batching():
    with pytest.raises(ValueError, match="aws.region"):
        FlinkKinesisConsumer(["s"], SimpleStringSchema(), {})
    with pytest.raises(TypeError, match="java.util.Properties"):
        FlinkKinesisConsumer("s", SimpleStringSchema(), {"aws.region": 1})
    with pytest.raises(ValueError, match="at least 1 stream"):
        FlinkKinesisConsumer([], SimpleStringSchema(), {"aws.region": "r"})
    builder = KinesisStreamsSink.builder().set_stream_name("s") \
        .set_serialization_schema(SimpleStringSchema()) \
        .set_partition_key_generator(PartitionKeyGenerator.random())
    # Flink's builder leaves batching settings to the writer: build() accepts these
    builder.set_max_buffered_requests(10).set_max_batch_size(10).build()
    with pytest.raises(ValueError, match="No SerializationSchema was supplied"):
        KinesisStreamsSink.builder().build()
    with pytest.raises(ValueError, match="No PartitionKeyGenerator lambda"):
        KinesisStreamsSink.builder().set_serialization_schema(SimpleStringSchema()).build()
    with pytest.raises(ValueError, match="stream name must not be null"):
        KinesisStreamsSink.builder().set_serialization_schema(SimpleStringSchema()) \
            .set_partition_key_generator(PartitionKeyGenerator.fixed()).build()


def test_pulsar_builders_require_what_flinks_require_in_its_order():
    with pytest.raises(ValueError, match="No topic names or topic pattern"):
        PulsarSource.builder().set_service_url("pulsar://h:6650").build()
    with pytest.raises(ValueError, match="deserializationSchema should be set"):
        PulsarSource.builder().set_topics("t").build()
    source = PulsarSource.builder().set_topics("t") \
        .set_deserialization_schema(SimpleStringSchema())
    with pytest.raises(ValueError, match="'pulsar.admin.adminUrl' , default: null"):
        source.build()
    with pytest.raises(ValueError, match="'pulsar.client.serviceUrl'"):
        source.set_admin_url("http://h:8080").build()
    with pytest.raises(ValueError, match="'pulsar.consumer.subscriptionName'"):
        source.set_service_url("pulsar://h:6650").build()
    with pytest.raises(ValueError, match="Cannot use topic pattern for consumption because a "
                                         "TopicListSubscriber is already set"):
        PulsarSource.builder().set_topics(["a"]).set_topic_pattern("a.*")
    with pytest.raises(ValueError, match="Cannot use topics .* TopicListSubscriber"):
        PulsarSource.builder().set_topics("a").set_topics("b")
    with pytest.warns(DeprecationWarning):
        PulsarSource.builder().set_config_with_dict({"k": "v"})
    with pytest.raises(ValueError, match="serializationSchema must be set"):
        PulsarSink.builder().set_service_url("pulsar://h:6650").build()
    with pytest.raises(ValueError, match="No topic names or custom topic router"):
        PulsarSink.builder().set_serialization_schema(SimpleStringSchema()).build()
    with pytest.raises(ValueError, match="CUSTOM mode should be set by using setTopicRouter"):
        PulsarSink.builder().set_topic_routing_mode(TopicRoutingMode.CUSTOM)


def test_rabbitmq_config_needs_a_uri_or_every_part_of_the_address():
    config = RMQConnectionConfig.Builder().set_uri("amqp://u:p@h:5672/v") \
        .set_prefetch_count(10).set_automatic_recovery(True).build()
    assert config.get_uri() == "amqp://u:p@h:5672/v" and config.is_automatic_recovery()
    assert _rmq_config().get_port() == 5672
    with pytest.raises(ValueError, match="The port is not set"):
        config.get_port()   # Java: NullPointerException unboxing the port
    with pytest.raises(ValueError, match="virtualHost can not be null"):
        RMQConnectionConfig.Builder().set_host("h").set_port(1).build()
    with pytest.raises(ValueError, match="password can not be null"):
        RMQConnectionConfig.Builder().set_host("h").set_port(1).set_virtual_host("/") \
            .set_user_name("u").build()
    with pytest.raises(TypeError, match="RMQConnectionConfig"):
        RMQSink({"host": "h"}, "q", SimpleStringSchema())


def test_jdbc_options_keep_their_settings():
    options = JdbcConnectionOptions.JdbcConnectionOptionsBuilder() \
        .with_url("jdbc:postgresql://h/db").with_driver_name("org.postgresql.Driver") \
        .with_user_name("u").with_password("p").build()
    assert (options.get_db_url(), options.get_driver_name(), options.get_user_name(),
            options.get_password()) == ("jdbc:postgresql://h/db", "org.postgresql.Driver",
                                        "u", "p")
    execution = JdbcExecutionOptions.builder().with_batch_size(10).with_max_retries(0).build()
    assert (execution.get_batch_size(), execution.get_batch_interval_ms(),
            execution.get_max_retries()) == (10, 0, 0)
    defaults = JdbcExecutionOptions.defaults()
    assert (defaults.get_batch_size(), defaults.get_max_retries()) == (5000, 3)
    with pytest.raises(ValueError, match="jdbc url"):
        JdbcConnectionOptions.JdbcConnectionOptionsBuilder().build()
    with pytest.raises(TypeError, match="row type"):
        JdbcSink.sink("insert", Types.STRING(), options)
    # Flink's JdbcTypeUtil refuses a field type it has no JDBC type for (PyFlink 1.20.5 with
    # flink-connector-jdbc 3.1.2-1.18: IllegalArgumentException "Unsupported type: Character")
    with pytest.raises(ValueError, match="Unsupported type: Character"):
        JdbcSink.sink("insert", Types.ROW([Types.INT(), Types.CHAR()]), options)


def test_hybrid_source_builds_and_needs_bounded_sources_first(tmp_path):
    files = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                str(tmp_path)).build()
    kafka = KafkaSource.builder().set_bootstrap_servers("localhost:9092").set_topics("t") \
        .set_value_only_deserializer(SimpleStringSchema()).build()
    hybrid = HybridSource.builder(files).add_source(kafka).build()
    env = StreamExecutionEnvironment.get_execution_environment()
    # an unbounded last source: one source node, run on the streaming path
    # (spark/streaming/tests/test_hybrid_source_recovery.py)
    live = env.from_source(hybrid, WatermarkStrategy.no_watermarks(), "hybrid", Types.STRING())
    assert type(live._transformation.source).__name__ == "HybridSourceSpec"
    assert [type(s).__name__ for s in live._transformation.source.sources] == \
        ["FileSourceSpec", "KafkaSourceSpec"]
    monitored = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                    str(tmp_path)) \
        .monitor_continuously(Duration.of_seconds(1)).build()
    env.from_source(HybridSource.builder(files).add_source(monitored).build(),
                    WatermarkStrategy.no_watermarks(), "hybrid", Types.STRING())
    # no type_info: Flink cannot tell a HybridSource's type (seen on PyFlink 1.20.5:
    # InvalidTypesException at the stream's first use)
    with pytest.raises(TypeError, match="The return type of function 'hybrid' could not be "
                                        "determined automatically"):
        env.from_source(hybrid, WatermarkStrategy.no_watermarks(), "hybrid")
    from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
    with pytest.raises(NotImplementedError, match="HybridSource with NumberSequenceSource"):
        env.from_source(HybridSource.builder(NumberSequenceSource(1, 3)).add_source(kafka)
                        .build(), WatermarkStrategy.no_watermarks(), "hybrid", Types.LONG())
    # bounded sources only: read in sequence, as the union of their streams in order
    both = env.from_source(HybridSource.builder(files).add_source(files).build(),
                           WatermarkStrategy.no_watermarks(), "hybrid", Types.STRING())
    assert type(both._transformation).__name__ == "UnionTransformation"
    with pytest.raises(ValueError, match="All sources except the final source need to be bounded"):
        HybridSource.builder(kafka).add_source(files).build()
    bounded_kafka = KafkaSource.builder().set_bootstrap_servers("h:9092").set_topics("t") \
        .set_bounded(KafkaOffsetsInitializer.latest()) \
        .set_value_only_deserializer(SimpleStringSchema()).build()
    HybridSource.builder(bounded_kafka).add_source(_pulsar_source(bounded=True)) \
        .add_source(files).build()
    with pytest.raises(TypeError, match="made of Sources"):
        HybridSource.builder("not a source")
