"""Table.aggregate / GroupedTable.aggregate closed by a select() of expressions over the
aggregated columns (a udaf's ROW fields, a built-in aggregate's column), in STREAMING mode:
the aggregate's changes, each projected row by row (Flink's Calc after its aggregate), -U / +U
whenever the aggregate values changed, even when the projected values are equal (`x * 0`).
Columns named as a select's: _c<position> counting a star's columns, name-TYPE for a cast.
An aggregate call or another column in that select fails with Flink's words."""
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
aggregated = t.group_by(col('k')).aggregate(mean_max(col('v')).alias('m', 'x'))

projected = aggregated.select(col('*'), col('x') + 1, (col('x') * 0).alias('z'),
                              col('m').cast(DataTypes.INT()))
projected.print_schema()
projected.execute().print()

overall = t.aggregate(mean_max(col('v'))).select(col('TMP_0$top') - 1, col('TMP_0$mean') > 4)
overall.print_schema()
for row in t_env.to_changelog_stream(overall).execute_and_collect():
    print(row.get_row_kind(), row)

summed = t.group_by(col('k')).aggregate(col('v').sum.alias('s')) \
    .select(col('k'), col('s') * 0, col('s') + 1)
with summed.execute().collect() as rows:
    for row in rows:
        print(row.get_row_kind(), row)

for bad in (lambda: aggregated.select(col('x') + col('v')),
            lambda: aggregated.select(col('x').sum)):
    try:
        bad()
    except Exception as e:
        print([line for line in str(e).split('\n') if 'Exception' in line or
               'Cannot' in line or 'Aggregate' in line][0].split('ValidationException: ')[-1])
