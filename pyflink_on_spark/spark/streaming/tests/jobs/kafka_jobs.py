"""What the unbounded Kafka test jobs share (imported from beside the job scripts): the
checkpointed environment, the Kafka source and the sink's builder."""
from pyflink.common import WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)


def kafka_input(servers, in_topic, checkpoints, group):
    """The environment (parallelism 2, checkpoints every 300 ms in `checkpoints`) and the
    stream of `in_topic` from its earliest offsets."""
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.enable_checkpointing(300)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
    source = KafkaSource.builder().set_bootstrap_servers(servers).set_topics(in_topic) \
        .set_group_id(group).set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_value_only_deserializer(SimpleStringSchema()).build()
    return env, env.from_source(source, WatermarkStrategy.no_watermarks(), "in")


def string_sink(servers, out_topic):
    """A KafkaSink builder writing strings to `out_topic`."""
    return KafkaSink.builder().set_bootstrap_servers(servers) \
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out_topic)
                               .set_value_serialization_schema(SimpleStringSchema()).build())
