"""broadcast() with two MapStateDescriptors: the broadcast side writes both (put, put_all,
item assignment, remove, del); on_timer of the keyed side reads them read-only (get,
contains, in, items, keys, values, is_empty, [] and iteration) once all input is in."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedBroadcastProcessFunction
from pyflink.datastream.state import MapStateDescriptor

NAMES = MapStateDescriptor("names", Types.INT(), Types.STRING())
LIMITS = MapStateDescriptor("limits", Types.STRING(), Types.INT())


class TwoStates(KeyedBroadcastProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(7)

    def on_timer(self, timestamp, ctx):
        value = ctx.get_current_key()
        names = ctx.get_broadcast_state(NAMES)
        limits = ctx.get_broadcast_state(LIMITS)
        yield "%d: name=%s has=%s in=%s limit=%s names=%s keys=%s values=%s empty=%s/%s" % (
            value, names.get(value), names.contains(value), value in names,
            limits["max"] if limits.contains("max") else None,
            sorted(names.items()), sorted(limits.keys()), sorted(limits.values()),
            names.is_empty(), sorted(iter(names)))

    def process_broadcast_element(self, value, ctx):
        names = ctx.get_broadcast_state(NAMES)
        limits = ctx.get_broadcast_state(LIMITS)
        op, arg = value
        if op == "put":
            names.put(arg, "n%d" % arg)
        elif op == "put_all":
            # PyFlink 1.20's BroadcastState.put_all iterates its argument as pairs: a dict
            # itself fails there, its items() work
            names.put_all({arg: "m%d" % arg, arg + 1: "m%d" % (arg + 1)}.items())
        elif op == "set":
            limits["max"] = arg
            limits["min"] = -arg
        elif op == "remove":
            names.remove(arg)
        elif op == "del":
            del limits["min"]
        return []


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ops = env.from_collection([("put", 1), ("put_all", 2), ("set", 50), ("remove", 3), ("del", 0)],
                          type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
events = env.from_collection([1, 2, 3], type_info=Types.INT()).key_by(lambda x: x, Types.INT())
out = events.connect(ops.broadcast(NAMES, LIMITS)).process(TwoStates(), Types.STRING())
print("\n".join(sorted(out.execute_and_collect())))
