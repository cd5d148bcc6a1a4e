"""Processing-time windows still open when a bounded input ends do not fire (PyFlink 1.20),
and GlobalWindows with the default NeverTrigger never fire: these jobs print nothing."""
from pyflink.common import Time, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.window import (
    GlobalWindows, ProcessingTimeSessionWindows, SlidingProcessingTimeWindows,
    TumblingProcessingTimeWindows)

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
records = [("a", 1), ("b", 2), ("a", 3)]
assigners = [
    ("tumbling", TumblingProcessingTimeWindows.of(Time.days(1))),
    ("sliding", SlidingProcessingTimeWindows.of(Time.days(2), Time.days(1))),
    ("session", ProcessingTimeSessionWindows.with_gap(Time.hours(1))),
    ("global", GlobalWindows.create()),
]
for name, assigner in assigners:
    (env.from_collection(records, type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
        .key_by(lambda r: r[0], key_type=Types.STRING())
        .window(assigner)
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
        .print())
    env.execute(name)
    print(name, "done")
