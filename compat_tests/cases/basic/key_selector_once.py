"""A key selector runs once per record, before the exchange: the keyed operator's current key
is the one it returned, even when the selector is not a function of the record alone (a
salted key, as hot-key splitting does). A call count in the key shows every call."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction, KeySelector


class Salted(KeySelector):
    def __init__(self):
        self.calls = 0

    def get_key(self, value):
        self.calls += 1
        return "%s#%d" % (value[0], self.calls)


class KeyEcho(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield "%s %s" % (ctx.get_current_key(), value[1])


RECORDS = [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5), ("a", 6)]

for mode in (RuntimeExecutionMode.STREAMING, RuntimeExecutionMode.BATCH):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(mode)
    env.set_parallelism(1)
    print("--", mode)
    env.from_collection(RECORDS).key_by(Salted()) \
        .process(KeyEcho(), output_type=Types.STRING()).print()
    env.execute()
