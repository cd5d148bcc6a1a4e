"""Bounded Kafka jobs against a real broker (the session's kafka_broker fixture): Spark's Kafka
connector reads and writes, the shim's engine runs keyed state and timers in between."""
import json
import sys
import uuid

import cloudpickle

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from pyflink_on_spark.common import Row, WatermarkStrategy
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.common.watermark_strategy import TimestampAssigner
from pyflink_on_spark.datastream import StreamExecutionEnvironment
from pyflink_on_spark.datastream.connectors.base import DeliveryGuarantee
from pyflink_on_spark.datastream.connectors.kafka import (KafkaOffsetsInitializer,
                                                          KafkaRecordSerializationSchema,
                                                          KafkaSink, KafkaSource)
from pyflink_on_spark.datastream.formats.avro import (AvroRowDeserializationSchema,
                                                      AvroRowSerializationSchema)
from pyflink_on_spark.datastream.formats.json import (JsonRowDeserializationSchema,
                                                      JsonRowSerializationSchema)
from pyflink_on_spark.datastream.functions import KeyedProcessFunction
from pyflink_on_spark.datastream.state import MapStateDescriptor

# the job's functions are defined here: ship them by value to Spark's workers
cloudpickle.register_pickle_by_value(sys.modules[__name__])

ORDER = Types.ROW_NAMED(["user", "amount", "ts"], [Types.STRING(), Types.INT(), Types.LONG()])
TOTAL = Types.ROW_NAMED(["user", "total"], [Types.STRING(), Types.INT()])
AVRO_ORDER = json.dumps({"type": "record", "name": "Order", "fields": [
    {"name": "user", "type": "string"}, {"name": "amount", "type": "int"},
    {"name": "ts", "type": "long"}]})
ORDERS = [("alice", 3, 1000), ("bob", 5, 1500), ("alice", 4, 2000), ("carol", 1, 2500),
          ("bob", 2, 4000), ("alice", 10, 9000)]


def new_topics(servers: str, *names: str, partitions: int = 2, keep_forever: bool = False):
    """Unique topic names (the broker lives for the whole test session). keep_forever: no
    time-based retention, for records with old timestamps (the broker deletes records older
    than its retention, 7 days, within its 5-minute retention check)."""
    suffix = uuid.uuid4().hex[:8]
    topics = [n + "-" + suffix for n in names]
    admin = AdminClient({"bootstrap.servers": servers})
    config = {"retention.ms": "-1"} if keep_forever else {}
    for future in admin.create_topics([NewTopic(t, partitions, 1, config=config)
                                       for t in topics]).values():
        future.result()
    return topics


def produce(servers: str, topic: str, values, keys=None, partitions=None,
            timestamps=None) -> None:
    """Values with optional keys, partitions and record timestamps (epoch ms), in order."""
    producer = Producer({"bootstrap.servers": servers})
    for n, value in enumerate(values):
        extra = {}
        if partitions is not None:
            extra["partition"] = partitions[n]
        if timestamps is not None:
            extra["timestamp"] = timestamps[n]
        producer.produce(topic, value, key=keys[n] if keys else None, **extra)
    assert producer.flush(30) == 0


def consume_all(servers: str, topic: str, expected: int, committed_only: bool = True):
    consumer = Consumer({"bootstrap.servers": servers, "group.id": uuid.uuid4().hex,
                         "auto.offset.reset": "earliest", "enable.auto.commit": False,
                         "isolation.level": "read_committed" if committed_only
                         else "read_uncommitted"})
    consumer.subscribe([topic])
    records, idle = [], 0
    try:
        # all expected records, then 2 quiet polls (a duplicate would show); gives up after
        # 60 empty polls (the assertion then shows what is missing)
        while idle < (2 if len(records) >= expected else 60):
            message = consumer.poll(1.0)
            if message is None:
                idle += 1
                continue
            idle = 0
            assert message.error() is None, message.error()
            records.append((message.key(), message.value()))
    finally:
        consumer.close()
    return records


class EventTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value["ts"]


