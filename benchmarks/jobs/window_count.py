"""Benchmark job (unmodified PyFlink program): N generated records -> (key, n) -> key_by ->
count windows of 100 elements (count_window(100)) -> reduce (the sum of n per key and
window).

Record n has key n % KEYS, so 1M records make 10 full windows per key with 1000 keys (a
window that never holds 100 elements never fires, as in PyFlink). Prints one line: RESULT
records=N keys=K seconds=T checksum=C, where C = the number of windows + the sum of their
sums (depends on every window holding the right records).
argv: N [KEYS] [PARALLELISM] [BACKEND] [MODE] (benchmarks/run.py passes six; this job
ignores BACKEND and the sixth; MODE is STREAMING or BATCH)
"""
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
KEYS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
PARALLELISM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
MODE = sys.argv[5] if len(sys.argv) > 5 else "STREAMING"
SIZE = 100


def to_pair(n):
    return n % KEYS, n


def add(a, b):
    return a[0], a[1] + b[1]


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(PARALLELISM)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if MODE == "BATCH"
                         else RuntimeExecutionMode.STREAMING)
    start = time.perf_counter()
    results = list(
        env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                        "numbers")
        .map(to_pair, output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
        .key_by(lambda pair: pair[0], key_type=Types.LONG())
        .count_window(SIZE)
        .reduce(add, output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
        .execute_and_collect())
    seconds = time.perf_counter() - start
    checksum = len(results) + sum(total for _, total in results)
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d windows=%d" % (
        N, KEYS, seconds, checksum, len(results)))


if __name__ == "__main__":
    main()
