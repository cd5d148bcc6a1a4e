"""The same stateful job (value, list, map, reducing, aggregating state and event-time
timers) with the default backend, HashMapStateBackend and EmbeddedRocksDBStateBackend (with
predefined options), at parallelism 2; collected and sorted."""
from pyflink.common import Types
from pyflink.datastream import (AggregateFunction, EmbeddedRocksDBStateBackend,
                                HashMapStateBackend, KeyedProcessFunction,
                                PredefinedOptions, StreamExecutionEnvironment)
from pyflink.datastream.state import (AggregatingStateDescriptor, ListStateDescriptor,
                                      MapStateDescriptor, ReducingStateDescriptor,
                                      ValueStateDescriptor)


class Max(AggregateFunction):
    def create_accumulator(self):
        return -1

    def add(self, value, accumulator):
        return max(value, accumulator)

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return max(a, b)


class AllStates(KeyedProcessFunction):
    def open(self, runtime_context):
        self.value = runtime_context.get_state(ValueStateDescriptor("v", Types.STRING()))
        self.list = runtime_context.get_list_state(ListStateDescriptor("l", Types.INT()))
        self.map = runtime_context.get_map_state(
            MapStateDescriptor("m", Types.INT(), Types.INT()))
        self.reducing = runtime_context.get_reducing_state(
            ReducingStateDescriptor("r", lambda a, b: a + b, Types.INT()))
        self.aggregating = runtime_context.get_aggregating_state(
            AggregatingStateDescriptor("a", Max(), Types.INT()))

    def process_element(self, value, ctx):
        key, n = value
        self.value.update("%s-last-%d" % (key, n))
        self.list.add(n)
        self.map.put(n % 3, (self.map.get(n % 3) or 0) + n)
        self.reducing.add(n)
        self.aggregating.add(n)
        if n % 4 == 0:
            self.list.update([n])
            self.map.remove(0)
        ctx.timer_service().register_event_time_timer(1000 + n)
        yield "%s %d: %s" % (key, n, self.describe())

    def on_timer(self, timestamp, ctx):
        yield "timer %s %d: %s" % (ctx.get_current_key(), timestamp, self.describe())
        self.value.clear()

    def describe(self):
        return "v=%s l=%s m=%s r=%s a=%s" % (self.value.value(), list(self.list.get()),
                                             sorted(self.map.items()), self.reducing.get(),
                                             self.aggregating.get())


data = [("k%d" % (i % 5), i) for i in range(20)]
for name, backend in [("default", None), ("hashmap", HashMapStateBackend()),
                      ("rocksdb", EmbeddedRocksDBStateBackend()),
                      ("rocksdb incremental, SPINNING_DISK_OPTIMIZED",
                       EmbeddedRocksDBStateBackend(enable_incremental_checkpointing=True))]:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    if backend is not None:
        if name.endswith("OPTIMIZED"):
            backend.set_predefined_options(PredefinedOptions.SPINNING_DISK_OPTIMIZED)
        env.set_state_backend(backend)
    print("--", name, type(env.get_state_backend()).__name__, flush=True)
    out = (env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
           .key_by(lambda v: v[0], key_type=Types.STRING())
           .process(AllStates(), output_type=Types.STRING())
           .execute_and_collect())
    for line in sorted(out):
        print(line)
