"""Benchmark job (unmodified PyFlink program): N generated records -> key_by (KEYS keys) ->
KeyedProcessFunction keeping a running sum per key in ValueState.

STREAMING mode; the function emits only each key's final sum (on the key's last record), so
the measurement is the per-record state path, not the sink. The state backend is an
argument: hashmap | rocksdb. Prints one line: RESULT records=N keys=K seconds=T checksum=C.
argv: N [KEYS] [PARALLELISM] [BACKEND]
"""
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import (EmbeddedRocksDBStateBackend, HashMapStateBackend,
                                KeyedProcessFunction, StreamExecutionEnvironment)
from pyflink.datastream.connectors.number_seq import NumberSequenceSource
from pyflink.datastream.state import ValueStateDescriptor

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
KEYS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
PARALLELISM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
BACKEND = sys.argv[4] if len(sys.argv) > 4 else "hashmap"


class RunningSum(KeyedProcessFunction):
    def __init__(self, last_round_from):
        self.last_round_from = last_round_from
        self.total = None

    def open(self, runtime_context):
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.LONG()))

    def process_element(self, value, ctx):
        total = (self.total.value() or 0) + value
        self.total.update(total)
        if value >= self.last_round_from:
            yield value % KEYS, total


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(PARALLELISM)
    if BACKEND == "rocksdb":
        env.set_state_backend(EmbeddedRocksDBStateBackend())
    elif BACKEND == "hashmap":
        env.set_state_backend(HashMapStateBackend())
    else:
        raise SystemExit("backend must be hashmap or rocksdb, got %r" % BACKEND)
    start = time.perf_counter()
    results = list(
        env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                        "numbers")
        .key_by(lambda n: n % KEYS, key_type=Types.LONG())
        .process(RunningSum(N - KEYS), output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
        .execute_and_collect())
    seconds = time.perf_counter() - start
    checksum = sum(total for _, total in results)
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d" % (N, len(results), seconds,
                                                                  checksum))


if __name__ == "__main__":
    main()
