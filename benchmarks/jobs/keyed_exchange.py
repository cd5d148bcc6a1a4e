"""Benchmark job (unmodified PyFlink program): the window jobs' plan with no window: N
generated records -> (key, n) -> [event-time timestamps] -> key_by -> a filter that keeps
one record a key. It runs what every keyed window job runs before and around its window
operator: the source stage (map, timestamps, key, route), the keyed exchange, and the
keyed stage's entry (rows unmarshalled into a keyed filter, one user call a record).
benchmarks/window_bound.py times it against the window jobs' floors.

Prints one line: RESULT records=N keys=K seconds=T checksum=C, C = the records kept + the sum
of their n (the first record of every key).
argv: N [KEYS] [PARALLELISM] [BACKEND] [MODE] [STAMPED] (BACKEND ignored; MODE STREAMING or
BATCH; STAMPED 1: timestamps as window_aggregate assigns them, 0: none, as window_count)
"""
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
KEYS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
PARALLELISM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
MODE = sys.argv[5] if len(sys.argv) > 5 else "STREAMING"
STAMPED = sys.argv[6] != "0" if len(sys.argv) > 6 else True


class RecordTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def to_pair(n):
    return n % KEYS, n


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(PARALLELISM)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if MODE == "BATCH"
                         else RuntimeExecutionMode.STREAMING)
    start = time.perf_counter()
    stream = env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                             "numbers") \
        .map(to_pair, output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
    if STAMPED:
        stream = stream.assign_timestamps_and_watermarks(
            WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(RecordTime()))
    # the filter keeps one record a key (its key's first, n < KEYS): nothing but a check a
    # record, and the output shows every key reached the keyed stage
    results = list(stream.key_by(lambda pair: pair[0], key_type=Types.LONG())
                   .filter(lambda pair: pair[1] < KEYS)
                   .execute_and_collect())
    seconds = time.perf_counter() - start
    checksum = len(results) + sum(n for _, n in results)
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d" % (N, KEYS, seconds, checksum))


if __name__ == "__main__":
    main()
