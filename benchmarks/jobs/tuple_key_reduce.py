"""Benchmark job (unmodified PyFlink program): N generated records -> map to (id, region,
amount) -> key_by a composite key (id, region) -> reduce, in BATCH mode (a backfill's shape:
only each key's final sum reaches the sink). KEYS distinct keys. Prints one line:
RESULT records=N keys=K seconds=T checksum=C.
argv: N [KEYS] [PARALLELISM]
"""
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
KEYS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
PARALLELISM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
REGIONS = ("eu", "us", "ap")


def to_sale(n):
    user = n % KEYS
    return (user, REGIONS[user % 3], n)


def key(sale):
    return (sale[0], sale[1])


def add(a, b):
    return (a[0], a[1], a[2] + b[2])


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(PARALLELISM)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    start = time.perf_counter()
    results = list(
        env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                        "numbers")
        .map(to_sale, output_type=Types.TUPLE([Types.LONG(), Types.STRING(), Types.LONG()]))
        .key_by(key)
        .reduce(add)
        .execute_and_collect())
    seconds = time.perf_counter() - start
    checksum = sum(total for _, _, total in results)
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d" % (N, len(results), seconds,
                                                                  checksum))


if __name__ == "__main__":
    main()
