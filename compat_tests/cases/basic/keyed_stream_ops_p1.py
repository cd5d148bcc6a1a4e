"""map / flat_map / filter on a KeyedStream and print() of a KeyedStream, parallelism 1."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

rows = env.from_collection([(1, "a"), (2, "b"), (1, "c")], type_info=Types.ROW([Types.INT(), Types.STRING()]))
keyed = rows.key_by(lambda r: r[0], key_type=Types.INT())

keyed.print()
env.execute("print keyed")

keyed.map(lambda r: r[1] * r[0], output_type=Types.STRING()).print()
env.execute("keyed map")

keyed.flat_map(lambda r: [r[1]] * r[0], output_type=Types.STRING()).print()
env.execute("keyed flat_map")

keyed.filter(lambda r: r[1] != "b").print()
env.execute("keyed filter")

(env.from_collection([3, 1, 2]).key_by(lambda x: x % 2).map(lambda x: x * 100).print())
env.execute("pickled keyed map")
