"""Benchmark job (unmodified PyFlink program): a keyed co-process join of two streams.

Two generated streams of N records each (orders and payments, K keys) are connected, keyed by
key and joined by a KeyedCoProcessFunction that matches each order with a payment of the same
key (FIFO, pending records in ListState); an end-of-input timer per key emits the key's match
count and sum. STREAMING mode, or BATCH (argv MODE; there the operator reads both inputs
key by key). Every record finds a partner, so the checksum (sum of the matched sums) is the
same whatever order the inputs interleave in.
Prints one line: RESULT records=2N keys=K seconds=T checksum=C.
argv: N (records per stream) [KEYS] [PARALLELISM] [BACKEND (unused)] [MODE]
"""
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource
from pyflink.datastream.functions import KeyedCoProcessFunction
from pyflink.datastream.state import ListStateDescriptor, ValueStateDescriptor

N = int(sys.argv[1]) if len(sys.argv) > 1 else 500_000
KEYS = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
PARALLELISM = int(sys.argv[3]) if len(sys.argv) > 3 else 2
MODE = sys.argv[5] if len(sys.argv) > 5 else "STREAMING"


class MatchJoin(KeyedCoProcessFunction):
    def open(self, runtime_context):
        self.orders = runtime_context.get_list_state(ListStateDescriptor("orders", Types.LONG()))
        self.payments = runtime_context.get_list_state(
            ListStateDescriptor("payments", Types.LONG()))
        self.stats = runtime_context.get_state(
            ValueStateDescriptor("stats", Types.TUPLE([Types.LONG(), Types.LONG()])))

    def _match(self, amount, mine, other, ctx):
        stats = self.stats.value()
        if stats is None:
            stats = (0, 0)
            ctx.timer_service().register_event_time_timer(1)  # fires at the end of input
        pending = list(other.get())
        if pending:
            partner = pending.pop(0)
            other.update(pending)
            stats = (stats[0] + 1, stats[1] + amount + partner)
        else:
            mine.add(amount)
        self.stats.update(stats)

    def process_element1(self, value, ctx):
        self._match(value[1], self.orders, self.payments, ctx)

    def process_element2(self, value, ctx):
        self._match(value[1], self.payments, self.orders, ctx)

    def on_timer(self, timestamp, ctx):
        matched, total = self.stats.value()
        yield ctx.get_current_key(), matched, total


def order(n):
    return n % KEYS, n


def payment(n):
    return n % KEYS, 2 * n


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(PARALLELISM)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH if MODE == "BATCH"
                         else RuntimeExecutionMode.STREAMING)
    pair = Types.TUPLE([Types.LONG(), Types.LONG()])
    start = time.perf_counter()
    orders = env.from_source(NumberSequenceSource(0, N - 1), WatermarkStrategy.no_watermarks(),
                             "orders").map(order, output_type=pair)
    payments = env.from_source(NumberSequenceSource(0, N - 1),
                               WatermarkStrategy.no_watermarks(),
                               "payments").map(payment, output_type=pair)
    results = list(
        orders.connect(payments)
        .key_by(lambda o: o[0], lambda p: p[0], key_type=Types.LONG())
        .process(MatchJoin(), output_type=Types.TUPLE([Types.LONG(), Types.LONG(),
                                                       Types.LONG()]))
        .execute_and_collect())
    seconds = time.perf_counter() - start
    checksum = sum(total for _, _, total in results)
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d" % (2 * N, len(results), seconds,
                                                                  checksum))


if __name__ == "__main__":
    main()
