"""ValueState: unset reads None, update / value, update(None) clears, clear(); per key."""
from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, RuntimeContext, StreamExecutionEnvironment
from pyflink.datastream.state import ValueStateDescriptor


class Values(KeyedProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.last = runtime_context.get_state(ValueStateDescriptor("last", Types.STRING()))
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))
        self.obj = runtime_context.get_state(
            ValueStateDescriptor("obj", Types.PICKLED_BYTE_ARRAY()))

    def process_element(self, value, ctx):
        key, op = value
        before = self.last.value()
        count = self.count.value()
        if op == "set":
            self.last.update(key + "!")
        elif op == "none":
            self.last.update(None)
        elif op == "clear":
            self.last.clear()
        self.count.update((count or 0) + 1)
        obj = self.obj.value() or {}
        self.obj.update({"n": obj.get("n", 0) + 1, "ops": obj.get("ops", []) + [op]})
        yield "%s %s: before=%r after=%r count=%r obj=%r" % (
            key, op, before, self.last.value(), count, self.obj.value())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", "read"), ("a", "set"), ("b", "read"), ("a", "read"), ("a", "none"),
        ("a", "read"), ("b", "set"), ("b", "clear"), ("b", "read"), ("a", "set")]
(env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.STRING()]))
    .key_by(lambda v: v[0], key_type=Types.STRING())
    .process(Values(), output_type=Types.STRING())
    .print())
env.execute("value state")
