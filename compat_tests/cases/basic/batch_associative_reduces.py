"""BATCH mode, parallelism 2 and 3 over a NumberSequenceSource: reduces of the shapes the shim
proves associative (each upstream subtask then sends one fold per key), printed sorted: a
Row's named sum, the record with the highest score (unique scores), a str's min and max, a
ReduceFunction class, a bitwise or."""
from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.datastream import ReduceFunction, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource


class Totals(ReduceFunction):
    def reduce(self, value1, value2):
        return value1[0], value1[1] + value2[1], max(value1[2], value2[2])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)

for p in [2, 3]:
    env.set_parallelism(p)
    nums = env.from_source(NumberSequenceSource(1, 40), WatermarkStrategy.no_watermarks(),
                           "numbers")
    rows = nums.map(lambda n: Row(user="u%d" % (n % 4), amount=n * 10),
                    output_type=Types.ROW_NAMED(["user", "amount"],
                                                [Types.STRING(), Types.LONG()]))
    print("p=%d row sum" % p, sorted(
        rows.key_by(lambda r: r.user)
            .reduce(lambda a, b: Row(user=a.user, amount=a.amount + b.amount))
            .execute_and_collect(), key=lambda r: r.user))
    scored = nums.map(lambda n: (n % 3, n * 37 % 101, "n%d" % n),
                      output_type=Types.TUPLE([Types.LONG(), Types.LONG(), Types.STRING()]))
    print("p=%d best" % p, sorted(
        scored.key_by(lambda t: t[0])
              .reduce(lambda a, b: a if a[1] >= b[1] else b)
              .execute_and_collect()))
    print("p=%d min name" % p, sorted(
        scored.key_by(lambda t: t[0])
              .reduce(lambda a, b: (a[0], min(a[1], b[1]), min(a[2], b[2])))
              .execute_and_collect()))
    print("p=%d max name" % p, sorted(
        scored.key_by(lambda t: t[0])
              .reduce(lambda a, b: (a[0], max(b[1], a[1]), max(b[2], a[2])))
              .execute_and_collect()))
    triples = nums.map(lambda n: (n % 5, n, n * n),
                       output_type=Types.TUPLE([Types.LONG(), Types.LONG(), Types.LONG()]))
    print("p=%d totals" % p, sorted(
        triples.key_by(lambda t: t[0]).reduce(Totals()).execute_and_collect()))
    print("p=%d bits" % p, sorted(
        triples.key_by(lambda t: t[0])
               .reduce(lambda a, b: (a[0], a[1] | b[1], a[2] ^ b[2]))
               .execute_and_collect()))
