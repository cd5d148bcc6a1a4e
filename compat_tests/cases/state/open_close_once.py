"""open() and close() run once per parallel instance (parallelism 2, every subtask gets
records), open() before the first record and close() after the last one (event-time timers
included). Each call appends a line to a file in a fresh temporary directory; the program
prints the sorted lines after the job."""
import os
import shutil
import tempfile

from pyflink.common import Types
from pyflink.datastream import (KeyedProcessFunction, MapFunction, ProcessFunction,
                                StreamExecutionEnvironment)

LOG_DIR = tempfile.mkdtemp(prefix="open-close-")


def log(kind, ctx_index, what):
    with open(os.path.join(LOG_DIR, "%s-%d" % (kind, ctx_index)), "a") as f:
        f.write("%s %d %s\n" % (kind, ctx_index, what))


class Process(ProcessFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()
        self.records = 0
        log("process", self.index, "open")

    def process_element(self, value, ctx):
        self.records += 1
        yield value

    def close(self):
        log("process", self.index, "close after %d records" % self.records)


class Keyed(KeyedProcessFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()
        self.records = 0
        self.timers = 0
        log("keyed", self.index, "open")

    def process_element(self, value, ctx):
        self.records += 1
        ctx.timer_service().register_event_time_timer(value)
        yield value

    def on_timer(self, timestamp, ctx):
        self.timers += 1
        yield -timestamp

    def close(self):
        log("keyed", self.index, "close after %d records, %d timers" % (self.records,
                                                                         self.timers))


class Map(MapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()
        self.records = 0
        log("map", self.index, "open")

    def map(self, value):
        self.records += 1
        return value

    def close(self):
        log("map", self.index, "close after %d records" % self.records)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
result = (env.from_collection(list(range(10)), type_info=Types.INT())
          .process(Process(), output_type=Types.INT())
          .key_by(lambda v: v, key_type=Types.INT())
          .process(Keyed(), output_type=Types.INT())
          .map(Map(), output_type=Types.INT())
          .execute_and_collect())
print(sorted(result))
lines = []
for name in os.listdir(LOG_DIR):
    with open(os.path.join(LOG_DIR, name)) as f:
        lines.extend(f.read().splitlines())
shutil.rmtree(LOG_DIR)
for line in sorted(lines):
    print(line)
