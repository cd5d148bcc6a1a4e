"""CoMap on keyed connected streams with keyed state (PyFlink's test_keyed_co_map): each
input keeps its own ValueState per key; results sorted."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import CoMapFunction, KeySelector, RuntimeContext
from pyflink.datastream.state import ValueStateDescriptor


class SecondField(KeySelector):
    def get_key(self, value):
        return value[1]


class AssertKeyCoMap(CoMapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.pre1 = runtime_context.get_state(ValueStateDescriptor("pre1", Types.STRING()))
        self.pre2 = runtime_context.get_state(ValueStateDescriptor("pre2", Types.STRING()))

    def map1(self, value):
        if value[0] == 'b':
            assert self.pre1.value() == 'a'
        if value[0] == 'd':
            assert self.pre1.value() == 'c'
        self.pre1.update(value[0])
        return value

    def map2(self, value):
        if value[0] == 'b':
            assert self.pre2.value() == 'a'
        if value[0] == 'd':
            assert self.pre2.value() == 'c'
        self.pre2.update(value[0])
        return value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
row = Types.ROW([Types.STRING(), Types.INT()])
data = [('a', 0), ('b', 0), ('c', 1), ('d', 1), ('e', 2)]
ds1 = env.from_collection(data, type_info=row).key_by(SecondField(), key_type=Types.INT())
ds2 = env.from_collection(data, type_info=row)
out = ds1.connect(ds2).key_by(SecondField(), SecondField(), key_type=Types.INT()) \
    .map(AssertKeyCoMap()).map(lambda x: (x[0], x[1] + 1))
print(sorted(str(v) for v in out.execute_and_collect()))
