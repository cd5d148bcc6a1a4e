"""Values that are not plain builtins keep their type across an exchange: numpy scalars and
arrays, bytearray, as keys too. Without a declared type they travel pickled, as they are;
a declared Types.LONG() field converts a numpy int to int. In both runtime modes, p=2."""
import numpy as np

from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction


def describe(value):
    return "%s=%s" % (type(value).__name__, value if not isinstance(value, np.ndarray)
                      else value.tolist())


class Describe(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield "key %s | %s" % (describe(ctx.get_current_key()),
                               " ".join(describe(v) for v in value))


for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(2)
    numbers = env.from_collection([1, 2, 3, 4], type_info=Types.INT())
    records = numbers.map(lambda n: (np.int64(n % 2), np.float64(n) / 2, bytearray(b"b%d" % n),
                                     np.array([n, n * 10])))
    keyed = records.key_by(lambda t: t[0]).process(Describe(), output_type=Types.STRING())
    declared = numbers.map(lambda n: ("n%d" % n, np.int64(n)),
                           output_type=Types.TUPLE([Types.STRING(), Types.LONG()])) \
        .rebalance().map(lambda t: "declared %s" % " ".join(describe(v) for v in t),
                         output_type=Types.STRING())
    with keyed.union(declared).execute_and_collect() as results:
        lines = sorted(results)
    print("--", mode)
    for line in lines:
        print(line)
