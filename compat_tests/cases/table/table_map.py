"""Table.map: a Python scalar function with a ROW result, called on expressions or taking each
row as one Row; its fields are the columns (renamed by alias), a None result a row of NULLs;
maps chain and are queried further. Table.flat_map of a called table function."""
from pyflink.common import Row
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import ScalarFunction, udf, udtf

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set('parallelism.default', '1')
t_env.get_config().set('pipeline.global-job-parameters', 'factor:3')
tab = t_env.from_elements([(1, 'hi'), (2, 'hello'), (3, None)], ['a', 'b'])

PQ = DataTypes.ROW([DataTypes.FIELD('p', DataTypes.BIGINT()),
                    DataTypes.FIELD('q', DataTypes.STRING())])


class Scaled(ScalarFunction):
    def open(self, function_context):
        self.factor = int(function_context.get_job_parameter('factor', '1'))

    def eval(self, row):
        return Row(row.a * self.factor, (row.b or '-').upper())


square = udf(lambda x: None if x == 2 else Row(x * x, 'sq%d' % x), result_type=PQ)
scaled = udf(Scaled(), result_type=PQ)
split = udtf(lambda s, a: [(s or '', a), ('x', a)],
             result_types=[DataTypes.STRING(), DataTypes.BIGINT()])

tables = [tab.map(square(col('a') + 1)),
          tab.map(scaled).alias('n', 'w'),
          tab.map(scaled).map(square(col('p'))).where(col('p').is_not_null),
          tab.map(square(col('a'))).select(col('q'), col('p') * 10),
          tab.flat_map(split(col('b'), col('a')))]
for table in tables:
    print(table.get_schema().get_field_names())
    for row in sorted(table.execute().collect(), key=str):
        print(row)
