"""from_data_stream(ds, Schema) declaring physical columns that are some of the stream's
fields, reordered, or with computed columns between them (PyFlink's tumble / slide /
session window examples declare f1, f2 after a computed ts of f0): the table's columns are
the declared ones in declaration order, printed without expressions or watermark; declaring
all fields in order with computed columns last prints them; a value stream's f0; alias keeps
the rowtime attribute."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, Schema, StreamTableEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(stream_execution_environment=env)
ds = env.from_collection([(1000, 'Alice', 1.5), (2000, 'Bob', 2.5)], type_info=Types.ROW([Types.LONG(), Types.STRING(), Types.DOUBLE()]))
def show(label, schema):
    try:
        t = t_env.from_data_stream(ds, schema)
        print(label); t.print_schema(); t.execute().print()
    except Exception as e:
        print(label, "ERROR", type(e).__name__, str(e).splitlines()[0][:300])
B = Schema.new_builder
show("V1 subset+computed", B().column_by_expression("ts", "TO_TIMESTAMP_LTZ(f0, 3)").column("f1", DataTypes.STRING()).column("f2", DataTypes.DOUBLE()).watermark("ts", "ts - INTERVAL '3' SECOND").build())
show("V2 all in order + computed last", B().column("f0", DataTypes.BIGINT()).column("f1", DataTypes.STRING()).column("f2", DataTypes.DOUBLE()).column_by_expression("ts", "TO_TIMESTAMP_LTZ(f0, 3)").watermark("ts", "ts - INTERVAL '3' SECOND").build())
show("V3 reordered", B().column("f2", DataTypes.DOUBLE()).column("f1", DataTypes.STRING()).build())
show("V4 subset", B().column("f1", DataTypes.STRING()).build())
show("V5 computed between", B().column("f0", DataTypes.BIGINT()).column_by_expression("ts", "TO_TIMESTAMP_LTZ(f0, 3)").column("f1", DataTypes.STRING()).column("f2", DataTypes.DOUBLE()).build())
show("V7 computed first all physical", B().column_by_expression("ts", "TO_TIMESTAMP_LTZ(f0, 3)").column("f0", DataTypes.BIGINT()).column("f1", DataTypes.STRING()).column("f2", DataTypes.DOUBLE()).build())
longs = env.from_collection([5, 6], type_info=Types.LONG())
try:
    t = t_env.from_data_stream(longs, B().column("f0", DataTypes.BIGINT()).build()); print("V8 atomic"); t.print_schema(); t.execute().print()
except Exception as e:
    print("V8 ERROR", type(e).__name__, str(e).splitlines()[0][:300])

t = t_env.from_data_stream(ds, B().column("f0", DataTypes.BIGINT()).column("f1", DataTypes.STRING())
                           .column("f2", DataTypes.DOUBLE())
                           .column_by_expression("ts", "TO_TIMESTAMP_LTZ(f0, 3)")
                           .watermark("ts", "ts - INTERVAL '3' SECOND").build())
t.alias("a", "b", "c", "t2").print_schema()
