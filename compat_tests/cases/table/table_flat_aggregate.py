"""Table.flat_aggregate / GroupedTable.flat_aggregate with a table aggregate function (udtaf,
PyFlink's Top2), closed by select(), in STREAMING mode: bundles of 3 rows
(python.fn-execution.bundle.size, bundle.time set long); when a bundle ends a group seen
before retracts every row it emitted (-D), then emits its new rows (+I). Columns named by the
alias, else by the ROW's fields; a global flat_aggregate's changelog through
to_changelog_stream; the function given itself takes each row as one Row."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, StreamTableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import TableAggregateFunction, udtaf

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
t_env.get_config().set("python.fn-execution.bundle.size", "3")
t_env.get_config().set("python.fn-execution.bundle.time", "600000")


class Top2(TableAggregateFunction):
    def create_accumulator(self):
        return [None, None]

    def accumulate(self, acc, v):
        if isinstance(v, Row):      # given the whole row
            v = v.v
        if v is None:
            return
        if acc[0] is None or v > acc[0]:
            acc[1] = acc[0]
            acc[0] = v
        elif acc[1] is None or v > acc[1]:
            acc[1] = v

    def emit_value(self, acc):
        if acc[0] is not None:
            yield Row(acc[0], 1)
        if acc[1] is not None:
            yield Row(acc[1], 2)

    def get_accumulator_type(self):
        return DataTypes.ARRAY(DataTypes.BIGINT())

    def get_result_type(self):
        return DataTypes.ROW([DataTypes.FIELD("a", DataTypes.BIGINT()),
                              DataTypes.FIELD("r", DataTypes.INT())])


ds = env.from_collection([(i % 2, i * 7 % 10) for i in range(1, 10)],
                         type_info=Types.ROW_NAMED(['k', 'v'], [Types.LONG(), Types.LONG()]))
t = t_env.from_data_stream(ds)
top2 = udtaf(Top2())

grouped = t.group_by(col('k')).flat_aggregate(top2(col('v')).alias('x', 'rank')) \
    .select(col('*'))
grouped.print_schema()
grouped.execute().print()

overall = t.flat_aggregate(top2(col('v'))).select(col('r'), col('a'))
for row in t_env.to_changelog_stream(overall).execute_and_collect():
    print(row.get_row_kind(), row)

rows = t.group_by(col('k')).flat_aggregate(udtaf(Top2())).select(col('k'), col('a'))
with rows.execute().collect() as results:
    for row in results:
        print(row.get_row_kind(), row)
