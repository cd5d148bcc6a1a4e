"""Table.map of a pandas scalar function (udf(func_type='pandas')): not called, it takes the
batch's rows as one DataFrame of the table's columns; called on expressions, its arguments as
Series; its DataFrame result gives the ROW's fields by position (NaN and None are NULL); maps
chain and are queried further, in BATCH and STREAMING mode."""
import pandas as pd

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import udf

XY = DataTypes.ROW([DataTypes.FIELD('x', DataTypes.BIGINT()),
                    DataTypes.FIELD('y', DataTypes.STRING())])


@udf(result_type=XY, func_type='pandas')
def upper_times_ten(df):
    return pd.concat([df.a * 10, df.b.str.upper()], axis=1)


@udf(result_type=DataTypes.ROW([DataTypes.FIELD('n', DataTypes.BIGINT()),
                                DataTypes.FIELD('d', DataTypes.DOUBLE())]), func_type='pandas')
def plus_one_doubled(a, c):
    return pd.concat([a + 1, c * 2], axis=1)


@udf(result_type=XY, func_type='pandas')
def labelled(df):
    # by position: PyFlink names a chained map's DataFrame columns after its plan's fields
    # (f0, f1 or the first map's input names, varying), not after the table's columns
    x = df.iloc[:, 0]
    return pd.DataFrame({'k': x + 1, 'v': 'x=' + x.astype(str)})


for settings in (EnvironmentSettings.in_batch_mode(), EnvironmentSettings.in_streaming_mode()):
    t_env = TableEnvironment.create(settings)
    t_env.get_config().set('parallelism.default', '1')
    tab = t_env.from_elements([(1, 'hi', 2.5), (2, 'yo', None), (3, None, 1.0)],
                              ['a', 'b', 'c'])
    tables = [tab.map(upper_times_ten),
              tab.map(plus_one_doubled(col('a'), col('c'))),
              tab.map(upper_times_ten).map(labelled).where(col('x') > 15),
              tab.map(plus_one_doubled(col('a') * 2, col('c'))).select(col('d'), col('n') + 100)]
    for table in tables:
        print(table.get_schema().get_field_names())
        for row in sorted(table.execute().collect(), key=str):
            print(row)
