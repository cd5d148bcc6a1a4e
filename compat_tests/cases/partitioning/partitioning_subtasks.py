"""Where records go with rebalance / shuffle / broadcast / forward into 3 subtasks, and which
downstream subtasks each upstream subtask feeds with rescale (Flink's pointwise wiring:
2 -> 3, 3 -> 2, 4 -> 3, 2 -> 5; upstream 1 of 2 -> 5 sends to 4 first)."""
from collections import Counter

from pyflink.common import Types
from pyflink.datastream import MapFunction, StreamExecutionEnvironment


class Up(MapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        return value, self.index


class Down(MapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        return value[0], value[1], self.index


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)
src = env.from_collection(list(range(12)), type_info=Types.INT())
for name, ds in [("rebalance", src.rebalance()), ("shuffle", src.shuffle()),
                 ("broadcast", src.broadcast())]:
    out = list(ds.map(Up()).execute_and_collect())
    per_subtask = sorted(Counter(i for _, i in out).values())
    print(name, len(out), "records, per subtask", per_subtask if name != "shuffle" else sum(per_subtask))
out = list(src.rebalance().map(Up()).forward().map(Down()).execute_and_collect())
print("forward keeps the subtask:", all(u == d for _, u, d in out), len(out))

for s, t in [(2, 3), (3, 2), (4, 3), (2, 5)]:
    up = env.from_collection(list(range(20)), type_info=Types.INT()) \
        .rebalance().map(Up()).set_parallelism(s)
    out = list(up.rescale().map(Down()).set_parallelism(t).execute_and_collect())
    wiring = sorted(set((u, d) for _, u, d in out))
    order = {}
    for _, u, d in sorted(out):
        order.setdefault(u, []).append(d)
    print("rescale %d->%d" % (s, t), wiring, {u: ds[:4] for u, ds in sorted(order.items())})
