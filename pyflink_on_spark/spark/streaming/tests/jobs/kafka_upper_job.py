"""An unbounded Kafka -> map -> Kafka job (AT_LEAST_ONCE) with checkpoints, for the recovery
test: python -m pyflink_on_spark.cli.main run kafka_upper_job.py SERVERS IN OUT CHECKPOINTS"""
import sys

from pyflink.common.typeinfo import Types
from pyflink.datastream.connectors.base import DeliveryGuarantee

from kafka_jobs import kafka_input, string_sink

servers, in_topic, out_topic, checkpoints = sys.argv[1:5]
env, stream = kafka_input(servers, in_topic, checkpoints, "upper-job")
sink = string_sink(servers, out_topic) \
    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build()
stream.map(lambda s: s.upper(), output_type=Types.STRING()).sink_to(sink)
env.execute("kafka upper")
