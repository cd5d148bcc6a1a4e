"""to_pandas of a stream's table; from_pandas with and without a schema (columns and dtypes
as Flink gives them), and back to pandas."""
import pandas as pd

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)

ds = env.from_collection([(1, 'a', 0.5), (2, 'b', 1.5), (3, 'c', 2.5)],
                         type_info=Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()]))
pdf = t_env.from_data_stream(ds).to_pandas()
print(pdf)
print(pdf.dtypes)

df = pd.DataFrame({'a': [1, 2, 3], 'b': ['x', None, 'z'], 'c': [0.5, 1.5, -2.0]})
t = t_env.from_pandas(df)
t.print_schema()
print(t.to_pandas())
print(t.to_pandas().dtypes)
t_env.from_pandas(df, ['x', 'y', 'z']).print_schema()
t = t_env.from_pandas(df, DataTypes.ROW([DataTypes.FIELD('a', DataTypes.INT()),
                                         DataTypes.FIELD('b', DataTypes.STRING()),
                                         DataTypes.FIELD('c', DataTypes.DOUBLE())]))
t.print_schema()
out = t.to_pandas()
print(out)
print(out.dtypes)
with t.execute().collect() as rows:
    print([repr(r) for r in rows])
