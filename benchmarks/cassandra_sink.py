"""CassandraSink -> Cassandra, records/s of the shim against the plain-client floor, in one run.

The same N rows (id, name, amount, big) are upserted (Cassandra's INSERT) by

- the shim: NumberSequenceSource(1, N) -> map(row) -> CassandraSink (prepared INSERT,
  asynchronous writes, --max-concurrent in flight per subtask), in a warm SparkSession (a
  small warm-up job first), parallelism --parallelism (a session per sink subtask);
- the floor: one cassandra-driver session, the rows built in a Python loop and written with
  `execute_concurrent_with_args(session, prepared, rows, concurrency=--max-concurrent)` per
  --chunk rows.

Each run starts from an empty table and is checked (every id is there).

    python benchmarks/cassandra_sink.py [--records 100000] [--parallelism 2]
        [--max-concurrent 100] [--host-port 127.0.0.1:9042]

Without --host-port a node is started (pyflink_on_spark/tests/cassandra_server.py) and
stopped at the end.
"""
from __future__ import annotations

import argparse
import time

INSERT = "INSERT INTO bench.t (id, name, amount, big) VALUES (?, ?, ?, ?)"


def make_row(i):
    return (i, "name-%d" % i, i * 0.5, i * 1000)


def _session(host: str, port: int):
    from cassandra.cluster import Cluster
    cluster = Cluster([host], port=port)
    return cluster, cluster.connect()


def reset_table(host: str, port: int) -> None:
    cluster, session = _session(host, port)
    session.execute("CREATE KEYSPACE IF NOT EXISTS bench WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    session.execute("DROP TABLE IF EXISTS bench.t")
    session.execute("CREATE TABLE bench.t (id int PRIMARY KEY, name text, amount double, "
                    "big bigint)")
    cluster.shutdown()


def check_table(host: str, port: int, records: int) -> None:
    """Every id 1..records is there (read page by page: a COUNT(*) over the whole table times
    out on the server of a loaded machine)."""
    from cassandra.query import SimpleStatement
    cluster, session = _session(host, port)
    ids = set(row[0] for row in session.execute(
        SimpleStatement("SELECT id FROM bench.t", fetch_size=5000), timeout=60))
    cluster.shutdown()
    if ids != set(range(1, records + 1)):
        raise SystemExit("bench.t holds %d ids, expected 1..%d" % (len(ids), records))


def run_floor(host: str, port: int, records: int, concurrency: int, chunk: int) -> float:
    from cassandra.concurrent import execute_concurrent_with_args
    reset_table(host, port)
    cluster, session = _session(host, port)
    prepared = session.prepare(INSERT)
    started = time.perf_counter()
    for first in range(1, records + 1, chunk):
        rows = [make_row(i) for i in range(first, min(first + chunk, records + 1))]
        for ok, result in execute_concurrent_with_args(session, prepared, rows,
                                                       concurrency=concurrency):
            if not ok:
                raise SystemExit("floor write failed: %s" % result)
    elapsed = time.perf_counter() - started
    cluster.shutdown()
    check_table(host, port, records)
    return elapsed


def run_shim(host: str, port: int, records: int, concurrency: int, parallelism: int) -> float:
    from pyflink_on_spark.common import Row, WatermarkStrategy
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.cassandra import CassandraSink
    from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
    row_type = Types.ROW([Types.INT(), Types.STRING(), Types.DOUBLE(), Types.LONG()])

    def job(n: int) -> float:
        reset_table(host, port)
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(parallelism)
        rows = env.from_source(NumberSequenceSource(1, n), WatermarkStrategy.no_watermarks(),
                               "ids").map(lambda i: Row(*make_row(i)), output_type=row_type)
        CassandraSink.add_sink(rows).set_query(INSERT).set_host(host, port) \
            .set_max_concurrent_requests(concurrency).build()
        started = time.perf_counter()
        env.execute("cassandra bench")
        elapsed = time.perf_counter() - started
        check_table(host, port, n)
        return elapsed

    job(1000)                                   # warm-up: the session, the workers
    return job(records)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--max-concurrent", type=int, default=100)
    parser.add_argument("--chunk", type=int, default=10_000)
    parser.add_argument("--host-port", help="a running node's host:port (default: start one)")
    args = parser.parse_args(argv)
    server = None
    if args.host_port is None:
        from pyflink_on_spark.tests.cassandra_server import start_server
        server = start_server()
        host, port = server.host, server.port
    else:
        host, port = args.host_port.rsplit(":", 1)
        port = int(port)
    try:
        shim_s = run_shim(host, port, args.records, args.max_concurrent, args.parallelism)
        floor_s = run_floor(host, port, args.records, args.max_concurrent, args.chunk)
    finally:
        if server is not None:
            server.stop()
    print("CassandraSink -> Cassandra upsert, %d records, %d in flight, parallelism %d"
          % (args.records, args.max_concurrent, args.parallelism))
    print("  %-40s %8.2f s %10.0f records/s" % ("shim (pyflink_on_spark)", shim_s,
                                                 args.records / shim_s))
    print("  %-40s %8.2f s %10.0f records/s" % ("floor (execute_concurrent_with_args loop)",
                                                 floor_s, args.records / floor_s))
    print("  shim / floor time ratio: %.2f" % (shim_s / floor_s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
