"""BATCH mode at default parallelism 2: print() after a keyed aggregation.

In BATCH mode Flink 1.20 (adaptive batch scheduler) picks the parallelism of operators
after an exchange from the data volume unless it was set on the operator; for tiny inputs
that is 1, so these lines carry no "N> " prefix, and keys come out in sorted order.
"""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
env.set_parallelism(2)

data = [("b", 1), ("a", 2), ("c", 3), ("a", 4), ("b", 5)]
(env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .key_by(lambda t: t[0], key_type=Types.STRING())
    .sum(1)
    .print())
env.execute("batch sum")

(env.from_collection(data, type_info=Types.ROW_NAMED(["k", "v"], [Types.STRING(), Types.INT()]))
    .key_by(lambda r: r.k, key_type=Types.STRING())
    .reduce(lambda a, b: a if a.v >= b.v else b)
    .map(lambda r: "%s:%d" % (r.k, r.v), output_type=Types.STRING())
    .print())
env.execute("batch reduce map")