class TotalAtWindowEnd(KeyedProcessFunction):
    """Sums each user's amounts per 5 s window in MapState and emits a window's sum from an
    event-time timer at its end (so the output depends on state and on timers, whatever
    the watermarks' pace)."""

    def open(self, context):
        self.totals = context.get_map_state(
            MapStateDescriptor("totals", Types.LONG(), Types.INT()))

    def process_element(self, value, ctx):
        window_end = value["ts"] // 5000 * 5000 + 4999
        self.totals.put(window_end, (self.totals.get(window_end) or 0) + value["amount"])
        ctx.timer_service().register_event_time_timer(window_end)

    def on_timer(self, timestamp, ctx):
        total = self.totals.get(timestamp)
        self.totals.remove(timestamp)
        yield Row(user=ctx.get_current_key(), total=total)


def run_orders_job(servers, source_topic, sink_topic, deserializer, serializer, key=None):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    source = KafkaSource.builder().set_bootstrap_servers(servers) \
        .set_topics(source_topic).set_group_id("orders-job") \
        .set_starting_offsets(KafkaOffsetsInitializer.earliest()) \
        .set_bounded(KafkaOffsetsInitializer.latest()) \
        .set_value_only_deserializer(deserializer).build()
    record_serializer = KafkaRecordSerializationSchema.builder().set_topic(sink_topic) \
        .set_value_serialization_schema(serializer)
    if key is not None:
        record_serializer = record_serializer.set_key_serialization_schema(key)
    sink = KafkaSink.builder().set_bootstrap_servers(servers) \
        .set_record_serializer(record_serializer.build()) \
        .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build()
    watermarks = WatermarkStrategy.for_monotonous_timestamps() \
        .with_timestamp_assigner(EventTime())
    env.from_source(source, watermarks, "orders") \
        .key_by(lambda order: order["user"], key_type=Types.STRING()) \
        .process(TotalAtWindowEnd(), output_type=TOTAL) \
        .sink_to(sink)
    env.execute("orders")


EXPECTED_TOTALS = [("alice", 7), ("alice", 10), ("bob", 7), ("carol", 1)]


def test_bounded_json_kafka_to_keyed_state_and_timers_to_kafka(spark, kafka_broker):
    source_topic, sink_topic = new_topics(kafka_broker, "orders-json", "totals-json")
    # one user's orders in one partition (keyed by user), in time order
    produce(kafka_broker, source_topic,
            [json.dumps({"user": u, "amount": a, "ts": t}).encode() for u, a, t in ORDERS],
            keys=[u.encode() for u, _, _ in ORDERS])
    run_orders_job(kafka_broker, source_topic, sink_topic,
                   JsonRowDeserializationSchema.builder().type_info(ORDER).build(),
                   JsonRowSerializationSchema.builder().with_type_info(TOTAL).build())
    records = consume_all(kafka_broker, sink_topic, len(EXPECTED_TOTALS))
    assert sorted((json.loads(v)["user"], json.loads(v)["total"]) for _, v in records) == \
        EXPECTED_TOTALS


def test_bounded_avro_kafka_job_writes_keyed_avro_records(spark, kafka_broker):
    from pyflink_on_spark.codecs.formats import avro as codec
    source_topic, sink_topic = new_topics(kafka_broker, "orders-avro", "totals-avro")
    schema = codec.parse_schema(AVRO_ORDER)
    produce(kafka_broker, source_topic,
            [codec.serialize(Row(user=u, amount=a, ts=t), schema) for u, a, t in ORDERS],
            keys=[u.encode() for u, _, _ in ORDERS])
    total_schema = json.dumps({"type": "record", "name": "Total", "fields": [
        {"name": "user", "type": "string"}, {"name": "total", "type": "int"}]})
    run_orders_job(kafka_broker, source_topic, sink_topic,
                   AvroRowDeserializationSchema(avro_schema_string=AVRO_ORDER),
                   AvroRowSerializationSchema(avro_schema_string=total_schema),
                   key=JsonRowSerializationSchema.builder().with_type_info(TOTAL).build())
    records = consume_all(kafka_broker, sink_topic, len(EXPECTED_TOTALS))
    parsed = codec.parse_schema(total_schema)
    decoded = [codec.deserialize(v, parsed, lambda names, values: dict(zip(names, values)))
               for _, v in records]
    assert sorted((d["user"], d["total"]) for d in decoded) == EXPECTED_TOTALS
    # the key serializer ran on the same element
    assert sorted(json.loads(k)["user"] for k, _ in records) == \
        sorted(u for u, _ in EXPECTED_TOTALS)
