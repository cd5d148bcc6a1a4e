"""FLOAT results on each way out of a table, as PyFlink gives them: arithmetic over FLOATs
in single precision (f * 3, f / 3 of a datagen sequence; FLOAT + DOUBLE a FLOAT),
collect() the float of Java's Float.toString of the single (1.1, 0.33333334), to_pandas a
float32 column, to_data_stream the single's own value (1.100000023841858),
execute().print() Java's text."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)
schema = DataTypes.ROW([DataTypes.FIELD('k', DataTypes.INT()),
                        DataTypes.FIELD('f', DataTypes.FLOAT())])
t_env.create_temporary_view('t', t_env.from_elements(
    [(1, 1.1), (2, 2.2), (3, 0.1), (4, None)], schema))
t_env.execute_sql("CREATE TABLE g (id INT, f FLOAT) WITH ('connector' = 'datagen', "
                  "'number-of-rows' = '3', 'fields.id.kind' = 'sequence', "
                  "'fields.id.start' = '1', 'fields.id.end' = '3', 'fields.f.kind' = "
                  "'sequence', 'fields.f.start' = '1', 'fields.f.end' = '3')")

table = t_env.sql_query("SELECT k, f, f * 3 AS m, f + f AS p, CAST(f AS DOUBLE) AS d, "
                        "f * CAST(1.1 AS FLOAT) + 1 AS c FROM t")
table.print_schema()
with table.execute().collect() as results:
    for r in results:
        print(repr(r))
frame = table.to_pandas()
print(frame.dtypes.to_dict())
print({name: frame[name].tolist() for name in frame.columns})
table.execute().print()
# FLOAT with DOUBLE: Calcite types `+` and CASE / IF by their first approximate operand,
# Flink's COALESCE a DOUBLE
mixed = t_env.sql_query("SELECT f + CAST(k AS DOUBLE) / 10 AS a, "
                        "CAST(k AS DOUBLE) / 10 + f AS b, "
                        "f * 1e0 AS c, CASE WHEN k > 1 THEN f ELSE k / 10e0 END AS e, "
                        "IF(k > 2, f, k / 10e0) AS g, COALESCE(f, k / 10e0) AS h FROM t")
mixed.print_schema()
with mixed.execute().collect() as results:
    for r in results:
        print(repr(r))
generated = t_env.sql_query("SELECT id, f / 3 AS q, f * CAST(1.1 AS FLOAT) AS m FROM g")
generated.print_schema()
with generated.execute().collect() as results:
    for r in results:
        print(repr(r))
t_env.to_data_stream(table).map(lambda r: 'stream %r' % (tuple(r),),
                                output_type=Types.STRING()).print()
env.execute('float_results')
