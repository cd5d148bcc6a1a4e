"""env.execute() returns a JobExecutionResult (job ids and runtimes are not printed). Its
accumulators: none, also when user functions registered metrics (PyFlink has no
accumulator API; its metrics are not accumulators)."""
from pyflink.common import JobExecutionResult, Types
from pyflink.datastream import MapFunction, StreamExecutionEnvironment


class Counting(MapFunction):
    def open(self, ctx):
        self.seen = ctx.get_metrics_group().counter("seen")
        self.lines = ctx.get_metrics_group().add_group("words").counter("lines")

    def map(self, value):
        self.seen.inc()
        self.lines.inc()
        return value + 1


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)

env.from_collection([1, 2, 3], type_info=Types.INT()).map(Counting(), output_type=Types.INT()).print()
result = env.execute("my job")
print(type(result).__name__, isinstance(result, JobExecutionResult))
print(result.get_all_accumulator_results())
print(result.get_accumulator_result("missing"))
print(result.get_accumulator_result("seen"), result.get_accumulator_result("words.lines"))
print(isinstance(result.get_net_runtime(), int), result.get_net_runtime() >= 0)
print(result.get_job_id() is not None)

env.from_collection(["only"], type_info=Types.STRING()).print()
print(type(env.execute()).__name__)
