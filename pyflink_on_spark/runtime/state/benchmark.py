"""Micro-benchmark of the keyed-state hot path: per record set_current_key + value() + update().

    python -m pyflink_on_spark.runtime.state.benchmark [N] [DISTINCT_KEYS]

Prints ns per record for a plain dict loop (the floor), the heap backend and the RocksDB
backend (default cache, and a tiny cache that forces RocksDB reads/writes).
"""
from __future__ import annotations

import sys
import tempfile
import time

# CPU time of this process: less disturbed by other load on the machine than wall time.
_now = time.process_time


def _records(n: int, distinct: int):
    keys = ["key-%d" % i for i in range(distinct)]
    return [keys[(i * 7919) % distinct] for i in range(n)]


def bench_floor(records) -> float:
    d = {}
    get = d.get
    t = _now()
    for k in records:
        v = get(k)
        d[k] = 1 if v is None else v + 1
    return _now() - t


def bench_backend(backend, records) -> float:
    from pyflink_on_spark.datastream.state import ValueStateDescriptor
    state = backend.get_partitioned_state(ValueStateDescriptor("count", None))
    set_key = backend.set_current_key
    value = state.value
    update = state.update
    t = _now()
    for k in records:
        set_key(k)
        v = value()
        update(1 if v is None else v + 1)
    elapsed = _now() - t
    # check
    set_key(records[0])
    assert value() == records.count(records[0]), (value(), records.count(records[0]))
    return elapsed


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[0]) if argv else 1_000_000
    distinct = int(argv[1]) if len(argv) > 1 else 10_000
    records = _records(n, distinct)
    from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend
    from pyflink_on_spark.runtime.state.rocksdb import RocksDBKeyedStateBackend

    def report(name, seconds):
        print("%-34s %8.0f ns/record  %6.2f M records/s" % (
            name, seconds / n * 1e9, n / seconds / 1e6))

    report("plain dict (floor)", min(bench_floor(records) for _ in range(3)))
    report("heap backend", min(bench_backend(HeapKeyedStateBackend(128, lambda: 0), records)
                               for _ in range(3)))
    with tempfile.TemporaryDirectory() as tmp:
        b = RocksDBKeyedStateBackend(128, lambda: 0, path=tmp + "/a")
        report("rocksdb backend (default cache)", bench_backend(b, records))
        b.close()
        small = max(16, distinct // 10)
        b = RocksDBKeyedStateBackend(128, lambda: 0, path=tmp + "/b", cache_entries=small)
        report("rocksdb backend (cache %d entries)" % small,
               bench_backend(b, records[: n // 4]) * 4)
        b.close()


if __name__ == "__main__":
    main()
