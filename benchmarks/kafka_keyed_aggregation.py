"""Kafka -> keyed aggregation -> Kafka, records/s for the shim, real PyFlink and the
plain-Python floor in one run, against one local broker (issue 12).

N records "key,amount" are produced once into an input topic of 2 partitions; each run reads
the topic bounded (earliest -> latest), keeps a rolling sum per key and writes every update
to an output topic of its own (N records out). The runner then reads each output topic back:
N records, and the sum over keys of the highest running total equal to the input's sum.

    python benchmarks/kafka_keyed_aggregation.py [--records 500000] [--keys 1000]
        [--parallelism 2] [--reference /opt/venvs/flink/bin/python] [--bootstrap HOST:PORT]
        [--guarantee at-least-once|exactly-once|both]

Without --bootstrap a broker is started (pyflink_on_spark/spark/tests/kafka_broker.py) and
stopped at the end. The shim runs in this process with a warm SparkSession (carrying Spark's
Kafka connector) after a warm-up job; PyFlink (flink-sql-connector-kafka 3.2.0-1.19 from
~/.m2) is timed inside its job, mini-cluster start included, as in benchmarks/run.py. The
floor is confluent-kafka: consume -> dict -> produce, one process; for exactly-once, one
transactional producer whose single transaction commits at the end (the bounded job's sinks
commit at the end of input too) and the output read back with isolation.level read_committed.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
JOB = os.path.join(HERE, "jobs", "kafka_keyed_aggregation.py")

from run import _parse  # noqa: E402  (benchmarks/run.py: the RESULT line)


def create_topic(bootstrap: str, partitions: int = 2) -> str:
    from confluent_kafka.admin import AdminClient, NewTopic
    topic = "bench-" + uuid.uuid4().hex
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, num_partitions=partitions,
                                  replication_factor=1)])[topic].result()
    return topic


def produce_input(bootstrap: str, records: int, keys: int) -> tuple:
    """An input topic of `records` records "k<i % keys>,<i % 100>"; returns (topic, sum)."""
    from confluent_kafka import Producer
    topic = create_topic(bootstrap)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20,
                         "queue.buffering.max.messages": 1_000_000})
    total = 0
    for i in range(records):
        amount = i % 100
        total += amount
        while True:
            try:
                producer.produce(topic, value=b"k%d,%d" % (i % keys, amount))
                break
            except BufferError:
                producer.poll(0.1)
    producer.flush()
    return topic, total


def _consumer(bootstrap: str, topic: str):
    from confluent_kafka import Consumer, TopicPartition
    # read_committed: an exactly-once run's records count once its transactions committed
    # (the end offsets then include the commit markers, which are never delivered)
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "bench-" + uuid.uuid4().hex,
                         "enable.auto.commit": False, "auto.offset.reset": "earliest",
                         "isolation.level": "read_committed"})
    partitions = consumer.list_topics(topic, timeout=30).topics[topic].partitions
    ends = {}
    assignment = []
    for p in partitions:
        _, high = consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=30)
        ends[p] = high
        assignment.append(TopicPartition(topic, p, 0))
    consumer.assign(assignment)
    return consumer, ends


def read_all(bootstrap: str, topic: str):
    """Every value of the topic, batch by batch, up to the end offsets at the start."""
    consumer, ends = _consumer(bootstrap, topic)
    remaining = {p: end for p, end in ends.items() if end > 0}
    idle = 0
    try:
        # a transactional topic ends with a commit marker, which is never delivered: the read
        # ends when every partition's last record came, or after 5 s with nothing new
        while remaining and idle < 5:
            messages = consumer.consume(num_messages=10000, timeout=1.0)
            idle = 0 if messages else idle + 1
            for message in messages:
                if message.error():
                    raise RuntimeError(message.error())
                p = message.partition()
                if p in remaining and message.offset() < remaining[p]:
                    yield message.value()
                    if message.offset() + 1 >= remaining[p]:
                        del remaining[p]
    finally:
        consumer.close()


def check_output(bootstrap: str, topic: str, records: int, total: int) -> str:
    count, highest = 0, {}
    for value in read_all(bootstrap, topic):
        key, running = value.split(b",")
        count += 1
        running = int(running)
        if running > highest.get(key, -1):
            highest[key] = running
    ok = count == records and sum(highest.values()) == total
    return "ok" if ok else "WRONG: %d records, final sum %d (expected %d, %d)" % (
        count, sum(highest.values()), records, total)


def floor(bootstrap: str, input_topic: str, guarantee: str) -> tuple:
    """consume -> dict aggregate -> produce each update, as one plain Python process."""
    from confluent_kafka import Producer
    output = create_topic(bootstrap)
    config = {"bootstrap.servers": bootstrap, "linger.ms": 20,
              "queue.buffering.max.messages": 1_000_000}
    if guarantee == "exactly-once":
        config.update({"transactional.id": "floor-" + output, "transaction.timeout.ms": 600000})
    producer = Producer(config)
    start = time.perf_counter()
    if guarantee == "exactly-once":
        producer.init_transactions()
        producer.begin_transaction()
    totals = {}
    for value in read_all(bootstrap, input_topic):
        key, amount = value.split(b",")
        total = totals.get(key, 0) + int(amount)
        totals[key] = total
        while True:
            try:
                producer.produce(output, value=b"%s,%d" % (key, total))
                break
            except BufferError:
                producer.poll(0.1)
    if guarantee == "exactly-once":
        producer.commit_transaction()
    producer.flush()
    return time.perf_counter() - start, output


def run_shim(args, bootstrap: str, input_topic: str, warm_topic: str, guarantee: str) -> tuple:
    from pyflink_on_spark.cli.script_runner import run_script_captured
    from pyflink_on_spark.spark.kafka_package import kafka_session
    start = time.perf_counter()
    kafka_session()
    cold = time.perf_counter() - start
    _, error = run_script_captured(JOB, [bootstrap, warm_topic, create_topic(bootstrap),
                                         str(args.parallelism), "1000", guarantee])
    if error is not None:
        raise error
    output = create_topic(bootstrap)
    out, error = run_script_captured(JOB, [bootstrap, input_topic, output,
                                           str(args.parallelism), str(args.records), guarantee])
    if error is not None:
        raise error
    return _parse(out)[1], output, cold


def run_reference(args, bootstrap: str, input_topic: str, guarantee: str) -> tuple:
    output = create_topic(bootstrap)
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(args.reference) + os.pathsep + env.get("PATH", "")
    proc = subprocess.run([args.reference, JOB, bootstrap, input_topic, output,
                           str(args.parallelism), str(args.records), guarantee],
                          capture_output=True, text=True, env=env, timeout=3600)
    return _parse(proc.stdout + proc.stderr)[1], output


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=500_000)
    parser.add_argument("--keys", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--reference", help="python of a venv with apache-flink 1.20")
    parser.add_argument("--bootstrap", help="a running broker (default: start one)")
    parser.add_argument("--guarantee", default="both",
                        choices=["at-least-once", "exactly-once", "both"])
    args = parser.parse_args(argv)
    broker = None
    if args.bootstrap:
        bootstrap = args.bootstrap
    else:
        from pyflink_on_spark.spark.tests.kafka_broker import start_broker
        broker = start_broker()
        bootstrap = broker.bootstrap_servers
    try:
        input_topic, total = produce_input(bootstrap, args.records, args.keys)
        warm_topic, _ = produce_input(bootstrap, 1000, args.keys)
        guarantees = (["at-least-once", "exactly-once"] if args.guarantee == "both"
                      else [args.guarantee])
        for guarantee in guarantees:
            rows = []
            shim_s, shim_out, cold = run_shim(args, bootstrap, input_topic, warm_topic,
                                              guarantee)
            rows.append(("shim (pyflink_on_spark)", shim_s, shim_out))
            if args.reference:
                ref_s, ref_out = run_reference(args, bootstrap, input_topic, guarantee)
                rows.append(("real PyFlink 1.20", ref_s, ref_out))
            floor_s, floor_out = floor(bootstrap, input_topic, guarantee)
            rows.append(("plain Python + confluent-kafka", floor_s, floor_out))
            print("kafka_keyed_aggregation %s: %d records, %d keys, parallelism %d, input "
                  "topic of 2 partitions (SparkSession cold start %.1f s, not counted; load "
                  "%.1f)" % (guarantee, args.records, args.keys, args.parallelism, cold,
                             os.getloadavg()[0]))
            for name, seconds, output in rows:
                print("  %-32s %8.2f s  %10.0f rec/s  %6.2fx the floor's time  output %s"
                      % (name, seconds, args.records / seconds, seconds / floor_s,
                         check_output(bootstrap, output, args.records, total)), flush=True)
            if args.reference:
                print("  shim / PyFlink time ratio: %.2f" % (shim_s / rows[1][1]))
    finally:
        if broker is not None:
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
