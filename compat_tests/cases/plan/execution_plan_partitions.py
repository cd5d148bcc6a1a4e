"""get_execution_plan(): explicit partitionings (shuffle, broadcast, rescale) between Python
operators, a NumberSequenceSource, the union of a KeyedStream (PyFlink unions its
"_keyed_stream_values_operator" map), partition_custom (a "_partition_custom_map_operator"
before the CUSTOM edge, a values map after it, chained with the next map), and a BATCH job, whose plan shows the parallelism set
or the default (the adaptive batch scheduler decides the actual one when the job runs)."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

PAIR = Types.TUPLE([Types.INT(), Types.STRING()])

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([(1, "a"), (2, "b")], type_info=PAIR)
ds.shuffle().map(lambda x: x, PAIR).broadcast().filter(lambda x: True).rescale().print()
ds.key_by(lambda x: x[1]).union(ds).print()
ds.partition_custom(lambda key, n: key % n, lambda x: x[0]) \
    .map(lambda x: x[0], Types.INT()).print()
env.from_source(NumberSequenceSource(1, 5), WatermarkStrategy.no_watermarks(), "seq") \
    .map(lambda x: x * 2, Types.LONG()).print()
print(env.get_execution_plan())

batch = StreamExecutionEnvironment.get_execution_environment()
batch.set_runtime_mode(RuntimeExecutionMode.BATCH)
batch.set_parallelism(2)
batch.from_collection([(1, "a"), (2, "b")], type_info=PAIR) \
    .map(lambda x: x[0], Types.INT()).key_by(lambda x: x).reduce(lambda a, b: a + b).print()
print(batch.get_execution_plan())
