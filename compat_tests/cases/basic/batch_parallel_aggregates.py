"""BATCH mode at parallelism > 1 over a NumberSequenceSource: final aggregates, printed sorted."""
from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.number_seq import NumberSequenceSource

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)

for p in [2, 3]:
    env.set_parallelism(p)
    nums = env.from_source(NumberSequenceSource(1, 20), WatermarkStrategy.no_watermarks(), "numbers")
    pairs = nums.map(lambda n: (n % 3, n), output_type=Types.TUPLE([Types.LONG(), Types.LONG()]))
    keyed = pairs.key_by(lambda t: t[0], key_type=Types.LONG())
    print("p=%d sum" % p, sorted(keyed.sum(1).execute_and_collect()))
    print("p=%d max" % p, sorted(keyed.max(1).execute_and_collect()))
    print("p=%d count" % p, sorted(
        pairs.map(lambda t: (t[0], 1), output_type=Types.TUPLE([Types.LONG(), Types.INT()]))
             .key_by(lambda t: t[0], key_type=Types.LONG())
             .reduce(lambda a, b: (a[0], a[1] + b[1]))
             .execute_and_collect()))
