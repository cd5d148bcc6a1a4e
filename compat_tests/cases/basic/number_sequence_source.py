"""from_source(NumberSequenceSource(...), WatermarkStrategy.no_watermarks(), name)."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

seq = env.from_source(NumberSequenceSource(1, 5), WatermarkStrategy.no_watermarks(), "seq")
seq.print()
env.execute("p1 print")

seq.map(lambda n: n * n, output_type=Types.LONG()).filter(lambda n: n % 2 == 1).print()
env.execute("p1 map filter")

seq.map(lambda n: type(n).__name__ + ":" + str(n), output_type=Types.STRING()).print()
env.execute("python type")

print("-- parallelism 3", flush=True)
env.set_parallelism(3)
big = env.from_source(NumberSequenceSource(0, 99), WatermarkStrategy.no_watermarks(), "big")
values = list(big.execute_and_collect())
print(len(values), min(values), max(values), sum(values), len(set(values)))
print(sorted(big.filter(lambda n: n % 10 == 3).execute_and_collect()))
