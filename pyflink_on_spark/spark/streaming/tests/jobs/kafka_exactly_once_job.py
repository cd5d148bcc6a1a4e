"""An unbounded Kafka -> keyed running count -> KafkaSink (EXACTLY_ONCE) job with checkpoints,
for the exactly-once recovery test:
python -m pyflink_on_spark.cli.main run kafka_exactly_once_job.py SERVERS IN OUT CHECKPOINTS"""
import sys

from pyflink.common.typeinfo import Types
from pyflink.datastream.connectors.base import DeliveryGuarantee

from kafka_jobs import kafka_input, string_sink

servers, in_topic, out_topic, checkpoints = sys.argv[1:5]
env, stream = kafka_input(servers, in_topic, checkpoints, "count-job")
sink = string_sink(servers, out_topic) \
    .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE) \
    .set_transactional_id_prefix("count-job-" + out_topic) \
    .set_property("transaction.timeout.ms", "60000").build()
stream.map(lambda s: (s[0], 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda r: r[0], key_type=Types.STRING()) \
    .reduce(lambda a, b: (a[0], a[1] + b[1])) \
    .map(lambda r: "%s:%d" % r, output_type=Types.STRING()) \
    .sink_to(sink)
env.execute("kafka exactly once count")
