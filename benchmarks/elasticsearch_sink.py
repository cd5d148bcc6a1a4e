"""ElasticsearchSink -> Elasticsearch 7.17, records/s of the shim against a plain `_bulk` loop,
in one run.

The same N documents {"id", "name", "amount"} (as strings: a Types.MAP(STRING, STRING) stream)
are upserted by id into an index (update actions with doc + upsert, as PyFlink's emitter makes
them with a key field) by

- the shim: NumberSequenceSource(1, N) -> map(dict) -> Elasticsearch7SinkBuilder sink with
  `set_bulk_flush_max_actions(--bulk)`, in a warm SparkSession (a small warm-up job first),
  parallelism --parallelism (each sink subtask sends its own bulks);
- the floor: one http.client connection, the same update actions built in a Python loop and
  POSTed to `_bulk` every --bulk actions (json.dumps per record, one request per bulk).

Each run starts from an empty index and is checked: N documents after a refresh.

    python benchmarks/elasticsearch_sink.py [--records 100000] [--bulk 1000]
        [--parallelism 2] [--url http://127.0.0.1:9200]

Without --url a node is started (pyflink_on_spark/tests/elasticsearch_server.py) and stopped at
the end.
"""
from __future__ import annotations

import argparse
import http.client
import json
import time
from urllib.parse import urlsplit

INDEX = "bench"


def make_doc(i):
    return {"id": str(i), "name": "name-%d" % i, "amount": str(i * 0.5)}


def reset_index(url: str) -> None:
    from pyflink_on_spark.tests.elasticsearch_server import request
    request(url + "/" + INDEX, "DELETE")
    # one shard, no replica: the node is alone, and a yellow index would not change the cost
    request(url + "/" + INDEX, "PUT",
            b'{"settings": {"number_of_shards": 1, "number_of_replicas": 0}}')


def check_index(url: str, records: int) -> None:
    from pyflink_on_spark.tests.elasticsearch_server import request
    request(url + "/%s/_refresh" % INDEX, "POST")
    count = request(url + "/%s/_count" % INDEX).get("count")
    if count != records:
        raise SystemExit("index %s holds %s documents, expected %d" % (INDEX, count, records))


def run_floor(url: str, records: int, bulk: int) -> float:
    reset_index(url)
    parts = urlsplit(url)
    started = time.perf_counter()
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    lines = []

    def send():
        connection.request("POST", "/_bulk", body="".join(lines).encode("utf-8"),
                           headers={"Content-Type": "application/x-ndjson"})
        answer = json.loads(connection.getresponse().read())
        if answer.get("errors"):
            raise SystemExit("the floor's bulk failed: %s" % str(answer)[:500])
        lines.clear()

    for i in range(1, records + 1):
        doc = json.dumps(make_doc(i))
        lines.append('{"update":{"_index":"%s","_id":"%d"}}\n{"doc":%s,"upsert":%s}\n'
                     % (INDEX, i, doc, doc))
        if len(lines) == bulk:
            send()
    if lines:
        send()
    connection.close()
    elapsed = time.perf_counter() - started
    check_index(url, records)
    return elapsed


def run_shim(url: str, records: int, bulk: int, parallelism: int) -> float:
    from pyflink_on_spark.common import WatermarkStrategy
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.elasticsearch import (
        Elasticsearch7SinkBuilder, ElasticsearchEmitter)
    from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource

    def job(n: int) -> float:
        reset_index(url)
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(parallelism)
        env.from_source(NumberSequenceSource(1, n), WatermarkStrategy.no_watermarks(), "ids") \
            .map(make_doc, output_type=Types.MAP(Types.STRING(), Types.STRING())) \
            .sink_to(Elasticsearch7SinkBuilder().set_hosts([url])
                     .set_emitter(ElasticsearchEmitter.static_index(INDEX, "id"))
                     .set_bulk_flush_max_actions(bulk).build())
        started = time.perf_counter()
        env.execute("elasticsearch bench")
        elapsed = time.perf_counter() - started
        check_index(url, n)
        return elapsed

    job(1000)                                   # warm-up: the session, the workers
    return job(records)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--bulk", type=int, default=1000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--url", help="a running node's HTTP address (default: start one)")
    args = parser.parse_args(argv)
    node = None
    url = args.url
    if url is None:
        from pyflink_on_spark.tests.elasticsearch_server import start_node
        node = start_node()
        url = node.url
    try:
        shim_s = run_shim(url, args.records, args.bulk, args.parallelism)
        floor_s = run_floor(url, args.records, args.bulk)
    finally:
        if node is not None:
            node.stop()
    print("ElasticsearchSink -> Elasticsearch 7.17 upserts, %d records, bulks of %d, "
          "parallelism %d" % (args.records, args.bulk, args.parallelism))
    print("  %-34s %8.2f s %10.0f records/s" % ("shim (pyflink_on_spark)", shim_s,
                                                 args.records / shim_s))
    print("  %-34s %8.2f s %10.0f records/s" % ("floor (http.client _bulk loop)", floor_s,
                                                 args.records / floor_s))
    print("  shim / floor time ratio: %.2f" % (shim_s / floor_s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
