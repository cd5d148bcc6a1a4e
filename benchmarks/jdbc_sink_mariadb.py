"""JdbcSink -> MariaDB, records/s of the shim against the plain-client floor, in one run.

The same N rows (id, name, amount, at) are upserted by

- the shim: NumberSequenceSource(1, N) -> map(row) -> JdbcSink.sink(upsert, ...), batch
  size --batch-size, in a warm SparkSession (a small warm-up job first), parallelism
  --parallelism (each sink subtask has its own connection);
- the floor: one PyMySQL connection, the rows built in a Python loop and written with
  `cursor.executemany(upsert, batch)` + `commit()` per --batch-size rows.

Each run starts from an empty table and is checked: N rows, the sum of ids as expected.

    python benchmarks/jdbc_sink_mariadb.py [--records 200000] [--batch-size 5000]
        [--parallelism 2] [--url jdbc:mariadb://127.0.0.1:3306/test?user=root]

Without --url a server is started (pyflink_on_spark/tests/mariadb_server.py) and stopped at
the end.
"""
from __future__ import annotations

import argparse
import datetime
import time

UPSERT = ("INSERT INTO bench (id, name, amount, at) VALUES (?, ?, ?, ?) "
          "ON DUPLICATE KEY UPDATE name = VALUES(name), amount = VALUES(amount), at = VALUES(at)")
BASE = datetime.datetime(2024, 1, 1)


def make_row(i):
    return (i, "name-%d" % i, i * 0.5, BASE + datetime.timedelta(seconds=i))


def _connect(url: str):
    import pymysql
    from pyflink_on_spark.codecs.jdbc.mysql import mysql_settings
    settings = mysql_settings(url)
    host, port = settings.hosts[0]
    return pymysql.connect(**settings.connect_kwargs(host, port))


def reset_table(url: str) -> None:
    connection = _connect(url)
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS bench")
        cursor.execute("CREATE TABLE bench (id int PRIMARY KEY, name varchar(40), "
                       "amount double, at datetime(6))")
    connection.commit()
    connection.close()


def check_table(url: str, records: int) -> None:
    connection = _connect(url)
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*), SUM(id) FROM bench")
        count, total = cursor.fetchone()
    connection.close()
    expected = records * (records + 1) // 2
    if (count, int(total or 0)) != (records, expected):
        raise SystemExit("bench table holds %s rows summing to %s, expected %d and %d"
                         % (count, total, records, expected))


def run_floor(url: str, records: int, batch_size: int) -> float:
    from pyflink_on_spark.codecs.jdbc.statements import FORMAT, MYSQL, convert_placeholders
    statement, _ = convert_placeholders(UPSERT, FORMAT, MYSQL)
    reset_table(url)
    started = time.perf_counter()
    connection = _connect(url)
    batch = []
    with connection.cursor() as cursor:
        for i in range(1, records + 1):
            batch.append(make_row(i))
            if len(batch) == batch_size:
                cursor.executemany(statement, batch)
                connection.commit()
                batch = []
        if batch:
            cursor.executemany(statement, batch)
            connection.commit()
    connection.close()
    elapsed = time.perf_counter() - started
    check_table(url, records)
    return elapsed


def run_shim(url: str, records: int, batch_size: int, parallelism: int) -> float:
    from pyflink_on_spark.common import Row, WatermarkStrategy
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.jdbc import (JdbcConnectionOptions,
                                                             JdbcExecutionOptions, JdbcSink)
    from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource
    row_type = Types.ROW_NAMED(["id", "name", "amount", "at"],
                               [Types.INT(), Types.STRING(), Types.DOUBLE(),
                                Types.SQL_TIMESTAMP()])

    def job(n: int) -> float:
        reset_table(url)
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(parallelism)
        env.from_source(NumberSequenceSource(1, n), WatermarkStrategy.no_watermarks(), "ids") \
            .map(lambda i: Row(*make_row(i)), output_type=row_type).add_sink(JdbcSink.sink(
                UPSERT, row_type,
                JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url)
                .with_driver_name("org.mariadb.jdbc.Driver").build(),
                JdbcExecutionOptions.builder().with_batch_size(batch_size).build()))
        started = time.perf_counter()
        env.execute("jdbc bench")
        elapsed = time.perf_counter() - started
        check_table(url, n)
        return elapsed

    job(1000)                                   # warm-up: the session, the workers
    return job(records)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--batch-size", type=int, default=5000)
    parser.add_argument("--parallelism", type=int, default=2)
    parser.add_argument("--url", help="a running server's JDBC URL (default: start one)")
    args = parser.parse_args(argv)
    server = None
    url = args.url
    if url is None:
        from pyflink_on_spark.tests.mariadb_server import start_server
        server = start_server()
        url = server.url
    try:
        shim_s = run_shim(url, args.records, args.batch_size, args.parallelism)
        floor_s = run_floor(url, args.records, args.batch_size)
    finally:
        if server is not None:
            server.stop()
    print("JdbcSink -> MariaDB upsert, %d records, batch size %d, parallelism %d"
          % (args.records, args.batch_size, args.parallelism))
    print("  %-34s %8.2f s %10.0f records/s" % ("shim (pyflink_on_spark)", shim_s,
                                                 args.records / shim_s))
    print("  %-34s %8.2f s %10.0f records/s" % ("floor (PyMySQL executemany loop)", floor_s,
                                                 args.records / floor_s))
    print("  shim / floor time ratio: %.2f" % (shim_s / floor_s))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
