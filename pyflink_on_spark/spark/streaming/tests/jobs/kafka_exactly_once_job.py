"""An unbounded Kafka -> keyed running count -> KafkaSink (EXACTLY_ONCE) job with checkpoints,
for the exactly-once recovery test:
python -m pyflink_on_spark.cli.main run kafka_exactly_once_job.py SERVERS IN OUT CHECKPOINTS"""
import sys

from pyflink.common import WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)

servers, in_topic, out_topic, checkpoints = sys.argv[1:5]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
env.enable_checkpointing(300)
env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
source = KafkaSource.builder().set_bootstrap_servers(servers).set_topics(in_topic) \
    .set_group_id("count-job").set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
    .set_value_only_deserializer(SimpleStringSchema()).build()
sink = KafkaSink.builder().set_bootstrap_servers(servers) \
    .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out_topic)
                           .set_value_serialization_schema(SimpleStringSchema()).build()) \
    .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE) \
    .set_transactional_id_prefix("count-job-" + out_topic) \
    .set_property("transaction.timeout.ms", "60000").build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "in") \
    .map(lambda s: (s[0], 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda r: r[0], key_type=Types.STRING()) \
    .reduce(lambda a, b: (a[0], a[1] + b[1])) \
    .map(lambda r: "%s:%d" % r, output_type=Types.STRING()) \
    .sink_to(sink)
env.execute("kafka exactly once count")
