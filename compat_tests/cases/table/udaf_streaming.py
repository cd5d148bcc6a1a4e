"""Python aggregate functions (udaf) in a STREAMING-mode GROUP BY, as PyFlink's Python group
aggregate runs them: the rows of a bundle are aggregated per group when the bundle ends, each
group emitting once (+I the first time, -U / +U when its values changed, nothing when they
did not). Bundles of 3 rows (python.fn-execution.bundle.size; bundle.time set long so that no
bundle ends on a timer): a udaf beside COUNT(*) and MAX in SQL, a udaf of two arguments
called inline in the Table API, its open() reading a job parameter. A pandas udaf in a
grouping query fails when run, as on PyFlink."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, StreamTableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import AggregateFunction, udaf

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
config = t_env.get_config()
config.set("python.fn-execution.bundle.size", "3")
config.set("python.fn-execution.bundle.time", "600000")
config.set("pipeline.global-job-parameters", "scale:10")


class ScaledSum(AggregateFunction):
    def open(self, function_context):
        self.scale = int(function_context.get_job_parameter("scale", "1"))

    def create_accumulator(self):
        return [0, 0]

    def accumulate(self, acc, value, weight=1):
        if value is not None:
            acc[0] += value * weight * self.scale
            acc[1] += 1

    def retract(self, acc, value, weight=1):
        if value is not None:
            acc[0] -= value * weight * self.scale
            acc[1] -= 1

    def get_value(self, acc):
        return acc[0] if acc[1] else None

    def get_result_type(self):
        return DataTypes.BIGINT()

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())


ds = env.from_collection(
    [('a', 1, 2), ('b', 2, 1), ('a', 3, 1), ('c', None, 5), ('b', 0, 4), ('a', 4, 0),
     ('c', 7, 1), ('b', 5, 1)],
    type_info=Types.ROW_NAMED(['k', 'v', 'w'], [Types.STRING(), Types.INT(), Types.INT()]))
t_env.create_temporary_view('t', ds)
t_env.create_temporary_system_function('scaled', udaf(ScaledSum()))

query = t_env.sql_query("SELECT k, scaled(v) AS s, COUNT(*) AS n, MAX(v) AS top FROM t "
                        "GROUP BY k")
query.print_schema()
with query.execute().collect() as rows:
    for row in rows:
        print(row.get_row_kind(), row)

weighted = udaf(ScaledSum(), result_type=DataTypes.BIGINT(),
                accumulator_type=DataTypes.ARRAY(DataTypes.BIGINT()))
api = t_env.from_path('t').group_by(col('k')).select(col('k'), weighted(col('v'), col('w')))
with api.execute().collect() as rows:
    for row in rows:
        print(row.get_row_kind(), row)

t_env.create_temporary_system_function('pmean', udaf(
    lambda v: v.mean(), result_type=DataTypes.DOUBLE(), func_type='pandas'))
pandas = t_env.sql_query("SELECT k, pmean(v) AS m FROM t GROUP BY k")
try:
    pandas.execute()
except Exception as e:
    print(type(e).__name__, [line for line in str(e).splitlines() if 'Pandas' in line][0])
