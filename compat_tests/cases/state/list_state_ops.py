"""ListState: get on empty, add, add_all, update (replace), clear, iteration of get()."""
from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.state import ListStateDescriptor


class Lists(KeyedProcessFunction):
    def open(self, runtime_context):
        self.items = runtime_context.get_list_state(ListStateDescriptor("items", Types.INT()))

    def process_element(self, value, ctx):
        key, op, arg = value
        if op == "add":
            self.items.add(arg)
        elif op == "add_all":
            self.items.add_all([arg, arg + 1, arg + 2])
        elif op == "update":
            self.items.update([arg * 10, arg * 100])
        elif op == "update_empty":
            self.items.update([])
        elif op == "clear":
            self.items.clear()
        got = self.items.get()
        as_list = list(got)
        yield "%s %s(%d): %r sum=%d len=%d" % (key, op, arg, as_list, sum(as_list),
                                               len([x for x in self.items.get()]))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
data = [("a", "get", 0), ("a", "add", 1), ("a", "add", 2), ("b", "add_all", 5),
        ("a", "add_all", 7), ("b", "update", 3), ("a", "get", 0), ("a", "clear", 0),
        ("a", "add", 4), ("b", "update_empty", 0), ("b", "add", 9), ("a", "update", 1)]
(env.from_collection(data, type_info=Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()]))
    .key_by(lambda v: v[0], key_type=Types.STRING())
    .process(Lists(), output_type=Types.STRING())
    .print())
env.execute("list state")
