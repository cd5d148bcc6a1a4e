"""An unbounded RMQSource (correlation ids) -> map -> FileSink job with checkpoints, for the
recovery test: python -m pyflink_on_spark.cli.main run rabbitmq_upper_job.py HOST:PORT QUEUE
OUT_DIR CHECKPOINTS"""
import sys

from pyflink.common.serialization import Encoder, SimpleStringSchema
from pyflink.common.typeinfo import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSink
from pyflink.datastream.connectors.rabbitmq import RMQConnectionConfig, RMQSource

address, queue, out_dir, checkpoints = sys.argv[1:5]
host, port = address.rsplit(":", 1)
env = StreamExecutionEnvironment.get_execution_environment()
env.enable_checkpointing(500)
env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + checkpoints)
config = RMQConnectionConfig.Builder().set_host(host).set_port(int(port)) \
    .set_virtual_host("/").set_user_name("guest").set_password("guest").build()
env.add_source(RMQSource(config, queue, True, SimpleStringSchema()), "rmq") \
    .map(lambda s: s.upper(), output_type=Types.STRING()) \
    .sink_to(FileSink.for_row_format(out_dir, Encoder.simple_string_encoder()).build())
env.execute("rmq upper")
