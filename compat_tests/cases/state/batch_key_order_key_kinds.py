"""BATCH mode processes keys in the order of their serialized (pickled) bytes: keys of many
kinds and pickle lengths (ints around 255 / 256 / 65536, strs, tuples Python deems equal,
Rows) come out of a reduce in that order."""
from pyflink.common import Row
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
keys = [5, 300, 2, 70000, 1, 40, -1, 255, 256, 65535, 65536, 2 ** 40, "b", "aa", "a" * 300,
        (1, "a"), (True, "a"), (2, "a"), ("x", None), Row(3, "x"), Row(40, "xx"), Row(1, "")]
data = [(i % len(keys), i) for i in range(3 * len(keys))]
env.from_collection(data) \
    .map(lambda v: (keys[v[0]], v[1])) \
    .key_by(lambda v: v[0]) \
    .reduce(lambda a, b: (a[0], a[1] + b[1])) \
    .map(lambda v: "%s %s" % (repr(tuple(v[0]) if hasattr(v[0], "as_dict") else v[0])[:40],
                              v[1])) \
    .print()
env.execute("batch_key_order_key_kinds")
