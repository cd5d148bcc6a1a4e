"""The keyed changelog's per-row cost in the engine, without Spark (issue 44): what the Python
side of `collect()` of a STREAMING grouping query at parallelism > 1 does per input row, the
work table_environment._group_changelog's job and spark/table_changelog.py's decoder do:

1. the key_by's key selector over each per-row Row (the exit computes the key once);
2. the keyed aggregate (table/group_aggregates.py GroupAggregate) through the keyed operator's
   row path (process_keyed_many, 2048 records a call as a chunk arrives), a changelog row per
   change;
3. the collect sink's chunks of those rows (runtime/boundary.py dumps_records, 2048 a chunk);
4. the decoder of those chunks into Arrow columns and kinds (changelog_records_frame's).

The query of docs/table.md's measurement: SELECT k, SUM(v), COUNT(*) FROM t GROUP BY k, 1000
groups. CPU seconds of this process (best of --repeat), then a cProfile of one run.

    PYTHONPATH=$PWD python benchmarks/keyed_changelog.py [--rows 200000] [--profile]
"""
from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import time

CHUNK = 2048


def _inputs(rows: int):
    from pyflink_on_spark.common.types import Row
    out = []
    for i in range(rows):
        row = Row(k="key%d" % (i * 7919 % 1000), v=i % 97)
        out.append(row)
    return out


def _pipeline(rows):
    """One run: (changelog rows, a digest of the decoded columns)."""
    import pyarrow as pa
    from pyflink_on_spark.runtime.boundary import dumps_records
    from pyflink_on_spark.runtime.testing import OperatorHarness
    from pyflink_on_spark.spark.table_changelog import _changelog_decoder
    from pyflink_on_spark.table import group_aggregates as ga
    from pyflink_on_spark.table.sql.grouping import split_grouping
    grouping = split_grouping("SELECT k, SUM(v) AS s, COUNT(*) AS n FROM t GROUP BY k")
    names = ["k", "s", "n"]
    if hasattr(ga, "group_aggregate"):
        # the keyed changelog's records: plain tuples (table_environment._with_keyed_changelog)
        function = ga.group_aggregate(names, grouping, ["STRING", "INT"],
                                      ["STRING", "INT", "BIGINT"], {}, plain=True)
    else:   # before group_aggregate existed
        keys = grouping.keys
        items = [(kind, ga.Aggregate(what[0], None if what[1] is None else keys + what[1],
                                     "BIGINT" if what[1] is None else "INT"))
                 if kind == "aggregate" else (kind, what) for kind, what in grouping.items]
        function = ga.GroupAggregate(names, items)
    keys = grouping.keys
    selector = getattr(ga, "key_selector", None)
    select = selector(keys) if selector is not None else \
        (lambda row: tuple(row[i] for i in range(keys)))
    from pyflink_on_spark.datastream.functions import wrap_key_selector
    from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
    harness = OperatorHarness(KeyedProcessOperator(function, wrap_key_selector(select)))
    operator = harness.operator
    many = operator.process_keyed_many
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start:start + CHUNK]
        many([select(r) for r in chunk], chunk)
    harness.end()
    out = harness.values()
    payloads = [dumps_records((out[i:i + CHUNK], None)) for i in range(0, len(out), CHUNK)]
    schema = pa.schema([pa.field("k", pa.string()), pa.field("s", pa.int32()),
                        pa.field("n", pa.int64())])
    decode = _changelog_decoder(schema)
    batch = pa.RecordBatch.from_arrays([pa.array(payloads, pa.binary())], names=["payload"])
    digest = hashlib.md5()
    for decoded in decode(iter([batch])):
        for column in decoded.columns:
            digest.update(repr(column.to_pylist()).encode())
    return len(out), digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    rows = _inputs(args.rows)
    best, result = float("inf"), None
    for _ in range(args.repeat):
        start = time.process_time()
        result = _pipeline(rows)
        best = min(best, time.process_time() - start)
    print("rows %d changes %d digest %s: best %.2f s CPU (%.2f us a row)"
          % (args.rows, result[0], result[1], best, best / args.rows * 1e6))
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        _pipeline(rows)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(22)


if __name__ == "__main__":
    main()
