"""The job of benchmarks/kafka_sustained.py, an unmodified PyFlink program: an unbounded
KafkaSource of "key,written_us" -> key_by -> keyed ValueState running count -> KafkaSink of
"key,count,written_us" (one output per input, so the harness can time every record).

    kafka_sustained_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC CHECKPOINT_DIR INTERVAL_MS
        [PARALLELISM] [GUARANTEE]

GUARANTEE: at-least-once (default) or exactly-once (KafkaSink's delivery guarantee).
"""
import sys

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink,
                                                 KafkaSource)
from pyflink.datastream.state import ValueStateDescriptor


class Count(KeyedProcessFunction):
    def open(self, ctx):
        self.count = ctx.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, value, ctx):
        n = (self.count.value() or 0) + 1
        self.count.update(n)
        key, written = value.split(",", 1)
        yield "%s,%d,%s" % (key, n, written)


def main(bootstrap, input_topic, output_topic, checkpoints, interval_ms, parallelism="2",
         guarantee="at-least-once"):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(int(parallelism))
    env.enable_checkpointing(int(interval_ms))
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
    source = KafkaSource.builder() \
        .set_bootstrap_servers(bootstrap) \
        .set_topics(input_topic) \
        .set_group_id("sustained-" + output_topic) \
        .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_value_only_deserializer(SimpleStringSchema()) \
        .build()
    sink = KafkaSink.builder() \
        .set_bootstrap_servers(bootstrap) \
        .set_record_serializer(KafkaRecordSerializationSchema.builder()
                               .set_topic(output_topic)
                               .set_value_serialization_schema(SimpleStringSchema())
                               .build()) \
        .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE if guarantee == "exactly-once"
                                else DeliveryGuarantee.AT_LEAST_ONCE) \
        .set_transactional_id_prefix("sustained-" + output_topic) \
        .build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "input") \
        .key_by(lambda value: value.split(",", 1)[0], key_type=Types.STRING()) \
        .process(Count(), output_type=Types.STRING()) \
        .sink_to(sink)
    env.execute("kafka sustained")


if __name__ == "__main__":
    main(*sys.argv[1:8])
