"""Benchmark job (unmodified PyFlink program): N generated records -> (key, n) -> timestamps
-> key_by -> 10 s tumbling event-time windows -> aggregate (count, min, max per key and
window).

Record n has key n % KEYS and event time n ms, so 1M records make 100 windows per key (with
SLIDE_SECONDS, sliding windows of 10 s every SLIDE_SECONDS: each record is in 10 / SLIDE of
them).
Watermarks are the periodic monotonous ones (windows fire while the job runs; in BATCH mode,
a backfill's, each key's windows fire at the end of its input). Prints one
line: RESULT records=N keys=K seconds=T checksum=C, where C = total count + sum of
(max - min) over all window results (depends on every window holding the right records).
argv: N [KEYS] [PARALLELISM] [BACKEND] [MODE] [SLIDE_SECONDS] (benchmarks/run.py passes all
six; this job ignores BACKEND; MODE is STREAMING or BATCH)
"""
import sys
import time

from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (
    AggregateFunction, RuntimeExecutionMode, StreamExecutionEnvironment)
from pyflink.datastream.connectors.number_seq import NumberSequenceSource
from pyflink.datastream.window import SlidingEventTimeWindows, TumblingEventTimeWindows

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
KEYS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
PARALLELISM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
MODE = sys.argv[5] if len(sys.argv) > 5 else "STREAMING"
SLIDE_SECONDS = int(sys.argv[6]) if len(sys.argv) > 6 else 0


class EventTimeIsTheNumber(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


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
        .with_timestamp_assigner(EventTimeIsTheNumber())
    start = time.perf_counter()
    results = list(
        env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                        "numbers")
        .map(to_pair, output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
        # (PyFlink ignores a Python TimestampAssigner given to from_source)
        .assign_timestamps_and_watermarks(strategy)
        .key_by(lambda pair: pair[0], key_type=Types.LONG())
        .window(TumblingEventTimeWindows.of(Time.seconds(10)) if not SLIDE_SECONDS else
                SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(SLIDE_SECONDS)))
        .aggregate(CountMinMax(),
                   output_type=Types.TUPLE([Types.LONG(), Types.LONG(), Types.LONG()]))
        .execute_and_collect())
    seconds = time.perf_counter() - start
    checksum = sum(count + high - low for count, low, high in results)
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d windows=%d" % (
        N, KEYS, seconds, checksum, len(results)))


if __name__ == "__main__":
    main()
