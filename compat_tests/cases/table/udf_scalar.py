"""Python scalar functions (pyflink.table.udf) in SQL and the Table API, over a table of a
DataStream: registered (temporary / system, any case) or called inline; NULL reaches the
function as None; results converted to the declared type (a float for BIGINT truncated, an
int for DOUBLE a float); a function in WHERE, in GROUP BY keys, nested; a ScalarFunction's
open() reads a job parameter."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, EnvironmentSettings, StreamTableEnvironment
from pyflink.table.expressions import call, col
from pyflink.table.udf import FunctionContext, ScalarFunction, udf

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
t_env = StreamTableEnvironment.create(env, EnvironmentSettings.in_batch_mode())
t_env.get_config().set("pipeline.global-job-parameters", "greeting:hello")

ds = env.from_collection(
    [(1, 'apple', 2.5), (2, None, 1.0), (3, 'pear', None), (4, 'plum', 7.75)],
    type_info=Types.ROW_NAMED(['id', 'name', 'price'],
                              [Types.INT(), Types.STRING(), Types.DOUBLE()]))
t_env.create_temporary_view('fruit', ds)
fruit = t_env.from_path('fruit')


@udf(result_type=DataTypes.BIGINT())
def twice(x):
    return None if x is None else x * 2


@udf(result_type=DataTypes.STRING())
def kind_of(v):
    return '%s:%r' % (type(v).__name__, v)


class Greet(ScalarFunction):
    def open(self, function_context: FunctionContext):
        self.greeting = function_context.get_job_parameter('greeting', 'hi')
        self.missing = function_context.get_job_parameter('missing', 'default')

    def eval(self, name):
        return '%s %s (%s)' % (self.greeting, name, self.missing)


truncated = udf(lambda p: p, result_type=DataTypes.BIGINT())
as_double = udf(lambda i: i * 3, result_type=DataTypes.DOUBLE())
parity = udf(lambda i: 'even' if i % 2 == 0 else 'odd', result_type=DataTypes.STRING())

t_env.create_temporary_system_function('twice', twice)
t_env.create_temporary_function('kind_of', kind_of)
t_env.create_temporary_function('greet', udf(Greet(), result_type=DataTypes.STRING()))
t_env.create_temporary_function('truncated', truncated)
t_env.create_temporary_function('as_double', as_double)
t_env.create_temporary_function('parity', parity)
print(t_env.list_user_defined_functions())


def show(title, table):
    print('--', title)
    table.print_schema()
    with table.execute().collect() as rows:
        for r in sorted(rows, key=repr):
            print(r)


show('select', t_env.sql_query(
    "SELECT id, TWICE(id) AS t, kind_of(name) AS d, kind_of(price) AS dp, greet(name) AS g "
    "FROM fruit"))
show('conversion', t_env.sql_query(
    "SELECT id, truncated(price) AS tp, as_double(id) AS ad FROM fruit WHERE price IS NOT NULL"))
show('where and nested', t_env.sql_query(
    "SELECT id, twice(twice(id)) AS tt FROM fruit WHERE twice(id) > 3 AND parity(id) = 'even'"))
show('group by', t_env.sql_query(
    "SELECT parity(id) AS p, COUNT(*) AS n, SUM(twice(id)) AS s FROM fruit GROUP BY parity(id)"))
show('table api', fruit.select(col('id'), twice(col('id')), call('kind_of', col('name')),
                               call(parity, fruit.id).alias('p')))
show('table api where', fruit.where(twice(col('id')) < 5).select(col('name')))
print(t_env.drop_temporary_function('parity'), t_env.drop_temporary_function('parity'),
      t_env.drop_temporary_system_function('twice'))
print(t_env.list_user_defined_functions())
