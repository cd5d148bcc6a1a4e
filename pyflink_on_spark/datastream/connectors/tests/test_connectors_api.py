"""The connector API mirror: builders, errors for what cannot run, and the declarative specs
the connectors build (their Spark option names are tested in spark/tests)."""

import pytest

from pyflink_on_spark.common import Duration
from pyflink_on_spark.common.serialization import Encoder, SimpleStringSchema
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors import DeliveryGuarantee
from pyflink_on_spark.datastream.connectors.file_system import (
    BucketAssigner, FileEnumeratorProvider, FileSink, FileSource, FileSplitAssignerProvider,
    OnCheckpointRollingPolicy, OutputFileConfig, RollingPolicy, StreamFormat,
    StreamingFileSink)
from pyflink_on_spark.datastream.connectors.kafka import (
    FlinkKafkaConsumer, FlinkKafkaProducer, KafkaOffsetResetStrategy, KafkaOffsetsInitializer,
    KafkaRecordSerializationSchema, KafkaSink, KafkaSource, KafkaTopicPartition, Semantic)
from pyflink_on_spark.datastream.formats.csv import CsvBulkWriters, CsvSchema
from pyflink_on_spark.datastream.functions import SinkFunction, SourceFunction
from pyflink_on_spark.specs.sinks import FileSinkSpec, KafkaSinkSpec
from pyflink_on_spark.specs.sources import (FileSourceSpec, KafkaSourceSpec, LatestOffsets,
                                            SpecificOffsets,
                                            TimestampOffsets)


def test_file_source_builder_accepts_flink_settings_and_is_a_file_source_spec(tmp_path):
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), str(tmp_path)) \
        .process_static_file_set() \
        .set_file_enumerator(FileEnumeratorProvider.default_non_splittable_file_enumerator()) \
        .set_split_assigner(FileSplitAssignerProvider.locality_aware_split_assigner()).build()
    spec = source._source_definition()
    assert isinstance(spec, FileSourceSpec)
    assert spec.paths == (str(tmp_path),)
    assert source._produced_type == Types.STRING()


def test_relative_paths_resolve_against_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), "in").build()
    assert source._source_definition().paths == (str(tmp_path / "in"),)


def test_monitor_continuously_makes_an_unbounded_file_source():
    builder = FileSource.for_record_stream_format(StreamFormat.text_line_format(), "/x")
    spec = builder.monitor_continuously(Duration.of_seconds(1)).build()._source_definition()
    assert spec.monitor_interval_ms == 1000
    static = builder.process_static_file_set().build()._source_definition()
    assert static.monitor_interval_ms == 0
    with pytest.raises(ValueError, match="positive"):
        builder.monitor_continuously(Duration.of_millis(0))


def test_output_file_config_and_policies():
    config = OutputFileConfig.builder().with_part_prefix("pre").with_part_suffix(".txt").build()
    assert (config.get_part_prefix(), config.get_part_suffix()) == ("pre", ".txt")
    assert OutputFileConfig("a", "b").get_part_suffix() == "b"
    policy = RollingPolicy.default_rolling_policy(part_size=10, rollover_interval=5)
    assert policy.get_java_object().part_size == 10
    assert isinstance(RollingPolicy.on_checkpoint_rolling_policy(), OnCheckpointRollingPolicy)
    with pytest.raises(ValueError, match="OnCheckpointRollingPolicy"):
        FileSink.for_bulk_format("/x", CsvBulkWriters.for_schema(
            CsvSchema.builder().add_string_column("a").build())) \
            .with_rolling_policy(RollingPolicy.default_rolling_policy())


def test_file_sink_settings_reach_the_sink_spec(tmp_path):
    sink = FileSink.for_row_format(str(tmp_path), Encoder.simple_string_encoder()) \
        .with_output_file_config(OutputFileConfig("p", ".s")) \
        .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()) \
        .with_rolling_policy(RollingPolicy.default_rolling_policy(part_size=3)) \
        .with_bucket_check_interval(5).build()
    spec = sink._sink_definition(Types.STRING())
    second = sink._sink_definition(Types.STRING())
    assert isinstance(spec, FileSinkSpec)
    assert (spec.part_prefix, spec.part_suffix, spec.rolling.part_size,
            spec.bucket_check_interval, spec.naming) == ("p", ".s", 3, 5, "uuid")
    # every sink_to gets its own staging directory
    assert spec.staging_dir != second.staging_dir
    assert repr(FileSink.for_row_format("/x", Encoder.simple_string_encoder()).build()
                ._sink_definition(None).buckets) == \
        "DateTimeBucketAssigner('yyyy-MM-dd--HH', None)"


