"""What state hands back for typed descriptors: Row, tuple, list, dict, float and pickled
values, read in a later record of the same key."""
from pyflink.common import Row, Types
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.state import (ListStateDescriptor, MapStateDescriptor,
                                      ValueStateDescriptor)

DESCRIPTORS = [
    ("row", Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()]), Row(a=1, b="x")),
    ("tuple", Types.TUPLE([Types.INT(), Types.STRING()]), (2, "y")),
    ("list", Types.LIST(Types.INT()), [1, 2, 3]),
    ("array", Types.BASIC_ARRAY(Types.INT()), [4, 5]),
    ("map", Types.MAP(Types.STRING(), Types.INT()), {"k": 1}),
    ("double", Types.DOUBLE(), 1.5),
    ("pickled", Types.PICKLED_BYTE_ARRAY(), {"nested": (1, [2])}),
]


class Types_(KeyedProcessFunction):
    def open(self, runtime_context):
        self.states = [(name, runtime_context.get_state(ValueStateDescriptor(name, t)), v)
                       for name, t, v in DESCRIPTORS]
        self.list = runtime_context.get_list_state(
            ListStateDescriptor("rows", Types.ROW([Types.INT(), Types.STRING()])))
        self.map = runtime_context.get_map_state(
            MapStateDescriptor("tuples", Types.STRING(), Types.TUPLE([Types.INT(), Types.INT()])))

    def process_element(self, value, ctx):
        if value == 0:
            for name, state, v in self.states:
                state.update(v)
            self.list.add(Row(1, "r"))
            self.map.put("t", (1, 2))
            yield "written"
        else:
            for name, state, _ in self.states:
                got = state.value()
                yield "%s: %s %r" % (name, type(got).__name__, got)
            rows = list(self.list.get())
            yield "list: %s %r" % (type(rows[0]).__name__, rows)
            t = self.map.get("t")
            yield "map value: %s %r" % (type(t).__name__, t)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
(env.from_collection([0, 1], type_info=Types.INT())
    .key_by(lambda v: "same", key_type=Types.STRING())
    .process(Types_(), output_type=Types.STRING())
    .print())
env.execute()
