"""rebalance / shuffle / rescale / forward / broadcast at parallelism > 1 (contents sorted)."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
src = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT())


def run(label, ds):
    print(label, sorted(ds.map(lambda x: x * 10, output_type=Types.INT()).execute_and_collect()))


run("rebalance", src.rebalance())
run("shuffle", src.shuffle())
run("rescale", src.rescale())
run("forward", src.map(lambda x: x, output_type=Types.INT()).forward())
run("broadcast", src.broadcast())
run("broadcast p3", src.map(lambda x: x, output_type=Types.INT()).broadcast()
    .map(lambda x: x + 1, output_type=Types.INT()).set_parallelism(3))
run("chain", src.rebalance().map(lambda x: x + 1, output_type=Types.INT()).shuffle()
    .map(lambda x: x + 2, output_type=Types.INT()).rescale())

print("-- parallelism 1: rebalance keeps order", flush=True)
env.set_parallelism(1)
(env.from_collection(list(range(6)), type_info=Types.INT())
    .rebalance().map(lambda x: x + 100, output_type=Types.INT())
    .shuffle().map(lambda x: -x, output_type=Types.INT())
    .print())
env.execute("p1 rebalance")
