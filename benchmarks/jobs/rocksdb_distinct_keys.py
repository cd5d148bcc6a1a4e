"""Benchmark job (unmodified PyFlink program): N generated records, each its own key, into a
KeyedProcessFunction that keeps one ValueState entry per key (EmbeddedRocksDBStateBackend by
default): state much larger than a Python dict should hold.

Each keyed subtask reports its distinct-key count and its peak RSS
(resource.getrusage(RUSAGE_SELF).ru_maxrss) on the last records it processes (the values
>= N - 1000 come last from the source's last split). Prints
    RESULT records=N keys=K seconds=T checksum=C
    SUBTASK index=I keys=K peak_rss_kb=R
argv: N [UNUSED] [PARALLELISM] [BACKEND]
"""
import resource
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import (EmbeddedRocksDBStateBackend, HashMapStateBackend,
                                KeyedProcessFunction, StreamExecutionEnvironment)
from pyflink.datastream.connectors.number_seq import NumberSequenceSource
from pyflink.datastream.state import ValueStateDescriptor

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
PARALLELISM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
BACKEND = sys.argv[4] if len(sys.argv) > 4 else "rocksdb"


class RememberEveryKey(KeyedProcessFunction):
    def __init__(self, report_from):
        self.report_from = report_from

    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.LONG()))
        self.index = runtime_context.get_index_of_this_subtask()
        self.distinct = 0

    def process_element(self, value, ctx):
        if self.seen.value() is None:
            self.seen.update(value)
            self.distinct += 1
        if value >= self.report_from:
            peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            yield self.index, self.distinct, peak_kb


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(PARALLELISM)
    env.set_state_backend(EmbeddedRocksDBStateBackend() if BACKEND == "rocksdb"
                          else HashMapStateBackend())
    start = time.perf_counter()
    reports = list(
        env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                        "numbers")
        .key_by(lambda n: n, key_type=Types.LONG())
        .process(RememberEveryKey(N - 1000),
                 output_type=Types.TUPLE([Types.INT(), Types.LONG(), Types.LONG()]))
        .execute_and_collect())
    seconds = time.perf_counter() - start
    per_subtask = {}
    for index, distinct, peak_kb in reports:
        keys, peak = per_subtask.get(index, (0, 0))
        per_subtask[index] = (max(keys, distinct), max(peak, peak_kb))
    keys = sum(k for k, _ in per_subtask.values())
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d" % (N, keys, seconds, keys))
    for index in sorted(per_subtask):
        print("SUBTASK index=%d keys=%d peak_rss_kb=%d" % ((index,) + per_subtask[index]))


if __name__ == "__main__":
    main()
