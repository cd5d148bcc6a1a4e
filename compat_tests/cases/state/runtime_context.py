"""RuntimeContext in open() of process / keyed process / map functions at parallelism 2:
subtask index, parallelism, max parallelism (default 128 and set explicitly), task name (and
with subtasks), attempt number, job parameters, metric groups. Collected and sorted."""
from pyflink.common import Types
from pyflink.datastream import (KeyedProcessFunction, MapFunction, ProcessFunction,
                                RuntimeContext, StreamExecutionEnvironment)


def describe(ctx: RuntimeContext, kind):
    # metrics: registering works in open(); PyFlink binds the counters only after open()
    group = ctx.get_metrics_group().add_group("my_group").add_group("key", "value")
    group.counter("my_counter")
    group.gauge("my_gauge", lambda: 42)
    group.meter("my_meter", time_span_in_seconds=30)
    group.distribution("my_distribution")
    return "%s %d/%d max=%d name=%s with=%s attempt=%d param=%s missing=%s" % (
        kind, ctx.get_index_of_this_subtask(), ctx.get_number_of_parallel_subtasks(),
        ctx.get_max_number_of_parallel_subtasks(), ctx.get_task_name(),
        ctx.get_task_name_with_subtasks(), ctx.get_attempt_number(),
        ctx.get_job_parameter("color", "none"), ctx.get_job_parameter("missing", "dflt"))


class Process(ProcessFunction):
    def open(self, runtime_context):
        self.info = describe(runtime_context, "process")

    def process_element(self, value, ctx):
        yield self.info


class Keyed(KeyedProcessFunction):
    def open(self, runtime_context):
        self.info = describe(runtime_context, "keyed")

    def process_element(self, value, ctx):
        yield self.info


class Map(MapFunction):
    def open(self, runtime_context):
        self.info = describe(runtime_context, "map")

    def map(self, value):
        return self.info


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
env.get_config().set_global_job_parameters({"color": "blue"})
nums = env.from_collection(list(range(8)), type_info=Types.INT())

out = nums.process(Process(), output_type=Types.STRING()).name("my process").execute_and_collect()
print(sorted(set(out)))
out = (nums.key_by(lambda v: v, key_type=Types.INT()).process(Keyed(), output_type=Types.STRING())
       .execute_and_collect())
print(sorted(set(out)))
out = (nums.key_by(lambda v: v, key_type=Types.INT()).process(Keyed(), output_type=Types.STRING())
       .name("keyed proc").set_max_parallelism(16).execute_and_collect())
print(sorted(set(out)))
out = nums.map(Map(), output_type=Types.STRING()).name("m").execute_and_collect()
print(sorted(set(out)))
