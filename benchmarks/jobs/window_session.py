"""Benchmark job (unmodified PyFlink program): N generated records -> (key, n) -> timestamps
-> key_by -> event-time session windows (gap 3 s) -> aggregate (count, min, max per key and
session).

Record n has key n % KEYS and event time n + 10 s * (n // 100,000) ms: a key's records are
KEYS ms apart (1 s with 1000 keys, within the gap: each record extends its key's session),
and every 100,000 records time jumps by 10 s, which closes every key's session. So 1M
records make 10 sessions per key with 1000 keys (with 100,000 keys, sessions of one record).
Watermarks are the periodic monotonous ones (sessions fire while the job runs). Prints one
line: RESULT records=N keys=K seconds=T checksum=C, where C = total count + sum of
(max - min) over all session results (depends on every session holding the right records).
argv: N [KEYS] [PARALLELISM] [BACKEND] [MODE] (benchmarks/run.py passes six; this job
ignores BACKEND and the sixth; MODE is STREAMING or BATCH)
"""
import sys
import time

from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    AggregateFunction, RuntimeExecutionMode, StreamExecutionEnvironment)
from pyflink.datastream.connectors.number_seq import NumberSequenceSource
from pyflink.datastream.window import EventTimeSessionWindows

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
KEYS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
PARALLELISM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
MODE = sys.argv[5] if len(sys.argv) > 5 else "STREAMING"
GAP_MS = 3000
BREAK_EVERY = 100_000   # records; then event time jumps by BREAK_MS
BREAK_MS = 10_000


class EventTimeWithBreaks(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        n = value[1]
        return n + BREAK_MS * (n // BREAK_EVERY)


class CountMinMax(AggregateFunction):
    def create_accumulator(self):
        return 0, None, None

    def add(self, value, accumulator):
        count, low, high = accumulator
        n = value[1]
        return (count + 1, n if low is None or n < low else low,
                n if high is None or n > high else high)

    def get_result(self, accumulator):
        return accumulator

    def merge(self, acc_a, acc_b):
        return (acc_a[0] + acc_b[0], min(acc_a[1], acc_b[1]), max(acc_a[2], acc_b[2]))


def to_pair(n):
    return n % KEYS, n


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(PARALLELISM)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if MODE == "BATCH"
                         else RuntimeExecutionMode.STREAMING)
    strategy = WatermarkStrategy.for_monotonous_timestamps() \
        .with_timestamp_assigner(EventTimeWithBreaks())
    start = time.perf_counter()
    results = list(
        env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                        "numbers")
        .map(to_pair, output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
        .assign_timestamps_and_watermarks(strategy)
        .key_by(lambda pair: pair[0], key_type=Types.LONG())
        .window(EventTimeSessionWindows.with_gap(Time.milliseconds(GAP_MS)))
        .aggregate(CountMinMax(),
                   output_type=Types.TUPLE([Types.LONG(), Types.LONG(), Types.LONG()]))
        .execute_and_collect())
    seconds = time.perf_counter() - start
    checksum = sum(count + high - low for count, low, high in results)
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d windows=%d" % (
        N, KEYS, seconds, checksum, len(results)))


if __name__ == "__main__":
    main()
