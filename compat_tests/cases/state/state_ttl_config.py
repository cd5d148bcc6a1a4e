"""StateTtlConfig: builder methods and getters, and TTL-enabled states of every kind whose
TTL (one hour) does not run out during the job: they behave as plain states. (Expiry itself
is not a compat case: real PyFlink 1.20 does not expire state, see docs/compatibility.md.)"""
from pyflink.common import Time, Types
from pyflink.datastream import (AggregateFunction, KeyedProcessFunction,
                                StreamExecutionEnvironment)
from pyflink.datastream.state import (AggregatingStateDescriptor, ListStateDescriptor,
                                      MapStateDescriptor, ReducingStateDescriptor,
                                      StateTtlConfig, ValueStateDescriptor)

default = StateTtlConfig.new_builder(Time.hours(1)).build()
print(default)
print(default.is_enabled(), default.get_ttl(), default.get_ttl().to_milliseconds())
print(default.get_update_type(), default.get_state_visibility(),
      default.get_ttl_time_characteristic())
strategies = default.get_cleanup_strategies()
print("background:", strategies.is_cleanup_in_background(),
      "full snapshot:", strategies.in_full_snapshot(),
      "incremental:", strategies.get_incremental_cleanup_strategy() is None)

custom = (StateTtlConfig.new_builder(Time.seconds(5))
          .set_ttl(Time.minutes(90))
          .update_ttl_on_read_and_write()
          .return_expired_if_not_cleaned_up()
          .use_processing_time()
          .cleanup_full_snapshot()
          .cleanup_incrementally(10, True)
          .build())
print(custom)
cs = custom.get_cleanup_strategies()
inc = cs.get_incremental_cleanup_strategy()
print("background:", cs.is_cleanup_in_background(), "full snapshot:", cs.in_full_snapshot(),
      "incremental:", inc.get_cleanup_size(), inc.run_cleanup_for_every_record())

other = (StateTtlConfig.new_builder(Time.days(1))
         .set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite)
         .set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
         .set_ttl_time_characteristic(StateTtlConfig.TtlTimeCharacteristic.ProcessingTime)
         .disable_cleanup_in_background()
         .cleanup_in_rocksdb_compact_filter(1000)
         .build())
print(other)
cs = other.get_cleanup_strategies()
print("background:", cs.is_cleanup_in_background(),
      "rocksdb filter:", cs.get_rocksdb_compact_filter_cleanup_strategy()
      .get_query_time_after_num_entries())
disabled = StateTtlConfig.new_builder(Time.seconds(1)).set_update_type(
    StateTtlConfig.UpdateType.Disabled).build()
print(disabled.is_enabled(), disabled.get_update_type())
print([m.name for m in StateTtlConfig.UpdateType], [m.name for m in StateTtlConfig.StateVisibility])


class Sum(AggregateFunction):
    def create_accumulator(self):
        return 0

    def add(self, value, accumulator):
        return accumulator + value

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return a + b


class WithTtl(KeyedProcessFunction):
    def __init__(self, config):
        self.config = config

    def open(self, runtime_context):
        def ttl(descriptor):
            descriptor.enable_time_to_live(self.config)
            return descriptor
        self.value = runtime_context.get_state(ttl(ValueStateDescriptor("v", Types.INT())))
        self.list = runtime_context.get_list_state(ttl(ListStateDescriptor("l", Types.INT())))
        self.map = runtime_context.get_map_state(
            ttl(MapStateDescriptor("m", Types.INT(), Types.STRING())))
        self.reducing = runtime_context.get_reducing_state(
            ttl(ReducingStateDescriptor("r", lambda a, b: a * b, Types.INT())))
        self.aggregating = runtime_context.get_aggregating_state(
            ttl(AggregatingStateDescriptor("a", Sum(), Types.INT())))

    def process_element(self, value, ctx):
        key, n = value
        old = self.value.value()
        self.value.update(n)
        self.list.add(n)
        self.map.put(n, "v%d" % n)
        self.reducing.add(n)
        self.aggregating.add(n)
        yield "%s %d old=%r list=%r map=%r product=%r sum=%r" % (
            key, n, old, list(self.list.get()), sorted(self.map.items()),
            self.reducing.get(), self.aggregating.get())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", 2), ("b", 5), ("a", 3), ("a", 4), ("b", 1)]
# (`other` holds a JVM Duration in PyFlink, which cannot be pickled into a function)
for config in [default, custom]:
    print("--", config.get_update_type(), config.get_state_visibility(), flush=True)
    (env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
        .key_by(lambda v: v[0], key_type=Types.STRING())
        .process(WithTtl(config), output_type=Types.STRING())
        .print())
    env.execute("ttl")
