"""AVG's result type and value for each numeric type, as Flink computes it, on each path a
STREAMING grouping query's rows take here (collect at parallelism 1: the one-task path;
to_changelog_stream and collect at parallelism 2: the keyed aggregate): an integer type's
AVG is that type, its sum a BIGINT that wraps (AVG of 2^63 - 1 and 10), the mean truncated
toward zero; a FLOAT's sum is a DOUBLE; a DECIMAL(p, s)'s AVG a DECIMAL(38, max(6, s))
rounded half up."""
from decimal import Decimal

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import DataTypes, StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
schema = DataTypes.ROW([
    DataTypes.FIELD('k', DataTypes.STRING()), DataTypes.FIELD('ti', DataTypes.TINYINT()),
    DataTypes.FIELD('si', DataTypes.SMALLINT()), DataTypes.FIELD('i', DataTypes.INT()),
    DataTypes.FIELD('b', DataTypes.BIGINT()), DataTypes.FIELD('f', DataTypes.FLOAT()),
    DataTypes.FIELD('d', DataTypes.DOUBLE()), DataTypes.FIELD('d2', DataTypes.DECIMAL(10, 2)),
    DataTypes.FIELD('d8', DataTypes.DECIMAL(12, 8)),
    DataTypes.FIELD('d0', DataTypes.DECIMAL(5, 0))])
rows = [('a', 127, 32767, 2147483647, 9223372036854775807, 16777216.0, 0.1, Decimal('1.00'),
         Decimal('0.12345678'), Decimal('7')),
        ('a', 127, 32767, 2147483647, 10, 1.0, 0.2, Decimal('1.00'), Decimal('0.00000001'),
         Decimal('-2')),
        ('a', 1, 1, 1, 1, 1.0, 0.3, Decimal('0.00'), Decimal('0.00000000'), Decimal('0')),
        ('b', -1, -1, -1, -1, 1.5, 1.0, Decimal('-1.00'), Decimal('-1.00000001'), Decimal('-1')),
        ('b', -2, -2, -2, -2, 2.5, 2.0, Decimal('-1.00'), Decimal('0.5'), Decimal('-2')),
        ('b', None, None, None, None, None, None, None, None, None)]
query = ("SELECT k, AVG(ti) AS ati, AVG(si) AS asi, AVG(i) AS ai, AVG(b) AS ab, AVG(f) AS af, "
         "AVG(d) AS ad, AVG(d2) AS ad2, AVG(d8) AS ad8, AVG(d0) AS ad0 FROM t GROUP BY k")


def show(rows):
    for r in rows:
        print(r.get_row_kind(), repr(r))


t_env = StreamTableEnvironment.create(env)
t_env.create_temporary_view('t', t_env.from_elements(rows, schema))
table = t_env.sql_query(query)
table.print_schema()
with table.execute().collect() as results:
    show(results)
t_env.to_changelog_stream(table).map(
    lambda r: 'changelog %s %r' % (r.get_row_kind(), r), output_type=Types.STRING()).print()
env.execute('avg_types')
# at parallelism 2 the groups' changes interleave as the subtasks run: sorted
t_env.get_config().set('parallelism.default', '2')
with t_env.sql_query(query).execute().collect() as results:
    for line in sorted('%s %r' % (r.get_row_kind(), r) for r in results):
        print('parallelism 2:', line)
