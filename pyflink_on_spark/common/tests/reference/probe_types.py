"""Reference probe: how real PyFlink 1.20 prints and converts values of each declared type.

Run with real PyFlink (never a dependency of pyflink_on_spark):

    PATH=/opt/venvs/flink/bin:$PATH python probe_types.py            # every case, every variant
    PATH=/opt/venvs/flink/bin:$PATH python probe_types.py ROW:P,N     # chosen cases/variants

Variants (one Flink job per case and variant, so a failing case fails alone; without a
variant list all variants share one job, and the fan-out stops PyFlink from chaining C):
  P   ds.map(identity, output_type=T).print()        -> line of the print sink
  C   ...map(identity, output_type=T).map(describe)  -> chained: PyFlink passes the raw object
  N   ...map(identity, output_type=T).rebalance().map(describe) -> value after the JVM
  S   env.from_collection(values, type_info=T).print()
  SC  env.from_collection(values, type_info=T).map(describe)
Output lines look like "N:ROWR> Row|Row(f0=1, f1='a')|fields=['f0', 'f1']|kind=+I".
The observed results are asserted in ../test_common_typeinfo_observed.py.
"""
import datetime
import re
import sys
from decimal import Decimal

from pyflink.common import Instant, Row, RowKind, Types
from pyflink.datastream import StreamExecutionEnvironment

D = datetime
inf, nan = float('inf'), float('nan')

