"""A KeyedStream keeps its key partitioning: shuffle, rebalance, rescale, broadcast, forward
and partition_custom raise (test_keyed_stream_partitioning); key_by on a KeyedStream re-keys
the original stream (test_multi_key_by; PyFlink 1.20 fails at run time with "The timer service
has not been initialized" when a keyed operator follows such a double key_by, so the case only
collects it)."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([('ab', 1), ('bdc', 2), ('cfgs', 3), ('deeefg', 4)])
keyed = ds.key_by(lambda x: x[1])
for name, call in [("shuffle", keyed.shuffle), ("rebalance", keyed.rebalance),
                   ("rescale", keyed.rescale), ("broadcast", keyed.broadcast),
                   ("forward", keyed.forward),
                   ("partition_custom", lambda: keyed.partition_custom(lambda k, n: 0,
                                                                       lambda x: x))]:
    try:
        call()
        print(name, "allowed")
    except Exception as e:
        print(name, type(e).__name__, e)

rows = env.from_collection([('a', 0), ('b', 0), ('c', 1), ('d', 1), ('e', 2)],
                           type_info=Types.ROW([Types.STRING(), Types.INT()]))
twice = rows.key_by(lambda x: x[1], key_type=Types.INT()).key_by(lambda x: x[0])
print(sorted(str(r) for r in twice.execute_and_collect()))

# execute_and_collect on a KeyedStream returns PyFlink's internal Row(key, value) records
env.set_parallelism(1)
tt = Types.TUPLE([Types.STRING(), Types.INT()])
pairs = env.from_collection([('pyflink', 1), ('datastream', 2), ('pyflink', 1)], type_info=tt)
print(list(pairs.key_by(lambda i: i[0], Types.STRING()).execute_and_collect()))
print(list(pairs.key_by(lambda i: i[1]).execute_and_collect()))
