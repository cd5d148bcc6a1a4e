"""CoFlatMap on streams keyed by a constant, with MapState shared by both inputs (PyFlink's
test_keyed_co_flat_map): the second input emits each first-seen letter once."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import CoFlatMapFunction, RuntimeContext
from pyflink.datastream.state import MapStateDescriptor


class RichCoFlatMap(CoFlatMapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.map_state = runtime_context.get_map_state(
            MapStateDescriptor("map", Types.STRING(), Types.BOOLEAN()))

    def flat_map1(self, value):
        yield str(value[0] + 1)
        yield str(value[0] + 1)

    def flat_map2(self, value):
        if value[0] not in self.map_state:
            self.map_state[value[0]] = True
            yield value[0]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds1 = env.from_collection([(1, 1), (2, 2), (3, 3)], type_info=Types.ROW([Types.INT(), Types.INT()]))
ds2 = env.from_collection([("a", "a"), ("b", "b"), ("c", "c"), ("a", "a")],
                          type_info=Types.ROW([Types.STRING(), Types.STRING()]))
out = ds1.connect(ds2).key_by(lambda x: 1, lambda x: 1) \
    .flat_map(RichCoFlatMap(), output_type=Types.STRING()).filter(lambda x: x != '4')
print(sorted(out.execute_and_collect()))
