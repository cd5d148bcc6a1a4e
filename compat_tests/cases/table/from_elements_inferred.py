"""from_elements without a DataTypes.ROW: the row type PyFlink infers from Python values
(int BIGINT, float DOUBLE, str STRING, bool BOOLEAN, bytearray BYTES, Decimal
DECIMAL(38, 18), date DATE, datetime TIMESTAMP_LTZ(6)), names given or `_<n>`, dict rows
by sorted key, None typed by other rows; what cannot be inferred or does not fit a declared
row is refused with PyFlink's text; a query over an inferred table."""
import datetime
import decimal

from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")

t = t_env.from_elements([(1, 'a', 1.5, True), (2, None, None, False)], ['id', 'data', 'x', 'flag'])
t.print_schema()
t.execute().print()

typed = t_env.from_elements(
    [(bytearray(b'ab'), decimal.Decimal('1.25'), datetime.date(2020, 1, 2),
      datetime.datetime(2020, 1, 2, 3, 4, 5, 250000))], ['b', 'dec'])
typed.print_schema()
typed.execute().print()

by_key = t_env.from_elements([{'v': 'x', 'k': 7}, {'k': 8, 'v': 'y'}])
by_key.print_schema()
t_env.create_temporary_view('kv', by_key)
t_env.sql_query("SELECT k * 2 AS k2, UPPER(v) AS v FROM kv WHERE k > 7").execute().print()


def refused(label, make):
    try:
        make()
        print(label, "accepted")
    except Exception as e:   # the exception's type and first line, as a user sees them
        print(label, type(e).__name__, str(e).splitlines()[0])


one_int = DataTypes.ROW([DataTypes.FIELD('a', DataTypes.INT())])
refused("empty", lambda: t_env.from_elements([], ['a']))
refused("all none", lambda: t_env.from_elements([(1, None), (2, None)], ['a', 'b']))
refused("merge", lambda: t_env.from_elements([(1,), (2.5,)], ['a']))
refused("scalars", lambda: t_env.from_elements([1, 2]))
refused("bytes", lambda: t_env.from_elements([(b'ab',)], ['a']))
refused("wrong type", lambda: t_env.from_elements([('x',)], one_int))
refused("bool for int", lambda: t_env.from_elements([(True,)], one_int))
refused("out of range", lambda: t_env.from_elements(
    [(1000,)], DataTypes.ROW([DataTypes.FIELD('a', DataTypes.TINYINT())])))
refused("not null", lambda: t_env.from_elements(
    [(None,)], DataTypes.ROW([DataTypes.FIELD('a', DataTypes.INT(False))])))
refused("length", lambda: t_env.from_elements([(1, 2)], one_int))
refused("unchecked", lambda: t_env.from_elements([(1,)], one_int, verify_schema=False))
