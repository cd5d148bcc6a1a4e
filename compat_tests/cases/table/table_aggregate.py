"""Table.aggregate / GroupedTable.aggregate with a Python aggregate function (udaf) whose ROW
result's fields are the columns, closed by select(), in STREAMING mode: the Python group
aggregate's bundles (3 rows: python.fn-execution.bundle.size, bundle.time set long so that no
bundle ends on a timer), each group emitting once per bundle (+I, then -U / +U when its ROW
changed). Columns named by the call's alias, else TMP_0$<field>; a global aggregate's
changelog through to_changelog_stream; a call that is no aggregate fails at select()."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, StreamTableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import AggregateFunction, udaf

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t_env.get_config().set("python.fn-execution.bundle.size", "3")
t_env.get_config().set("python.fn-execution.bundle.time", "600000")


class MeanMax(AggregateFunction):
    def create_accumulator(self):
        return [0, 0, None]

    def accumulate(self, acc, v):
        acc[0] += v
        acc[1] += 1
        acc[2] = v if acc[2] is None or v > acc[2] else acc[2]

    def get_value(self, acc):
        return Row(acc[0] / acc[1] if acc[1] else None, acc[2])

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("mean", DataTypes.DOUBLE()),
                              DataTypes.FIELD("top", DataTypes.BIGINT())])


ds = env.from_collection([(i % 3, i * 7 % 10) for i in range(1, 11)],
                         type_info=Types.ROW_NAMED(['k', 'v'], [Types.LONG(), Types.LONG()]))
t = t_env.from_data_stream(ds)
mean_max = udaf(MeanMax())

grouped = t.group_by(col('k')).aggregate(mean_max(col('v')).alias('m', 'x')).select(col('*'))
grouped.print_schema()
grouped.execute().print()

named = t.group_by(col('k')).aggregate(mean_max(col('v'))) \
    .select(col('TMP_0$top').alias('best'), col('k'))
named.print_schema()
with named.execute().collect() as rows:
    for row in rows:
        print(row.get_row_kind(), row)

overall = t.aggregate(mean_max(col('v')).alias('m', 'x')).select(col('x'), col('m'))
for row in t_env.to_changelog_stream(overall).execute_and_collect():
    print(row.get_row_kind(), row)

try:
    t.group_by(col('k')).aggregate(col('v') + 1).select(col('*'))
except Exception as e:
    print('Aggregate function expected' in str(e))