def test_streaming_file_sink_is_a_sink_function_with_subtask_naming():
    with pytest.warns(DeprecationWarning):
        sink = StreamingFileSink.for_row_format("/x", Encoder.simple_string_encoder()).build()
    assert isinstance(sink, SinkFunction)
    assert sink._sink_definition(None).naming == "subtask"


def test_csv_schema_prints_like_jackson():
    schema = CsvSchema.builder().add_number_column("id").add_string_column("name") \
        .add_number_column("score").add_boolean_column("ok") \
        .add_array_column("tags", separator=";").build()
    # observed on PyFlink 1.20
    assert str(schema) == ('[CsvSchema: columns=["id"/NUMBER,"name"/STRING,"score"/NUMBER,'
                           '"ok"/BOOLEAN,"tags"/ARRAY], header? false, skipFirst? false, '
                           'comments? false, any-properties? N/A]')
    assert len(schema) == 5
    with pytest.raises(ValueError, match="single char"):
        CsvSchema.builder().set_column_separator("ab")


def test_java_backed_sources_and_sinks_name_the_alternative():
    env = StreamExecutionEnvironment.get_execution_environment()
    with pytest.raises(NotImplementedError, match="from_source"):
        env.add_source(object())
    with pytest.raises(NotImplementedError, match="Java SourceFunction|backed by a Java class"):
        SourceFunction("org.example.MySource")
    ds = env.from_collection([1], type_info=Types.INT())
    with pytest.raises(NotImplementedError, match="sink_to\\(FileSink"):
        ds.add_sink(object())
    with pytest.raises(NotImplementedError, match="Supported sinks: FileSink, KafkaSink"):
        ds.sink_to(object())


# ---- Kafka: the specs the connectors build (Spark's option names: spark/tests) ----

def _source(**settings):
    builder = KafkaSource.builder().set_bootstrap_servers("b1:9092,b2:9092") \
        .set_value_only_deserializer(SimpleStringSchema())
    for name, args in settings.items():
        getattr(builder, name)(*args)
    return builder.build()


def test_kafka_source_is_a_declarative_spec():
    tp0, tp1 = KafkaTopicPartition("t", 0), KafkaTopicPartition("t", 1)
    spec = _source(set_partitions=({tp1, tp0},), set_group_id=("g",),
                   set_starting_offsets=(KafkaOffsetsInitializer.offsets({tp0: 5, tp1: 7}),),
                   set_bounded=(KafkaOffsetsInitializer.timestamp(17),))._source_definition()
    assert isinstance(spec, KafkaSourceSpec)
    assert spec.partitions == (("t", 0), ("t", 1))
    assert spec.starting == SpecificOffsets((("t", 0, 5), ("t", 1, 7)))
    assert spec.stopping == TimestampOffsets(17)
    assert (spec.bootstrap_servers, spec.group_id, spec.bounded) == ("b1:9092,b2:9092", "g",
                                                                     True)
    assert spec.value_decoder(b"x") == "x"


def test_kafka_offsets_refused_at_build_as_pyflink_refuses_them_the_rest_are_specs():
    """Every offsets initializer builds as on PyFlink 1.20.5; what PyFlink refuses only when
    the job runs (earliest() as stopping offsets, a committed start of a group with no
    commits) is refused then (spark/tests/test_kafka_offsets_initializers.py)."""
    with pytest.raises(ValueError, match="group.id is required"):
        _source(set_topics=("t",), set_bounded=(KafkaOffsetsInitializer.latest(),),
                set_starting_offsets=(KafkaOffsetsInitializer.committed_offsets(
                    KafkaOffsetResetStrategy.EARLIEST),))._source_definition()
    nothing = _source(set_topics=("t",), set_bounded=(KafkaOffsetsInitializer.latest(),),
                      set_starting_offsets=(KafkaOffsetsInitializer.latest(),)) \
        ._source_definition()
    assert nothing.bounded and nothing.starting == nothing.stopping == LatestOffsets()
    committed = _source(set_topics=("t",), set_group_id=("g",),
                        set_bounded=(KafkaOffsetsInitializer.latest(),),
                        set_starting_offsets=(KafkaOffsetsInitializer.committed_offsets(
                            KafkaOffsetResetStrategy.EARLIEST),))._source_definition()
    assert committed.bounded and committed.group_id == "g"
    with pytest.raises(ValueError, match="Exactly one of"):
        _source(set_bounded=(KafkaOffsetsInitializer.latest(),))._source_definition()


