"""from_data_stream: the columns Flink derives from the stream's type (tuple fields f0..,
Java primitives NOT NULL; Row fields named, nullable; a value alone f0), and
execute().collect() of the table: Rows with row kind +I, in the stream's order."""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import StreamTableEnvironment
from pyflink.table.expressions import col

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env)


def show(table):
    table.print_schema()
    print(table.get_schema())
    print(table.get_schema().get_field_names())
    with table.execute().collect() as rows:
        for r in rows:
            print(repr(r), r.get_row_kind())


show(t_env.from_data_stream(env.from_collection(
    [(1, 2, 1.5, True, 'a', 3.0), (-4, 5, 0.25, False, 'c', 1.0)],
    type_info=Types.TUPLE([Types.INT(), Types.LONG(), Types.DOUBLE(), Types.BOOLEAN(),
                           Types.STRING(), Types.FLOAT()]))))
show(t_env.from_data_stream(env.from_collection(
    [Row(name='x', score=7, rate=0.5), Row(name='y', score=None, rate=1.5)],
    type_info=Types.ROW_NAMED(['name', 'score', 'rate'],
                              [Types.STRING(), Types.INT(), Types.DOUBLE()]))))
show(t_env.from_data_stream(env.from_collection([3, 1, 2], type_info=Types.LONG())))
show(t_env.from_data_stream(env.from_collection(['b', 'a'], type_info=Types.STRING())))
# a stream with operators before the table, renamed by expressions
words = env.from_collection(["to be", "or not"], type_info=Types.STRING()) \
    .flat_map(lambda line: [(w, len(w)) for w in line.split()],
              output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
show(t_env.from_data_stream(words, col('word'), col('length')))
show(t_env.from_data_stream(words).alias('w', 'n'))
