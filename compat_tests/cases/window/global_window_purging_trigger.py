"""GlobalWindows with PurgingTrigger.of(CountTrigger.of(2)): every two elements fire and
purge; the odd one out never fires. Scenario of PyFlink's
test_global_window_with_purging_trigger; then CountTrigger without purging (contents kept)."""
from pyflink.common import Types
from pyflink.datastream import ProcessWindowFunction, StreamExecutionEnvironment
from pyflink.datastream.window import CountTrigger, GlobalWindows, PurgingTrigger


class CountAll(ProcessWindowFunction):
    def process(self, key, context, elements):
        return [(key, len(list(elements)))]


class Contents(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield "%s %s %s" % (key, context.window(), [e[1] for e in elements])


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
(env.from_collection([("hi", 1)] * 7, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(GlobalWindows.create())
    .trigger(PurgingTrigger.of(CountTrigger.of(2)))
    .process(CountAll(), Types.TUPLE([Types.STRING(), Types.INT()]))
    .print())
env.execute("global window, purging count trigger")

(env.from_collection([("k", i) for i in range(5)],
                     type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    .key_by(lambda r: r[0], key_type=Types.STRING())
    .window(GlobalWindows.create())
    .trigger(CountTrigger.of(2))
    .process(Contents(), Types.STRING())
    .print())
env.execute("global window, count trigger")
