"""KeyedBroadcastProcessFunction with broadcast state, event-time timers and on_timer's
current key (PyFlink's test_keyed_co_broadcast_process); results sorted."""
from collections import defaultdict

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedBroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor


class SecondColumn(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


def describe(s, t):
    return 'value: {}, ts: {}'.format(s, t)


class Mapping(KeyedBroadcastProcessFunction):
    def __init__(self, map_state_desc):
        self._map_state_desc = map_state_desc
        self._cache = None

    def open(self, runtime_context):
        self._cache = defaultdict(list)

    def process_element(self, value, ctx):
        rules = ctx.get_broadcast_state(self._map_state_desc)
        key = value[0] % 2
        if rules.contains(key):
            if self._cache.get(key) is not None:
                for v in self._cache[key]:
                    yield describe(rules.get(key) + str(v[0]), v[1])
                self._cache[key].clear()
            yield describe(rules.get(key) + str(value[0]), value[1])
        else:
            self._cache[key].append(value)
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 10000)

    def process_broadcast_element(self, value, ctx):
        key = value[0]
        yield describe(str(key) + value[2], ctx.timestamp())
        ctx.get_broadcast_state(self._map_state_desc).put(key, value[2])
        if self._cache.get(key) is not None:
            for v in self._cache[key]:
                yield describe(value[2] + str(v[0]), v[1])
            self._cache[key].clear()

    def on_timer(self, timestamp, ctx):
        yield describe(ctx.get_current_key(), timestamp)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([(1, '1603708211000'), (2, '1603708212000'), (3, '1603708213000'),
                          (4, '1603708214000')], type_info=Types.ROW([Types.INT(), Types.STRING()]))
rules = env.from_collection([(0, '1603708215000', 'a'), (1, '1603708215000', 'b')],
                            type_info=Types.ROW([Types.INT(), Types.STRING(), Types.STRING()]))
strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondColumn())
ds = ds.assign_timestamps_and_watermarks(strategy)
rules = rules.assign_timestamps_and_watermarks(strategy)
desc = MapStateDescriptor("mapping", key_type_info=Types.INT(), value_type_info=Types.STRING())
out = ds.key_by(lambda t: t[0]).connect(rules.broadcast(desc)) \
    .process(Mapping(desc), output_type=Types.STRING())
for line in sorted(out.execute_and_collect()):
    print(line)