def test_unbounded_kafka_sources_are_unbounded_specs():
    unbounded = _source(set_topics=("t",),
                        set_starting_offsets=(KafkaOffsetsInitializer.latest(),))
    spec = unbounded._source_definition()
    assert isinstance(spec, KafkaSourceSpec) and not spec.bounded
    assert spec.starting == LatestOffsets()
    with pytest.warns(DeprecationWarning):
        consumer = FlinkKafkaConsumer("t", SimpleStringSchema(),
                                      {"bootstrap.servers": "b:1", "group.id": "g"})
    legacy = consumer._source_definition()
    assert not legacy.bounded and legacy.topics == ("t",) and legacy.group_id == "g"
    # set_unbounded: an unbounded source whose partitions stop at the given offsets
    stopping = _source(set_topics=("t",), set_unbounded=(KafkaOffsetsInitializer.latest(),)) \
        ._source_definition()
    assert not stopping.bounded and stopping.stopping == LatestOffsets()


def test_kafka_sinks_are_declarative_specs():
    serializer = KafkaRecordSerializationSchema.builder().set_topic("out") \
        .set_key_serialization_schema(SimpleStringSchema()) \
        .set_value_serialization_schema(SimpleStringSchema()).build()
    sink = KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(serializer) \
        .set_property("linger.ms", "5").build()
    spec = sink._sink_definition(Types.STRING())
    assert isinstance(spec, KafkaSinkSpec)
    assert spec.properties == (("bootstrap.servers", "b:1"), ("linger.ms", "5"))
    assert (spec.topic, spec.key_serializer("k"), spec.value_serializer("v")) == \
        ("out", b"k", b"v")
    producer = FlinkKafkaProducer("p", SimpleStringSchema(), {"bootstrap.servers": "b:2"})
    assert producer._sink_definition(None).topic == "p"
    with pytest.raises(ValueError, match="bootstrap.servers"):
        FlinkKafkaProducer("p", SimpleStringSchema(), {})._sink_definition(None)


def test_kafka_exactly_once_becomes_a_transactional_sink():
    from pyflink_on_spark.specs.sinks import KafkaSinkSpec, KafkaTransactionalSinkSpec
    serializer = KafkaRecordSerializationSchema.builder() \
        .set_topic_selector(lambda v: "t-" + v) \
        .set_value_serialization_schema(SimpleStringSchema()).build()
    builder = KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(serializer) \
        .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE)
    default = builder.build()._sink_definition(None)
    assert isinstance(default, KafkaTransactionalSinkSpec)
    assert default.transactional_id_prefix == "kafka-sink"   # Flink's builder default
    assert default.records.topic_selector.apply("x") == "t-x"
    named = builder.set_transactional_id_prefix("orders").build()._sink_definition(None)
    assert named.transactional_id_prefix == "orders"
    at_least = builder.set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build()
    assert isinstance(at_least._sink_definition(None), KafkaSinkSpec)
    producer = FlinkKafkaProducer("p", SimpleStringSchema(), {"bootstrap.servers": "b"},
                                  semantic=Semantic.EXACTLY_ONCE)
    legacy = producer._sink_definition(None)
    assert (legacy.sink_name, legacy.transactional_id_prefix, legacy.records.topic) == \
        ("FlinkKafkaProducer", "FlinkKafkaProducer-p", "p")


def test_kafka_split_owner_follows_flinks_enumerator():
    from pyflink_on_spark.common._java_text import java_string_hash
    from pyflink_on_spark.spark.kafka import split_owner
    start = ((java_string_hash("orders") * 31) & 0x7FFFFFFF) % 3
    assert [split_owner("orders", p, 3) for p in range(4)] == \
        [(start + p) % 3 for p in range(4)]
