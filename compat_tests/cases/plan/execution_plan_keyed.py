"""get_execution_plan() around key_by, printed whole (PyFlink's JSON as Flink writes it).

PyFlink's Python key_by adds a "_stream_key_by_map_operator" before the HASH edge; at plan
time that map takes its input's parallelism behind a FORWARD edge and chains with a Python
operator before it ("Map, _stream_key_by_map_operator", a new id); a keyed print goes through
"_keyed_stream_values_operator". Ids count the helper transformations too, over both
environments of this program (one counter per process). Parallelism is set explicitly: the
default is the machine's core count."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

TUPLE = Types.TUPLE([Types.INT(), Types.STRING()])

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([(1, "a"), (2, "b"), (3, "a")], type_info=TUPLE)
(ds.map(lambda x: (x[0] + 1, x[1]), output_type=TUPLE)
   .key_by(lambda x: x[1])
   .reduce(lambda a, b: (a[0] + b[0], a[1]))
   .map(lambda x: x[0])                 # pickled: PyFlink maps it to str before printing
   .print())
ds.key_by(lambda x: x[1]).sum(0).print()
ds.key_by(lambda x: x[1]).print()
plan = env.get_execution_plan()
print(plan)
# the same nodes again; PyFlink adds forward partitions in front of unchained key_by maps
# at each plan, and their ids show in the next environment's
print("same plan again:", plan == env.get_execution_plan())

env2 = StreamExecutionEnvironment.get_execution_environment()
env2.set_parallelism(3)
words = env2.from_collection(["a b", "c"], type_info=Types.STRING())
(words.flat_map(lambda s: s.split(), output_type=Types.STRING())
      .filter(lambda w: w != "c")
      .map(lambda w: (w, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
      .key_by(lambda t: t[0])
      .map(lambda t: t[1], output_type=Types.INT())
      .print())
print(env2.get_execution_plan())
