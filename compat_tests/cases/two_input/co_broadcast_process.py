"""BroadcastProcessFunction with broadcast state and a cache for elements that arrive before
their rule (PyFlink's test_co_broadcast_process); results sorted, parallelism 2."""
from collections import defaultdict

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import BroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor


class Mapping(BroadcastProcessFunction):
    def __init__(self, map_state_desc):
        self._map_state_desc = map_state_desc
        self._cache = defaultdict(list)

    def process_element(self, value, ctx):
        rules = ctx.get_broadcast_state(self._map_state_desc)
        key = value % 2
        if rules.contains(key):
            if self._cache.get(key) is not None:
                for v in self._cache[key]:
                    yield rules.get(key) + str(v)
                self._cache[key].clear()
            yield rules.get(key) + str(value)
        else:
            self._cache[key].append(value)

    def process_broadcast_element(self, value, ctx):
        key = value[0]
        yield str(key) + value[1]
        ctx.get_broadcast_state(self._map_state_desc).put(key, value[1])
        if self._cache.get(key) is not None:
            for v in self._cache[key]:
                yield value[1] + str(v)
            self._cache[key].clear()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
ds = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT())
rules = env.from_collection([(0, "a"), (1, "b")], type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
desc = MapStateDescriptor("mapping", key_type_info=Types.INT(), value_type_info=Types.STRING())
out = ds.connect(rules.broadcast(desc)).process(Mapping(desc), output_type=Types.STRING())
print(sorted(out.execute_and_collect()))