CASES = {
 "STRING": (Types.STRING(), ["a", "", "héllo", "x y"]),
 "INT": (Types.INT(), [1, -5, 0]),
 "LONG": (Types.LONG(), [2**40, -1]),
 "SHORT": (Types.SHORT(), [7]),
 "BYTE": (Types.BYTE(), [-3, 100]),
 "BOOLEAN": (Types.BOOLEAN(), [True, False]),
 "FLOAT": (Types.FLOAT(), [1.0, 1.5, 0.1, 1e10, 123456789.0, 1e-5, inf, nan, -0.0, 3.4e38, 1e7, 1e-3, 0.001234, 16777217.0]),
 "DOUBLE": (Types.DOUBLE(), [1.0, 0.1, 1e10, 1e7, 9999999.0, 1e-3, 1e-4, 1/3, 2.0**53, 1e21, 1e22, 123.456, -0.0, inf, -inf, nan, 1e100, 5e-324, 100.0, 2e-3, 1.0E23, 4.35]),
 "CHAR": (Types.CHAR(), ['a', 'Z']),
 "BIG_INT": (Types.BIG_INT(), [10**30, -7]),
 "BIG_DEC": (Types.BIG_DEC(), [Decimal('1.50'), Decimal('1E+3'), Decimal('0.000001'), Decimal('1E-7'), Decimal('-12.3400'), Decimal('123456789012345678901234567890.123')]),
 "INSTANT": (Types.INSTANT(), [Instant.of_epoch_milli(1000), Instant.of_epoch_milli(1500), Instant.of_epoch_milli(0), Instant.of_epoch_milli(1700000000123)]),
 "SQL_DATE": (Types.SQL_DATE(), [D.date(2020,1,2), D.date(1969,12,31)]),
 "SQL_TIME": (Types.SQL_TIME(), [D.time(1,2,3), D.time(23,59,59,123456)]),
 "SQL_TIMESTAMP": (Types.SQL_TIMESTAMP(), [D.datetime(2020,1,2,3,4,5), D.datetime(2020,1,2,3,4,5,123456), D.datetime(2020,1,2,3,4,5,120000)]),
 "ROW": (Types.ROW([Types.INT(), Types.STRING()]), [(1,'a'), Row(2,'b'), Row.of_kind(RowKind.UPDATE_BEFORE, 3, 'c'), [4, 'd'], (5, None)]),
 "ROW_NAMED": (Types.ROW_NAMED(['x','y'], [Types.INT(), Types.STRING()]), [(1,'a'), Row(x=2,y='b'), Row(y='c', x=3)]),
 "ROW_NESTED": (Types.ROW([Types.INT(), Types.ROW([Types.STRING(), Types.DOUBLE()])]), [(1, ('a', 1.0)), (2, Row('b', 1e10))]),
 "ROW_MIX": (Types.ROW([Types.DOUBLE(), Types.BOOLEAN(), Types.LIST(Types.INT()), Types.MAP(Types.STRING(), Types.INT()), Types.SQL_DATE(), Types.FLOAT(), Types.PRIMITIVE_ARRAY(Types.INT()), Types.BIG_DEC(), Types.TUPLE([Types.INT(), Types.STRING()])]),
             [(1e10, True, [1,2], {'a':1}, D.date(2020,1,2), 0.1, [3,4], Decimal('1.50'), (7, 'z'))]),
 "TUPLE": (Types.TUPLE([Types.INT(), Types.STRING()]), [(1,'a'), [2,'b'], Row(3,'c')]),
 "TUPLE_NESTED": (Types.TUPLE([Types.INT(), Types.TUPLE([Types.STRING(), Types.DOUBLE()])]), [(1, ('a', 1e10))]),
 "TUPLE_MIX": (Types.TUPLE([Types.LIST(Types.INT()), Types.PRIMITIVE_ARRAY(Types.INT()), Types.BOOLEAN(), Types.DOUBLE(), Types.ROW([Types.INT()]), Types.MAP(Types.STRING(), Types.INT()), Types.FLOAT()]), [([1,2],[3,4],True,1e10,(5,),{'k':1}, 0.1)]),
 "LIST_INT": (Types.LIST(Types.INT()), [[1,2,3], []]),
 "LIST_STR": (Types.LIST(Types.STRING()), [['a','b']]),
 "LIST_DOUBLE": (Types.LIST(Types.DOUBLE()), [[1.0, 1e10]]),
 "LIST_ROW": (Types.LIST(Types.ROW([Types.INT(), Types.STRING()])), [[(1,'a'), (2, 'b')]]),
 "LIST_TUPLE": (Types.LIST(Types.TUPLE([Types.INT(), Types.STRING()])), [[(1,'a')]]),
 "MAP_SI": (Types.MAP(Types.STRING(), Types.INT()), [{'a':1,'b':2,'c':3}, {}, {('key%d' % i): i for i in range(20)}, {'banana': 1, 'apple': 2, 'cherry': 3, 'date': 4}]),
 "MAP_IS": (Types.MAP(Types.INT(), Types.STRING()), [{1:'a', 17:'b', 33:'c', 2:'d', -1: 'e', 100: 'f'}]),
 "MAP_LS": (Types.MAP(Types.LONG(), Types.STRING()), [{1:'a', 2**40:'b', -5:'c'}]),
 "MAP_SD": (Types.MAP(Types.STRING(), Types.DOUBLE()), [{'x': 1e10, 'y': 0.5}]),
 "MAP_BS": (Types.MAP(Types.BOOLEAN(), Types.STRING()), [{True: 't', False: 'f'}]),
 "MAP_DS": (Types.MAP(Types.DOUBLE(), Types.STRING()), [{1.5: 'a', 2.0: 'b', -3.25: 'c'}]),
 "PRIM_INT": (Types.PRIMITIVE_ARRAY(Types.INT()), [[1,2]]),
 "PRIM_BYTE": (Types.PRIMITIVE_ARRAY(Types.BYTE()), [b'ab']),
 "PRIM_DOUBLE": (Types.PRIMITIVE_ARRAY(Types.DOUBLE()), [[1.0, 2.5]]),
 "BASIC_STR": (Types.BASIC_ARRAY(Types.STRING()), [['a','b']]),
 "BASIC_INT": (Types.BASIC_ARRAY(Types.INT()), [[1, 2]]),
 "OBJ_STR": (Types.OBJECT_ARRAY(Types.STRING()), [['a']]),
 "OBJ_ROW": (Types.OBJECT_ARRAY(Types.ROW([Types.INT()])), [[(1,), (2,)]]),
 "PICKLED": (Types.PICKLED_BYTE_ARRAY(), [(1,'a'), Row(1,'a'), Row(a=1), [1,2], {'a':1}, 1.0, 1e10, True, 'str', Decimal('1.5'), D.date(2020,1,2), 7]),

 "ROWR": (Types.ROW([Types.INT(), Types.STRING()]), [Row(1,'a'), Row.of_kind(RowKind.UPDATE_BEFORE,3,'c'), Row(5,None), Row(f1='z', f0=9)]),
 "ROWR_OTHERNAMES": (Types.ROW([Types.INT(), Types.STRING()]), [Row(x=1, y='b')]),
 "ROWR_NAMED": (Types.ROW_NAMED(['x','y'],[Types.INT(),Types.STRING()]), [Row(1,'a'), Row(x=2,y='b'), Row(y='c',x=3), Row.of_kind(RowKind.DELETE, 4, 'd')]),
 "ROWR_NESTED": (Types.ROW([Types.INT(), Types.ROW([Types.STRING(), Types.DOUBLE()])]), [Row(1, Row('a', 1.0)), Row(3, None)]),
 "ROWR_NESTED_TUPLE": (Types.ROW([Types.INT(), Types.ROW([Types.STRING(), Types.DOUBLE()])]), [Row(2, ('b', 1e10))]),
 "ROWR_MIX": (Types.ROW([Types.DOUBLE(),Types.BOOLEAN(),Types.LIST(Types.INT()),Types.MAP(Types.STRING(),Types.INT()),Types.SQL_DATE(),Types.FLOAT(),Types.PRIMITIVE_ARRAY(Types.INT()),Types.BIG_DEC(),Types.TUPLE([Types.INT(),Types.STRING()]), Types.STRING(), Types.SQL_TIMESTAMP(), Types.INSTANT(), Types.MAP(Types.INT(), Types.STRING()), Types.BASIC_ARRAY(Types.STRING()), Types.LONG()]),
     [Row(1e10, True, [1,2], {'a':1}, D.date(2020,1,2), 0.1, [3,4], Decimal('1.50'), (7,'z'), None, D.datetime(2020,1,2,3,4,5,123456), Instant.of_epoch_milli(1500), {4:'a', 1:'b'}, ['p', 'q'], 2**40)]),
 "ROWR_FLOATS": (Types.ROW([Types.DOUBLE(), Types.FLOAT(), Types.BOOLEAN(), Types.STRING()]), [Row(1e10, 0.1, False, 'x'), Row(float('nan'), float('inf'), True, '')]),
 "ROWR_LISTROW": (Types.ROW([Types.LIST(Types.ROW([Types.INT()]))]), [Row([Row(1), Row(2)])]),
 "TUPLE2": (Types.TUPLE([Types.INT(), Types.STRING()]), [(1,'a')]),
 "TUPLE_ROWV": (Types.TUPLE([Types.INT(), Types.STRING()]), [Row(3,'c')]),
 "TUPLE_LISTV": (Types.TUPLE([Types.INT(), Types.STRING()]), [[2,'b']]),
 "TUPLE_MIX2": (Types.TUPLE([Types.LIST(Types.INT()), Types.PRIMITIVE_ARRAY(Types.INT()), Types.BOOLEAN(), Types.DOUBLE(), Types.ROW([Types.INT()]), Types.MAP(Types.STRING(),Types.INT()), Types.FLOAT(), Types.SQL_TIMESTAMP(), Types.INSTANT(), Types.BIG_DEC(), Types.SQL_DATE(), Types.SQL_TIME(), Types.LIST(Types.STRING()), Types.BASIC_ARRAY(Types.INT()), Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.STRING()])]),
     [([1,2],[3,4],True,1e10,Row(5),{'k':1},0.1, D.datetime(2020,1,2,3,4,5,120000), Instant.of_epoch_milli(1500), Decimal('1E+3'), D.date(2020,1,2), D.time(1,2,3), ['x', 'y'], [1, 2], Row(1, 'n'))]),
 "TUPLE_NONE": (Types.TUPLE([Types.INT(), Types.STRING()]), [(1, None)]),
 "LIST_ROWR": (Types.LIST(Types.ROW([Types.INT(), Types.STRING()])), [[Row(1,'a'), Row(2,'b')]]),
 "LIST_NONE": (Types.LIST(Types.INT()), [[1, None]]),
 "OBJ_ROWR": (Types.OBJECT_ARRAY(Types.ROW([Types.INT()])), [[Row(1), Row(2)]]),
 "OBJ_TUPLE": (Types.OBJECT_ARRAY(Types.TUPLE([Types.INT()])), [[(1,)]]),
 "BIG_INT_SMALL": (Types.BIG_INT(), [-7, 5, 2**62]),
 "CHAR": (Types.CHAR(), ['a']),
 "STRING_NONE": (Types.STRING(), [None]),
 "INT_NONE": (Types.INT(), [None]),
 "DOUBLE_INT": (Types.DOUBLE(), [3]),
 "FLOAT_INT": (Types.FLOAT(), [3]),
 "INT_FLOAT": (Types.INT(), [3.7]),
 "INT_OVERFLOW": (Types.INT(), [2**31]),
 "INT_BOOL": (Types.INT(), [True]),
 "STRING_INT": (Types.STRING(), [5]),
 "MAP_NONEV": (Types.MAP(Types.STRING(), Types.INT()), [{'a': None}]),
 "MAP_ROWV": (Types.MAP(Types.STRING(), Types.ROW([Types.INT()])), [{'a': Row(1)}]),
 "MAP_COLL": (Types.MAP(Types.STRING(), Types.INT()), [{'Aa':1, 'BB':2}, {'BB':2, 'Aa':1}]),
 "MAP_CAP": (Types.MAP(Types.INT(), Types.STRING()), [{4:'a', 1:'b', 8:'c'}, {4:'a', 1:'b'}, {1: 'x'}, {16: 'a', 1: 'b', 0: 'c', 32: 'd', 5: 'e', 21: 'f', 64: 'g'}]),
 "MAP_LISTV": (Types.MAP(Types.STRING(), Types.LIST(Types.DOUBLE())), [{'a': [1.0, 1e10]}]),
 "MAP_UNICODE": (Types.MAP(Types.STRING(), Types.INT()), [{'é': 1, '日本': 2, 'a': 3, '😀': 4}]),
 "MAP_LONGK": (Types.MAP(Types.LONG(), Types.INT()), [{2**33: 1, 1: 2, -2**40: 3, 2**32+1: 4}]),
 "MAP_DK": (Types.MAP(Types.DOUBLE(), Types.INT()), [{0.1: 1, -0.0: 2, 0.0: 3, 1e10: 4, float('nan'): 5}]),
 "MAP_FK": (Types.MAP(Types.FLOAT(), Types.INT()), [{0.1: 1, 2.5: 2, -1.0: 3}]),
 "MAP_SHORTK": (Types.MAP(Types.SHORT(), Types.INT()), [{-1: 1, 3: 2, 19: 3}]),
 "LIST_MAP": (Types.LIST(Types.MAP(Types.STRING(), Types.INT())), [[{'b': 1, 'a': 2}]]),
 "LIST_FLOAT": (Types.LIST(Types.FLOAT()), [[0.1, 1e10]]),
 "LIST_LIST": (Types.LIST(Types.LIST(Types.STRING())), [[['a'], []]]),
 "LIST_ARR": (Types.LIST(Types.PRIMITIVE_ARRAY(Types.INT())), [[[1]]]),
 "PRIM_BOOL": (Types.PRIMITIVE_ARRAY(Types.BOOLEAN()), [[True]]),
 "PRIM_LONG": (Types.PRIMITIVE_ARRAY(Types.LONG()), [[1]]),
 "PRIM_FLOAT": (Types.PRIMITIVE_ARRAY(Types.FLOAT()), [[0.1]]),
 "PRIM_SHORT": (Types.PRIMITIVE_ARRAY(Types.SHORT()), [[1]]),
 "PRIM_CHAR": (Types.PRIMITIVE_ARRAY(Types.CHAR()), [['a']]),
 "BASIC_DOUBLE": (Types.BASIC_ARRAY(Types.DOUBLE()), [[0.5]]),
 "BASIC_FLOAT": (Types.BASIC_ARRAY(Types.FLOAT()), [[0.1]]),
 "BASIC_LONG": (Types.BASIC_ARRAY(Types.LONG()), [[1]]),
 "BASIC_BOOL": (Types.BASIC_ARRAY(Types.BOOLEAN()), [[True]]),
 "BASIC_BYTE": (Types.BASIC_ARRAY(Types.BYTE()), [[1]]),
 "BASIC_SHORT": (Types.BASIC_ARRAY(Types.SHORT()), [[1]]),
 "BASIC_CHAR": (Types.BASIC_ARRAY(Types.CHAR()), [['a']]),
 "OBJ_LIST": (Types.OBJECT_ARRAY(Types.LIST(Types.INT())), [[[1]]]),
 "OBJ_INT": (Types.OBJECT_ARRAY(Types.INT()), [[1, None]]),
 "OBJ_DATE": (Types.OBJECT_ARRAY(Types.SQL_DATE()), [[D.date(2020,1,1)]]),
 "OBJ_MAP": (Types.OBJECT_ARRAY(Types.MAP(Types.STRING(), Types.INT())), [[{'a': 1}]]),
 "PICKLED_MORE": (Types.PICKLED_BYTE_ARRAY(), [None, b'ab', Row.of_kind(RowKind.DELETE, 1), float('nan'), (1.0, [Row(a=1)])]),
 "DATE_DT": (Types.SQL_DATE(), [D.datetime(2020,1,2,3,4)]),
 "TS_TZ": (Types.SQL_TIMESTAMP(), [D.datetime(2020,1,2,3,4,5, tzinfo=D.timezone.utc)]),
 "TS_OLD": (Types.SQL_TIMESTAMP(), [D.datetime(1960,1,2,3,4,5,1000), D.datetime(2020,1,2,3,4,5,999)]),
 "TIME_MICRO": (Types.SQL_TIME(), [D.time(0,0,0,999), D.time(12, 0)]),
 "INSTANT_NEG": (Types.INSTANT(), [Instant.of_epoch_milli(-1500), Instant(5, 123456789)]),

 "N_BOOLEAN": (Types.BOOLEAN(), [None]),
 "N_LONG": (Types.LONG(), [None]),
 "N_DOUBLE": (Types.DOUBLE(), [None]),
 "N_FLOAT": (Types.FLOAT(), [None]),
 "N_BIG_DEC": (Types.BIG_DEC(), [None]),
 "N_INSTANT": (Types.INSTANT(), [None]),
 "N_SQL_DATE": (Types.SQL_DATE(), [None]),
 "N_SQL_TIME": (Types.SQL_TIME(), [None]),
 "N_SQL_TIMESTAMP": (Types.SQL_TIMESTAMP(), [None]),
 "N_ROW": (Types.ROW([Types.INT()]), [None]),
 "N_TUPLE": (Types.TUPLE([Types.INT()]), [None]),
 "N_LIST": (Types.LIST(Types.INT()), [None]),
 "N_MAP": (Types.MAP(Types.STRING(), Types.INT()), [None]),
 "N_PRIM_INT": (Types.PRIMITIVE_ARRAY(Types.INT()), [None]),
 "N_PRIM_BYTE": (Types.PRIMITIVE_ARRAY(Types.BYTE()), [None]),
 "N_BASIC_STR": (Types.BASIC_ARRAY(Types.STRING()), [None]),
 "N_OBJ_STR": (Types.OBJECT_ARRAY(Types.STRING()), [None]),
 "PICKLED_NONE": (Types.PICKLED_BYTE_ARRAY(), [None]),
 "PICKLED_BYTES": (Types.PICKLED_BYTE_ARRAY(), [b'ab']),
 "LIST_STR_NONE": (Types.LIST(Types.STRING()), [['a', None]]),
 "LIST_ROW_NONE": (Types.LIST(Types.ROW([Types.INT()])), [[Row(1), None]]),
 "BASIC_INT_NONE": (Types.BASIC_ARRAY(Types.INT()), [[1, None]]),
 "BASIC_STR_NONE": (Types.BASIC_ARRAY(Types.STRING()), [['a', None]]),
 "PRIM_INT_NONE": (Types.PRIMITIVE_ARRAY(Types.INT()), [[1, None]]),
 "OBJ_STR_NONE": (Types.OBJECT_ARRAY(Types.STRING()), [['a', None]]),
 "MAP_NONEK": (Types.MAP(Types.STRING(), Types.INT()), [{None: 1}]),
 "TUPLE_INT_NONE": (Types.TUPLE([Types.INT(), Types.INT()]), [(1, None)]),
 "ROW_LEN_SHORT": (Types.ROW([Types.INT(), Types.INT()]), [Row(1)]),
 "ROW_LEN_LONG": (Types.ROW([Types.INT()]), [Row(1, 2)]),
 "TUPLE_LEN_SHORT": (Types.TUPLE([Types.INT(), Types.INT()]), [(1,)]),
 "TUPLE_LEN_LONG": (Types.TUPLE([Types.INT()]), [(1, 2)]),
 "LIST_TUPLEV": (Types.LIST(Types.INT()), [(1, 2)]),
 "PRIM_TUPLEV": (Types.PRIMITIVE_ARRAY(Types.INT()), [(1, 2)]),
 "BOOL_INT": (Types.BOOLEAN(), [5, 0]),
 "DOUBLE_STR": (Types.DOUBLE(), ['1.5']),
 "BIG_DEC_FLOAT": (Types.BIG_DEC(), [1.5, 3]),
 "LONG_BIG": (Types.LONG(), [2**63]),
 "BYTE_BIG": (Types.BYTE(), [200]),
 "SHORT_BIG": (Types.SHORT(), [40000]),
 "FLOAT_BIG": (Types.FLOAT(), [1e39]),
 "STRING_ROWNONE": (Types.ROW([Types.STRING(), Types.DOUBLE(), Types.SQL_TIMESTAMP()]), [Row(None, None, None)]),
 "TS_OLD2": (Types.SQL_TIMESTAMP(), [D.datetime(1960,1,2,3,4,5,999), D.datetime(1960,1,2,3,4,5)]),
 "ROW_IN_ROW_NAMED": (Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.ROW_NAMED(['c'], [Types.STRING()])]), [Row(b=Row(c='x'), a=1)]),
}
def describe(v):
    extra = ''
    if isinstance(v, Row):
        extra = '|fields=%r|kind=%s' % (getattr(v, '_fields', None), v.get_row_kind())
    elif isinstance(v, (list, tuple)):
        extra = '|elems=' + ','.join(type(e).__name__ + (('/' + str(getattr(e, '_fields', None))) if isinstance(e, Row) else '') for e in v)
    elif isinstance(v, dict):
        extra = '|items=' + ','.join(type(k).__name__ + ':' + type(e).__name__ for k, e in v.items())
    return '%s|%r%s' % (type(v).__name__, v, extra)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
