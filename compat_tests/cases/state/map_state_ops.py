"""MapState: get/put/put_all/remove/contains/keys/values/items/is_empty/clear, [], in, del,
iteration. Views are printed sorted (map order is not part of the contract)."""
from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.state import MapStateDescriptor


class Maps(KeyedProcessFunction):
    def open(self, runtime_context):
        self.m = runtime_context.get_map_state(
            MapStateDescriptor("m", Types.STRING(), Types.INT()))

    def process_element(self, value, ctx):
        key, op, k, v = value
        m = self.m
        extra = ""
        if op == "put":
            m.put(k, v)
        elif op == "setitem":
            m[k] = v
        elif op == "put_all":
            # PyFlink 1.20 iterates put_all's argument as (key, value) pairs
            m.put_all([(k, v), (k + "2", v * 2), (k + "3", v * 3)])
        elif op == "remove":
            m.remove(k)
        elif op == "del":
            del m[k]
        elif op == "get":
            extra = " get=%r getitem=%r" % (m.get(k), m[k] if k in m else "absent")
        elif op == "clear":
            m.clear()
        yield "%s %s %s:%s contains=%r in=%r empty=%r keys=%r values=%r items=%r iter=%r%s" % (
            key, op, k, v, m.contains(k), k in m, m.is_empty(), sorted(m.keys()),
            sorted(m.values()), sorted(m.items()), sorted(iter(m)), extra)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", "get", "x", 0), ("a", "put", "x", 1), ("a", "setitem", "y", 2),
        ("b", "put_all", "p", 5), ("a", "get", "x", 0), ("a", "put", "x", 10),
        ("b", "remove", "p2", 0), ("b", "del", "p3", 0), ("a", "get", "y", 0),
        ("a", "remove", "nope", 0), ("a", "clear", "x", 0), ("b", "get", "p", 0),
        ("a", "put_all", "z", 1)]
(env.from_collection(data, type_info=Types.TUPLE(
        [Types.STRING(), Types.STRING(), Types.STRING(), Types.INT()]))
    .key_by(lambda v: v[0], key_type=Types.STRING())
    .process(Maps(), output_type=Types.STRING())
    .print())
env.execute("map state")
