"""A HybridSource (a directory of files, then an unbounded Kafka topic from earliest) ->
keyed running count -> KafkaSink (EXACTLY_ONCE) job with checkpoints, for the hybrid
source's recovery test: python -m pyflink_on_spark.cli.main run hybrid_exactly_once_job.py
SERVERS FILES IN OUT CHECKPOINTS. Each output record is "<input value>:<count of its key so
far>", the key being the value's first character."""
import sys

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat
from pyflink.datastream.connectors.hybrid_source import HybridSource
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource

from kafka_jobs import string_sink

servers, files_dir, in_topic, out_topic, checkpoints = sys.argv[1:6]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
env.enable_checkpointing(300)
env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
files = FileSource.for_record_stream_format(StreamFormat.text_line_format(), files_dir).build()
live = KafkaSource.builder().set_bootstrap_servers(servers).set_topics(in_topic) \
    .set_group_id("hybrid-job").set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
    .set_value_only_deserializer(SimpleStringSchema()).build()
source = HybridSource.builder(files).add_source(live).build()
sink = string_sink(servers, out_topic) \
    .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE) \
    .set_transactional_id_prefix("hybrid-job-" + out_topic) \
    .set_property("transaction.timeout.ms", "60000").build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "backlog then live",
                Types.STRING()) \
    .map(lambda s: (s[0], s, 1),
         output_type=Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()])) \
    .key_by(lambda r: r[0], key_type=Types.STRING()) \
    .reduce(lambda a, b: (a[0], b[1], a[2] + b[2])) \
    .map(lambda r: "%s:%d" % (r[1], r[2]), output_type=Types.STRING()) \
    .sink_to(sink)
env.execute("hybrid exactly once count")
