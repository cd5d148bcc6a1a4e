"""Python table functions (pyflink.table.udf.udtf): rows by yield, one or several columns,
in LATERAL TABLE (comma, CROSS JOIN, LEFT JOIN ... ON TRUE) with and without AS T(a, b), and
in the Table API's join_lateral / left_outer_join_lateral; a TableFunction class."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, EnvironmentSettings, StreamTableEnvironment
from pyflink.table.expressions import col
from pyflink.table.udf import TableFunction, udtf

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env, EnvironmentSettings.in_batch_mode())

ds = env.from_collection(
    [(1, 'to be or'), (2, None), (3, 'not'), (4, '')],
    type_info=Types.ROW_NAMED(['id', 'line'], [Types.INT(), Types.STRING()]))
t_env.create_temporary_view('lines', ds)
lines = t_env.from_path('lines')


@udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
def words(line):
    if line is None:
        return
    for w in line.split():
        yield w, len(w)


@udtf(result_types=DataTypes.BIGINT())
def upto(n):
    for i in range(n):
        yield i


class Letters(TableFunction):
    def eval(self, line):
        for ch in sorted(set((line or '').replace(' ', ''))):
            yield ch


t_env.create_temporary_function('words', words)
t_env.create_temporary_system_function('upto', upto)
t_env.create_temporary_function('letters', udtf(Letters(), result_types=[DataTypes.STRING()]))


def show(title, table):
    print('--', title)
    table.print_schema()
    with table.execute().collect() as rows:
        for r in sorted(rows, key=repr):
            print(r)


show('comma', t_env.sql_query(
    "SELECT id, w, n FROM lines, LATERAL TABLE(words(line)) AS T(w, n)"))
show('cross join, no alias', t_env.sql_query(
    "SELECT id, f0, f1 FROM lines CROSS JOIN LATERAL TABLE(words(line))"))
show('left join', t_env.sql_query(
    "SELECT id, w, n FROM lines LEFT JOIN LATERAL TABLE(words(line)) AS T(w, n) ON TRUE"))
show('one column', t_env.sql_query(
    "SELECT id, f0 FROM lines, LATERAL TABLE(upto(id)) WHERE f0 > 1"))
show('class, filtered', t_env.sql_query(
    "SELECT id, c FROM lines, LATERAL TABLE(letters(line)) AS L(c) WHERE c <> 'o'"))
show('grouped', t_env.sql_query(
    "SELECT w, COUNT(*) AS n FROM lines, LATERAL TABLE(words(line)) AS T(w, l) GROUP BY w"))
show('join_lateral', lines.join_lateral(words(col('line')).alias('word', 'size')))
show('join_lateral, no alias', lines.join_lateral(words(col('line'))).select(col('id'), col('f1')))
show('left_outer_join_lateral', lines.left_outer_join_lateral(
    words(col('line')).alias('word', 'size')).select(col('id'), col('word')))
