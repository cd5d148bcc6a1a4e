"""RMQSink -> RabbitMQ, records/s of the shim against the plain-client floor, in one run.

The same N string records ("record-<i>", ~12 bytes) are published to a fresh queue by

- the shim: NumberSequenceSource(1, N) -> map(str) -> add_sink(RMQSink(..., SimpleStringSchema())),
  in a warm SparkSession (a small warm-up job first), parallelism --parallelism (each sink
  subtask has its own connection and confirms);
- the floor: one pika connection in confirm mode publishing the same records in a Python
  loop and waiting for every confirm at the end, as the shim's publisher does
  (codecs/rabbitmq/publisher.py: publishes through the channel without waiting, counting
  acks as they arrive).

Each run is checked: the queue holds N messages, then is deleted.

    python benchmarks/rabbitmq_sink.py [--records 200000] [--parallelism 2]
        [--address 127.0.0.1:5672]

Without --address a broker is started (pyflink_on_spark/tests/rabbitmq_server.py) and stopped
at the end.
"""
from __future__ import annotations

import argparse
import time
import uuid


def _queue_size_then_delete(address: str, queue: str) -> int:
    import pika
    host, port = address.rsplit(":", 1)
    connection = pika.BlockingConnection(pika.ConnectionParameters(host, int(port)))
    channel = connection.channel()
    count = channel.queue_declare(queue, durable=True, passive=True).method.message_count
    channel.queue_delete(queue)
    connection.close()
    return count


def _check(address: str, queue: str, records: int) -> None:
    count = _queue_size_then_delete(address, queue)
    if count != records:
        raise SystemExit("queue %s holds %d messages, expected %d" % (queue, count, records))


def run_floor(address: str, records: int) -> float:
    """Plain pika: the records published in a loop on a channel in confirm mode, every
    confirm awaited at the end (pika's BlockingChannel waits for each message's confirm,
    ~5k/s here, so the loop publishes through the channel underneath it, as the shim's
    publisher does)."""
    import pika
    host, port = address.rsplit(":", 1)
    queue = "bench-floor-" + uuid.uuid4().hex[:8]
    started = time.perf_counter()
    connection = pika.BlockingConnection(pika.ConnectionParameters(host, int(port)))
    channel = connection.channel()
    channel.queue_declare(queue, durable=True)
    confirmed = [0]

    def on_confirm(frame):
        if isinstance(frame.method, pika.spec.Basic.Nack):
            raise SystemExit("the broker refused a record")
        confirmed[0] = max(confirmed[0], frame.method.delivery_tag)   # acks come in order

    raw = channel._impl
    raw.confirm_delivery(on_confirm)
    connection.process_data_events(0)
    for i in range(1, records + 1):
        raw.basic_publish("", queue, ("record-%d" % i).encode())
        if i % 1000 == 0:
            connection.process_data_events(0)
    while confirmed[0] < records:
        connection.process_data_events(0.05)
    connection.close()
    elapsed = time.perf_counter() - started
    _check(address, queue, records)
    return elapsed


def run_shim(address: str, records: int, parallelism: int) -> float:
    from pyflink_on_spark.common import WatermarkStrategy
    from pyflink_on_spark.common.serialization import SimpleStringSchema
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
    from pyflink_on_spark.datastream.connectors.rabbitmq import RMQConnectionConfig, RMQSink
    host, port = address.rsplit(":", 1)
    config = RMQConnectionConfig.Builder().set_host(host).set_port(int(port)) \
        .set_virtual_host("/").set_user_name("guest").set_password("guest").build()

    def job(n: int) -> float:
        queue = "bench-shim-" + uuid.uuid4().hex[:8]
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(parallelism)
        env.from_source(NumberSequenceSource(1, n), WatermarkStrategy.no_watermarks(), "ids") \
            .map(lambda i: "record-%d" % i, output_type=Types.STRING()) \
            .add_sink(RMQSink(config, queue, SimpleStringSchema()))
        started = time.perf_counter()
        env.execute("rmq sink bench")
        elapsed = time.perf_counter() - started
        _check(address, queue, n)
        return elapsed

    job(1000)                                   # warm-up: the session, the workers
    return job(records)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--address", help="a running broker's host:port (default: start one)")
    args = parser.parse_args(argv)
    server = None
    address = args.address
    if address is None:
        from pyflink_on_spark.tests.rabbitmq_server import start_server
        server = start_server()
        address = server.address
    try:
        shim_s = run_shim(address, args.records, args.parallelism)
        floor_s = run_floor(address, args.records)
    finally:
        if server is not None:
            server.stop()
    print("RMQSink -> RabbitMQ, %d records, parallelism %d" % (args.records, args.parallelism))
    print("  %-34s %8.2f s %10.0f records/s" % ("shim (pyflink_on_spark)", shim_s,
                                                 args.records / shim_s))
    print("  %-34s %8.2f s %10.0f records/s" % ("floor (pika loop with confirms)", floor_s,
                                                 args.records / floor_s))
    print("  shim / floor time ratio: %.2f" % (shim_s / floor_s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
