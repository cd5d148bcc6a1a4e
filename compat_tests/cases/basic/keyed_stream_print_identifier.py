"""KeyedStream.print(sink_identifier): PyFlink 1.20 prints a KeyedStream through its values
(`self._values().print()`) and drops the identifier, so the lines carry no prefix; a plain
DataStream's print(identifier) prefixes them ("ident> "). Three jobs, one print sink each."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", 1), ("b", 2), ("a", 3)]
row = Types.TUPLE([Types.STRING(), Types.INT()])

env.from_collection(data, type_info=row).key_by(lambda v: v[0]).print("keyed")
env.execute("keyed stream, print with an identifier")

env.from_collection(data, type_info=row).key_by(lambda v: v[0]) \
    .map(lambda v: v[1] * 10, output_type=Types.INT()).print("mapped")
env.execute("a keyed stream's map, print with an identifier")

env.from_collection(data, type_info=row).key_by(lambda v: v[0]).print()
env.execute("keyed stream, print without an identifier")
