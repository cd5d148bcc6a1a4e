"""key_by (with and without key_type) + rolling reduce in STREAMING mode at parallelism 1."""
from pyflink.common import Row, Types
from pyflink.datastream import ReduceFunction, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

words = [("apple", 1), ("pear", 2), ("apple", 3), ("fig", 4), ("pear", 5), ("apple", 6)]

(env.from_collection(words, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .key_by(lambda t: t[0], key_type=Types.STRING())
    .reduce(lambda a, b: (a[0], a[1] + b[1]))
    .print())
env.execute("tuple reduce")


class Longest(ReduceFunction):
    def reduce(self, a, b):
        return b if len(b[1]) > len(a[1]) else a


(env.from_collection([(1, "ab"), (2, "x"), (1, "abcd"), (2, "yz"), (1, "q")],
                     type_info=Types.ROW_NAMED(["k", "s"], [Types.INT(), Types.STRING()]))
    .key_by(lambda r: r.k)
    .reduce(Longest())
    .print())
env.execute("row reduce class")

(env.from_collection(words)
    .key_by(lambda t: t[0])
    .reduce(lambda a, b: (a[0], a[1] * b[1]))
    .print())
env.execute("pickled reduce")

(env.from_collection(words, type_info=Types.ROW([Types.STRING(), Types.INT()]))
    .key_by(lambda r: len(r[0]) % 2, key_type=Types.INT())
    .reduce(lambda a, b: Row(a[0] + "+" + b[0], a[1] + b[1]))
    .print())
env.execute("row reduce to new row")