args = sys.argv[1:] or list(CASES)
for spec in args:
    name, _, vs = spec.partition(":")
    vs = vs.split(",") if vs else [None]
    t, vals = CASES[name]
    for vsel in vs:
        def want(v): return vsel is None or vsel == v
        src = env.from_collection(vals)
        m = src.map(lambda x: x) if name.startswith("PICKLED") else src.map(lambda x: x, output_type=t)
        if want("P"): m.print("P:" + name)
        if want("C"): m.map(describe, output_type=Types.STRING()).print("C:" + name)
        if want("N"): m.rebalance().map(describe, output_type=Types.STRING()).print("N:" + name)
        if not name.startswith("PICKLED") and (want("S") or want("SC")):
            try:
                s2 = env.from_collection(vals, type_info=t)
                if want("S"): s2.print("S:" + name)
                if want("SC"): s2.map(describe, output_type=Types.STRING()).print("SC:" + name)
            except Exception as e:
                print("S:%s> SOURCE-ERROR %s" % (name, str(e)[:150].replace("\n", " ")), flush=True)
        try:
            env.execute("probe-" + name)
        except Exception as e:
            s = str(e)
            py = re.findall(r"\n(\w+Error: [^\n]*)", s)
            print("%s:%s> JOB-ERROR %s" % (vsel, name, py[-1] if py else s[:200].replace("\n", " ")), flush=True)
        sys.stdout.flush()
