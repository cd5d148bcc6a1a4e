"""TypeInformation._to_java_string and ._from_python against real PyFlink 1.20 (Java 17).

Every expected value below was printed by real PyFlink, with the probes in tests/reference/:

* PRINTED: ``env.from_collection(values).map(lambda x: x, output_type=T).print()``: the line
  written by the print sink. For Row types PyFlink formats in Python and the map is chained
  to that formatter, so the row's fields are printed as the map produced them.
* RECEIVED: ``....map(lambda x: x, output_type=T).rebalance().map(describe)``: what the next
  Python operator receives after the value crossed the JVM (``_from_python``). Between
  *chained* Python operators PyFlink passes the object unchanged.
"""
import datetime as D
import math
import re
from decimal import Decimal

import pytest

from pyflink_on_spark.common import Instant, Row, RowKind, Types

inf, nan = float('inf'), float('nan')

ROW_IS = Types.ROW([Types.INT(), Types.STRING()])
ROW_MIX_9 = Types.ROW([Types.DOUBLE(), Types.BOOLEAN(), Types.LIST(Types.INT()),
                       Types.MAP(Types.STRING(), Types.INT()), Types.SQL_DATE(), Types.FLOAT(),
                       Types.PRIMITIVE_ARRAY(Types.INT()), Types.BIG_DEC(),
                       Types.TUPLE([Types.INT(), Types.STRING()])])
ROW_MIX_15 = Types.ROW([Types.DOUBLE(), Types.BOOLEAN(), Types.LIST(Types.INT()),
                        Types.MAP(Types.STRING(), Types.INT()), Types.SQL_DATE(), Types.FLOAT(),
                        Types.PRIMITIVE_ARRAY(Types.INT()), Types.BIG_DEC(),
                        Types.TUPLE([Types.INT(), Types.STRING()]), Types.STRING(),
                        Types.SQL_TIMESTAMP(), Types.INSTANT(),
                        Types.MAP(Types.INT(), Types.STRING()), Types.BASIC_ARRAY(Types.STRING()),
                        Types.LONG()])
ROW_MIX_15_VALUE = (1e10, True, [1, 2], {'a': 1}, D.date(2020, 1, 2), 0.1, [3, 4],
                    Decimal('1.50'), (7, 'z'), None, D.datetime(2020, 1, 2, 3, 4, 5, 123456),
                    Instant.of_epoch_milli(1500), {4: 'a', 1: 'b'}, ['p', 'q'], 2 ** 40)
TUPLE_MIX = Types.TUPLE([Types.LIST(Types.INT()), Types.PRIMITIVE_ARRAY(Types.INT()),
                         Types.BOOLEAN(), Types.DOUBLE(), Types.ROW([Types.INT()]),
                         Types.MAP(Types.STRING(), Types.INT()), Types.FLOAT(),
                         Types.SQL_TIMESTAMP(), Types.INSTANT(), Types.BIG_DEC(),
                         Types.SQL_DATE(), Types.SQL_TIME(), Types.LIST(Types.STRING()),
                         Types.BASIC_ARRAY(Types.INT()),
                         Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.STRING()])])
TUPLE_MIX_VALUE = ([1, 2], [3, 4], True, 1e10, Row(5), {'k': 1}, 0.1,
                   D.datetime(2020, 1, 2, 3, 4, 5, 120000), Instant.of_epoch_milli(1500),
                   Decimal('1E+3'), D.date(2020, 1, 2), D.time(1, 2, 3), ['x', 'y'], [1, 2],
                   Row(1, 'n'))
TWENTY_KEYS = {('key%d' % i): i for i in range(20)}

# (declared type, value emitted by the map, line printed by real PyFlink)
PRINTED = [
    (Types.STRING(), "a", "a"),
    (Types.STRING(), "", ""),
    (Types.STRING(), "héllo", "héllo"),
    (Types.INT(), -5, "-5"),
    (Types.INT(), 3.7, "3"),
    (Types.INT(), True, "1"),
    (Types.LONG(), 2 ** 40, "1099511627776"),
    (Types.SHORT(), 7, "7"),
    (Types.BYTE(), -3, "-3"),
    (Types.BOOLEAN(), True, "true"),
    (Types.BOOLEAN(), False, "false"),
    (Types.FLOAT(), 1.0, "1.0"),
    (Types.FLOAT(), 1.5, "1.5"),
    (Types.FLOAT(), 0.1, "0.1"),
    (Types.FLOAT(), 1e10, "1.0E10"),
    (Types.FLOAT(), 123456789.0, "1.23456792E8"),
    (Types.FLOAT(), 1e-5, "1.0E-5"),
    (Types.FLOAT(), inf, "Infinity"),
    (Types.FLOAT(), nan, "NaN"),
    (Types.FLOAT(), -0.0, "-0.0"),
    (Types.FLOAT(), 3.4e38, "3.4E38"),
    (Types.FLOAT(), 1e7, "1.0E7"),
    (Types.FLOAT(), 1e-3, "0.001"),
    (Types.FLOAT(), 0.001234, "0.001234"),
    (Types.FLOAT(), 16777217.0, "1.6777216E7"),
    (Types.FLOAT(), 3, "3.0"),
    (Types.DOUBLE(), 1.0, "1.0"),
    (Types.DOUBLE(), 0.1, "0.1"),
    (Types.DOUBLE(), 1e10, "1.0E10"),
    (Types.DOUBLE(), 1e7, "1.0E7"),
    (Types.DOUBLE(), 9999999.0, "9999999.0"),
    (Types.DOUBLE(), 1e-3, "0.001"),
    (Types.DOUBLE(), 1e-4, "1.0E-4"),
    (Types.DOUBLE(), 1 / 3, "0.3333333333333333"),
    (Types.DOUBLE(), 2.0 ** 53, "9.007199254740992E15"),
    (Types.DOUBLE(), 1e21, "1.0E21"),
    (Types.DOUBLE(), 1e22, "1.0E22"),
    (Types.DOUBLE(), 1e23, "9.999999999999999E22"),  # Java 8-17's Double.toString
    (Types.DOUBLE(), 123.456, "123.456"),
    (Types.DOUBLE(), -0.0, "-0.0"),
    (Types.DOUBLE(), inf, "Infinity"),
    (Types.DOUBLE(), -inf, "-Infinity"),
    (Types.DOUBLE(), nan, "NaN"),
    (Types.DOUBLE(), 1e100, "1.0E100"),
    (Types.DOUBLE(), 5e-324, "4.9E-324"),
    (Types.DOUBLE(), 100.0, "100.0"),
    (Types.DOUBLE(), 2e-3, "0.002"),
    (Types.DOUBLE(), 4.35, "4.35"),
    (Types.DOUBLE(), 3, "3.0"),
    (Types.BIG_DEC(), Decimal('1.50'), "1.50"),
    (Types.BIG_DEC(), Decimal('1E+3'), "1E+3"),
    (Types.BIG_DEC(), Decimal('0.000001'), "0.000001"),
    (Types.BIG_DEC(), Decimal('1E-7'), "1E-7"),
    (Types.BIG_DEC(), Decimal('-12.3400'), "-12.3400"),
    (Types.BIG_DEC(), Decimal('123456789012345678901234567890.123'),
     "123456789012345678901234567890.123"),
    (Types.INSTANT(), Instant.of_epoch_milli(1000), "1970-01-01T00:00:01Z"),
    (Types.INSTANT(), Instant.of_epoch_milli(1500), "1970-01-01T00:00:01.500Z"),
    (Types.INSTANT(), Instant.of_epoch_milli(0), "1970-01-01T00:00:00Z"),
    (Types.INSTANT(), Instant.of_epoch_milli(1700000000123), "2023-11-14T22:13:20.123Z"),
    (Types.INSTANT(), Instant.of_epoch_milli(-1500), "1969-12-31T23:59:58.500Z"),
    (Types.INSTANT(), Instant(5, 123456789), "1970-01-01T00:00:05.123456789Z"),
    (Types.SQL_DATE(), D.date(2020, 1, 2), "2020-01-02"),
    (Types.SQL_DATE(), D.date(1969, 12, 31), "1969-12-31"),
    (Types.SQL_DATE(), D.datetime(2020, 1, 2, 3, 4), "2020-01-02"),
    (Types.SQL_TIME(), D.time(1, 2, 3), "01:02:03"),
    (Types.SQL_TIME(), D.time(23, 59, 59, 123456), "23:59:59"),
    (Types.SQL_TIME(), D.time(0, 0, 0, 999), "00:00:00"),
    (Types.SQL_TIME(), D.time(12, 0), "12:00:00"),
    (Types.SQL_TIMESTAMP(), D.datetime(2020, 1, 2, 3, 4, 5), "2020-01-02 03:04:05.0"),
    (Types.SQL_TIMESTAMP(), D.datetime(2020, 1, 2, 3, 4, 5, 123456), "2020-01-02 03:04:05.123"),
    (Types.SQL_TIMESTAMP(), D.datetime(2020, 1, 2, 3, 4, 5, 120000), "2020-01-02 03:04:05.12"),
    (Types.SQL_TIMESTAMP(), D.datetime(2020, 1, 2, 3, 4, 5, 999), "2020-01-02 03:04:05.0"),
    (Types.SQL_TIMESTAMP(), D.datetime(2020, 1, 2, 3, 4, 5, tzinfo=D.timezone.utc),
     "2020-01-02 03:04:05.0"),
    (Types.SQL_TIMESTAMP(), D.datetime(1960, 1, 2, 3, 4, 5, 1000), "1960-01-02 03:04:06.001"),
    (Types.SQL_TIMESTAMP(), D.datetime(1960, 1, 2, 3, 4, 5, 999), "1960-01-02 03:04:06.0"),
    (Types.BOOLEAN(), 5, "true"),
    (Types.BIG_DEC(), 1.5, "1.5"),
    (Types.BIG_DEC(), 3, "3"),
    (Types.ROW([Types.STRING(), Types.DOUBLE(), Types.SQL_TIMESTAMP()]), Row(None, None, None),
     "+I[None,None,None]"),
    (Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.ROW_NAMED(['c'], [Types.STRING()])]),
     Row(b=Row(c='x'), a=1), "+I[Row(c='x'),1]"),
    # Row streams: formatted by PyFlink in Python from the fields as emitted
    (ROW_IS, Row(1, 'a'), "+I[1,a]"),
    (ROW_IS, Row.of_kind(RowKind.UPDATE_BEFORE, 3, 'c'), "-U[3,c]"),
    (ROW_IS, Row(5, None), "+I[5,None]"),
    (ROW_IS, Row(f1='z', f0=9), "+I[z,9]"),
    (ROW_IS, Row(x=1, y='b'), "+I[1,b]"),
    (Types.ROW_NAMED(['x', 'y'], [Types.INT(), Types.STRING()]),
     Row.of_kind(RowKind.DELETE, 4, 'd'), "-D[4,d]"),
    (Types.ROW_NAMED(['x', 'y'], [Types.INT(), Types.STRING()]), Row(y='c', x=3), "+I[c,3]"),
    (Types.ROW([Types.DOUBLE(), Types.FLOAT(), Types.BOOLEAN(), Types.STRING()]),
     Row(1e10, 0.1, False, 'x'), "+I[10000000000.0,0.1,False,x]"),
    (Types.ROW([Types.DOUBLE(), Types.FLOAT(), Types.BOOLEAN(), Types.STRING()]),
     Row(nan, inf, True, ''), "+I[nan,inf,True,]"),
    (Types.ROW([Types.INT(), Types.ROW([Types.STRING(), Types.DOUBLE()])]),
     Row(1, Row('a', 1.0)), "+I[1,<Row('a', 1.0)>]"),
    (Types.ROW([Types.LIST(Types.ROW([Types.INT()]))]), Row([Row(1), Row(2)]),
     "+I[[<Row(1)>, <Row(2)>]]"),
    (ROW_MIX_15, Row(*ROW_MIX_15_VALUE),
     "+I[10000000000.0,True,[1, 2],{'a': 1},2020-01-02,0.1,[3, 4],1.50,(7, 'z'),None,"
     "2020-01-02 03:04:05.123456,Instant<1, 500000000>,{4: 'a', 1: 'b'},['p', 'q'],"
     "1099511627776]"),
    # tuples, lists, maps: Java's toString
    (Types.TUPLE([Types.INT(), Types.STRING()]), (1, 'a'), "(1,a)"),
    (Types.TUPLE([Types.INT(), Types.TUPLE([Types.STRING(), Types.DOUBLE()])]),
     (1, ('a', 1e10)), "(1,(a,1.0E10))"),
    (TUPLE_MIX, TUPLE_MIX_VALUE,
     "([1, 2],[3, 4],true,1.0E10,+I[5],{k=1},0.1,2020-01-02 03:04:05.12,"
     "1970-01-01T00:00:01.500Z,1E+3,2020-01-02,01:02:03,[x, y],[1, 2],+I[1, n])"),
    (Types.LIST(Types.INT()), [1, 2, 3], "[1, 2, 3]"),
    (Types.LIST(Types.INT()), [], "[]"),
    (Types.LIST(Types.STRING()), ['a', 'b'], "[a, b]"),
    (Types.LIST(Types.DOUBLE()), [1.0, 1e10], "[1.0, 1.0E10]"),
    (Types.LIST(Types.FLOAT()), [0.1, 1e10], "[0.1, 1.0E10]"),
    (Types.LIST(Types.TUPLE([Types.INT(), Types.STRING()])), [(1, 'a')], "[(1,a)]"),
    (Types.LIST(ROW_IS), [Row(1, 'a'), Row(2, 'b')], "[+I[1, a], +I[2, b]]"),
    (Types.LIST(Types.MAP(Types.STRING(), Types.INT())), [{'b': 1, 'a': 2}], "[{a=2, b=1}]"),
    (Types.LIST(Types.LIST(Types.STRING())), [['a'], []], "[[a], []]"),
    (Types.MAP(Types.STRING(), Types.INT()), {'a': 1, 'b': 2, 'c': 3}, "{a=1, b=2, c=3}"),
    (Types.MAP(Types.STRING(), Types.INT()), {}, "{}"),
    (Types.MAP(Types.STRING(), Types.INT()), TWENTY_KEYS,
     "{key1=1, key2=2, key0=0, key5=5, key6=6, key3=3, key4=4, key9=9, key7=7, key8=8, "
     "key11=11, key10=10, key15=15, key14=14, key13=13, key12=12, key19=19, key18=18, "
     "key17=17, key16=16}"),
    (Types.MAP(Types.STRING(), Types.INT()), {'banana': 1, 'apple': 2, 'cherry': 3, 'date': 4},
     "{banana=1, date=4, apple=2, cherry=3}"),
    (Types.MAP(Types.STRING(), Types.INT()), {'Aa': 1, 'BB': 2}, "{Aa=1, BB=2}"),
    (Types.MAP(Types.STRING(), Types.INT()), {'BB': 2, 'Aa': 1}, "{BB=2, Aa=1}"),
    (Types.MAP(Types.STRING(), Types.INT()), {'é': 1, '日本': 2, 'a': 3, '\U0001F600': 4},
     "{\U0001F600=4, é=1, a=3, 日本=2}"),
    (Types.MAP(Types.STRING(), Types.INT()), {'a': None}, "{a=null}"),
    (Types.MAP(Types.INT(), Types.STRING()), {1: 'a', 17: 'b', 33: 'c', 2: 'd', -1: 'e', 100: 'f'},
     "{-1=e, 1=a, 17=b, 33=c, 2=d, 100=f}"),
    (Types.MAP(Types.INT(), Types.STRING()), {4: 'a', 1: 'b', 8: 'c'}, "{4=a, 8=c, 1=b}"),
    (Types.MAP(Types.INT(), Types.STRING()), {4: 'a', 1: 'b'}, "{4=a, 1=b}"),
    (Types.MAP(Types.INT(), Types.STRING()), {1: 'x'}, "{1=x}"),
    (Types.MAP(Types.INT(), Types.STRING()),
     {16: 'a', 1: 'b', 0: 'c', 32: 'd', 5: 'e', 21: 'f', 64: 'g'},
     "{16=a, 0=c, 32=d, 64=g, 1=b, 5=e, 21=f}"),
    (Types.MAP(Types.LONG(), Types.STRING()), {1: 'a', 2 ** 40: 'b', -5: 'c'},
     "{1099511627776=b, -5=c, 1=a}"),
    (Types.MAP(Types.LONG(), Types.INT()), {2 ** 33: 1, 1: 2, -2 ** 40: 3, 2 ** 32 + 1: 4},
     "{4294967297=4, 1=2, 8589934592=1, -1099511627776=3}"),
    (Types.MAP(Types.SHORT(), Types.INT()), {-1: 1, 3: 2, 19: 3}, "{-1=1, 3=2, 19=3}"),
    (Types.MAP(Types.STRING(), Types.DOUBLE()), {'x': 1e10, 'y': 0.5}, "{x=1.0E10, y=0.5}"),
    (Types.MAP(Types.BOOLEAN(), Types.STRING()), {True: 't', False: 'f'}, "{false=f, true=t}"),
    (Types.MAP(Types.DOUBLE(), Types.STRING()), {1.5: 'a', 2.0: 'b', -3.25: 'c'},
     "{1.5=a, 2.0=b, -3.25=c}"),
    (Types.MAP(Types.DOUBLE(), Types.INT()), {0.1: 1, -0.0: 2, 0.0: 3, 1e10: 4, nan: 5},
     "{-0.0=3, NaN=5, 0.1=1, 1.0E10=4}"),
    (Types.MAP(Types.FLOAT(), Types.INT()), {0.1: 1, 2.5: 2, -1.0: 3}, "{2.5=2, -1.0=3, 0.1=1}"),
    (Types.MAP(Types.STRING(), Types.ROW([Types.INT()])), {'a': Row(1)}, "{a=+I[1]}"),
    (Types.MAP(Types.STRING(), Types.LIST(Types.DOUBLE())), {'a': [1.0, 1e10]},
     "{a=[1.0, 1.0E10]}"),
    # no declared type: PyFlink prints str(value)
    (Types.PICKLED_BYTE_ARRAY(), (1, 'a'), "(1, 'a')"),
    (Types.PICKLED_BYTE_ARRAY(), Row(1, 'a'), "<Row(1, 'a')>"),
    (Types.PICKLED_BYTE_ARRAY(), Row(a=1), "Row(a=1)"),
    (Types.PICKLED_BYTE_ARRAY(), [1, 2], "[1, 2]"),
    (Types.PICKLED_BYTE_ARRAY(), {'a': 1}, "{'a': 1}"),
    (Types.PICKLED_BYTE_ARRAY(), 1.0, "1.0"),
    (Types.PICKLED_BYTE_ARRAY(), 1e10, "10000000000.0"),
    (Types.PICKLED_BYTE_ARRAY(), True, "True"),
    (Types.PICKLED_BYTE_ARRAY(), 'str', "str"),
    (Types.PICKLED_BYTE_ARRAY(), Decimal('1.5'), "1.5"),
    (Types.PICKLED_BYTE_ARRAY(), D.date(2020, 1, 2), "2020-01-02"),
    (Types.PICKLED_BYTE_ARRAY(), 7, "7"),
    (Types.PICKLED_BYTE_ARRAY(), None, "None"),
]


@pytest.mark.parametrize("type_info,value,expected", PRINTED,
                         ids=["%r:%r" % (t, v) for t, v, _ in PRINTED])
def test_printed_like_pyflink(type_info, value, expected):
    assert type_info._to_java_string(value) == expected


# Java arrays print as <class>@<identity hash>; the hash differs per run, the class does not
PRINTED_ARRAYS = [
    (Types.PRIMITIVE_ARRAY(Types.INT()), [1, 2], "[I"),
    (Types.PRIMITIVE_ARRAY(Types.BYTE()), b'ab', "[B"),
    (Types.PRIMITIVE_ARRAY(Types.DOUBLE()), [1.0, 2.5], "[D"),
    (Types.PRIMITIVE_ARRAY(Types.BOOLEAN()), [True], "[Z"),
    (Types.PRIMITIVE_ARRAY(Types.LONG()), [1], "[J"),
    (Types.PRIMITIVE_ARRAY(Types.FLOAT()), [0.1], "[F"),
    (Types.PRIMITIVE_ARRAY(Types.SHORT()), [1], "[S"),
    (Types.PRIMITIVE_ARRAY(Types.CHAR()), ['a'], "[C"),
    (Types.BASIC_ARRAY(Types.STRING()), ['a', 'b'], "[Ljava.lang.String;"),
    (Types.BASIC_ARRAY(Types.INT()), [1, 2], "[Ljava.lang.Integer;"),
    (Types.BASIC_ARRAY(Types.DOUBLE()), [0.5], "[Ljava.lang.Double;"),
    (Types.BASIC_ARRAY(Types.FLOAT()), [0.1], "[Ljava.lang.Float;"),
    (Types.BASIC_ARRAY(Types.LONG()), [1], "[Ljava.lang.Long;"),
    (Types.BASIC_ARRAY(Types.BOOLEAN()), [True], "[Ljava.lang.Boolean;"),
    (Types.BASIC_ARRAY(Types.BYTE()), [1], "[Ljava.lang.Byte;"),
    (Types.BASIC_ARRAY(Types.SHORT()), [1], "[Ljava.lang.Short;"),
    (Types.BASIC_ARRAY(Types.CHAR()), ['a'], "[Ljava.lang.Character;"),
    (Types.OBJECT_ARRAY(Types.STRING()), ['a'], "[Ljava.lang.String;"),
    (Types.OBJECT_ARRAY(Types.INT()), [1, None], "[Ljava.lang.Integer;"),
    (Types.OBJECT_ARRAY(Types.ROW([Types.INT()])), [Row(1), Row(2)],
     "[Lorg.apache.flink.types.Row;"),
    (Types.OBJECT_ARRAY(Types.TUPLE([Types.INT()])), [(1,)],
     "[Lorg.apache.flink.api.java.tuple.Tuple1;"),
    (Types.OBJECT_ARRAY(Types.LIST(Types.INT())), [[1]], "[Ljava.util.List;"),
    (Types.OBJECT_ARRAY(Types.MAP(Types.STRING(), Types.INT())), [{'a': 1}], "[Ljava.util.Map;"),
    (Types.OBJECT_ARRAY(Types.SQL_DATE()), [D.date(2020, 1, 1)], "[Ljava.sql.Date;"),
]


@pytest.mark.parametrize("type_info,value,java_class", PRINTED_ARRAYS,
                         ids=[repr(t) for t, _, _ in PRINTED_ARRAYS])
def test_arrays_print_class_and_identity_hash(type_info, value, java_class):
    text = type_info._to_java_string(value)
    assert re.fullmatch(re.escape(java_class) + r"@[0-9a-f]+", text), text
    assert type_info._to_java_string(value) == text  # deterministic in the shim


def test_array_inside_list_prints_identity_but_inside_tuple_prints_elements():
    # observed: LIST(PRIMITIVE_ARRAY(INT)) printed "[[I@2dda1797]"
    assert re.fullmatch(r"\[\[I@[0-9a-f]+\]",
                        Types.LIST(Types.PRIMITIVE_ARRAY(Types.INT()))._to_java_string([[1]]))
    assert Types.TUPLE([Types.PRIMITIVE_ARRAY(Types.INT())])._to_java_string(([3, 4],)) == \
        "([3, 4])"


# (declared type, value emitted, value the next (unchained) Python operator received)
RECEIVED = [
    (Types.INT(), 1, 1),
    (Types.INT(), 3.7, 3),
    (Types.INT(), True, 1),
    (Types.DOUBLE(), 3, 3.0),
    (Types.DOUBLE(), 1e10, 1e10),
    (Types.FLOAT(), 3, 3.0),
    (Types.FLOAT(), 0.1, 0.10000000149011612),
    (Types.FLOAT(), 123456789.0, 123456792.0),
    (Types.FLOAT(), 1e-5, 9.999999747378752e-06),
    (Types.FLOAT(), 3.4e38, 3.3999999521443642e+38),
    (Types.FLOAT(), 16777217.0, 16777216.0),
    (Types.FLOAT(), 1e39, inf),
    (Types.BOOLEAN(), 5, True),
    (Types.BOOLEAN(), 0, False),
    (Types.BIG_DEC(), 1.5, Decimal('1.5')),
    (Types.BIG_DEC(), 3, Decimal('3')),
    (Types.SQL_TIMESTAMP(), D.datetime(1960, 1, 2, 3, 4, 5, 999), D.datetime(1960, 1, 2, 3, 4, 6)),
    (Types.SQL_TIMESTAMP(), D.datetime(1960, 1, 2, 3, 4, 5), D.datetime(1960, 1, 2, 3, 4, 5)),
    (Types.TUPLE([Types.INT()]), (1, 2), (1,)),
    (Types.STRING(), None, None),
    (Types.BIG_DEC(), None, None),
    (Types.BIG_DEC(), Decimal('1.50'), Decimal('1.50')),
    (Types.INSTANT(), None, None),
    (Types.INSTANT(), Instant.of_epoch_milli(-1500), Instant(-2, 500000000)),
    (Types.INSTANT(), Instant(5, 123456789), Instant(5, 123456789)),
    (Types.SQL_DATE(), None, None),
    (Types.SQL_DATE(), D.datetime(2020, 1, 2, 3, 4), D.date(2020, 1, 2)),
    (Types.SQL_TIME(), None, None),
    (Types.SQL_TIME(), D.time(23, 59, 59, 123456), D.time(23, 59, 59, 123000)),
    (Types.SQL_TIME(), D.time(0, 0, 0, 999), D.time(0, 0)),
    (Types.SQL_TIMESTAMP(), D.datetime(2020, 1, 2, 3, 4, 5, 123456),
     D.datetime(2020, 1, 2, 3, 4, 5, 123000)),
    (Types.SQL_TIMESTAMP(), D.datetime(2020, 1, 2, 3, 4, 5, tzinfo=D.timezone.utc),
     D.datetime(2020, 1, 2, 3, 4, 5)),
    (Types.TUPLE([Types.INT(), Types.STRING()]), (1, 'a'), (1, 'a')),
    (Types.LIST(Types.FLOAT()), [0.1, 1e10], [0.10000000149011612, 1e10]),
    (Types.LIST(Types.LIST(Types.STRING())), [['a'], []], [['a'], []]),
    (Types.PRIMITIVE_ARRAY(Types.FLOAT()), [0.1], [0.10000000149011612]),
    (Types.PRIMITIVE_ARRAY(Types.BYTE()), b'ab', b'ab'),
    (Types.BASIC_ARRAY(Types.FLOAT()), [0.1], [0.10000000149011612]),
    (Types.OBJECT_ARRAY(Types.INT()), [1, None], [1, None]),
    (Types.BASIC_ARRAY(Types.INT()), [1, None], [1, None]),
    (Types.BASIC_ARRAY(Types.STRING()), ['a', None], ['a', None]),
    (Types.PICKLED_BYTE_ARRAY(), b'ab', b'ab'),
    (Types.OBJECT_ARRAY(Types.SQL_DATE()), [D.date(2020, 1, 1)], [D.date(2020, 1, 1)]),
    (Types.PICKLED_BYTE_ARRAY(), (1.0, [Row(a=1)]), (1.0, [Row(a=1)])),
]


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("type_info,value,expected", RECEIVED,
                         ids=["%r:%r" % (t, v) for t, v, _ in RECEIVED])
def test_received_like_pyflink(type_info, value, expected):
    got = type_info._from_python(value)
    assert _same(got, expected), (got, expected)
    if isinstance(expected, (list, tuple)):
        assert [type(e) for e in got] == [type(e) for e in expected]


def test_received_rows_get_the_declared_field_names():
    row = ROW_IS._from_python(Row(1, 'a'))
    assert repr(row) == "Row(f0=1, f1='a')" and row._fields == ['f0', 'f1']
    assert row.get_row_kind() is RowKind.INSERT
    ub = ROW_IS._from_python(Row.of_kind(RowKind.UPDATE_BEFORE, 3, 'c'))
    assert repr(ub) == "Row(f0=3, f1='c')" and ub.get_row_kind() is RowKind.UPDATE_BEFORE
    assert repr(ROW_IS._from_python(Row(5, None))) == "Row(f0=5, f1=None)"
    # named rows are reordered by the declared names
    assert repr(ROW_IS._from_python(Row(f1='z', f0=9))) == "Row(f0=9, f1='z')"
    named = Types.ROW_NAMED(['x', 'y'], [Types.INT(), Types.STRING()])
    assert repr(named._from_python(Row(1, 'a'))) == "Row(x=1, y='a')"
    assert repr(named._from_python(Row(y='c', x=3))) == "Row(x=3, y='c')"
    deleted = named._from_python(Row.of_kind(RowKind.DELETE, 4, 'd'))
    assert repr(deleted) == "Row(x=4, y='d')" and deleted.get_row_kind() is RowKind.DELETE
    nested = Types.ROW([Types.INT(), Types.ROW([Types.STRING(), Types.DOUBLE()])])
    assert repr(nested._from_python(Row(1, Row('a', 1.0)))) == \
        "Row(f0=1, f1=Row(f0='a', f1=1.0))"
    assert repr(nested._from_python(Row(3, None))) == "Row(f0=3, f1=None)"
    list_of_rows = Types.ROW([Types.LIST(Types.ROW([Types.INT()]))])
    assert repr(list_of_rows._from_python(Row([Row(1), Row(2)]))) == \
        "Row(f0=[Row(f0=1), Row(f0=2)])"
    # extra fields are dropped; None fields stay None
    assert repr(Types.ROW([Types.INT()])._from_python(Row(1, 2))) == "Row(f0=1)"
    assert repr(Types.ROW([Types.STRING(), Types.DOUBLE(), Types.SQL_TIMESTAMP()])._from_python(
        Row(None, None, None))) == "Row(f0=None, f1=None, f2=None)"
    in_named = Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.ROW_NAMED(['c'], [Types.STRING()])])
    assert repr(in_named._from_python(Row(b=Row(c='x'), a=1))) == "Row(a=1, b=Row(c='x'))"
    floats = Types.ROW([Types.DOUBLE(), Types.FLOAT(), Types.BOOLEAN(), Types.STRING()])
    assert repr(floats._from_python(Row(1e10, 0.1, False, 'x'))) == \
        "Row(f0=10000000000.0, f1=0.10000000149011612, f2=False, f3='x')"
    assert repr(Types.LIST(ROW_IS)._from_python([Row(1, 'a'), Row(2, 'b')])) == \
        "[Row(f0=1, f1='a'), Row(f0=2, f1='b')]"
    assert repr(Types.OBJECT_ARRAY(Types.ROW([Types.INT()]))._from_python([Row(1), Row(2)])) \
        == "[Row(f0=1), Row(f0=2)]"
    assert repr(Types.MAP(Types.STRING(), Types.ROW([Types.INT()]))._from_python(
        {'a': Row(1)})) == "{'a': Row(f0=1)}"


def test_received_mixed_row_and_tuple():
    assert repr(ROW_MIX_15._from_python(Row(*ROW_MIX_15_VALUE))) == (
        "Row(f0=10000000000.0, f1=True, f2=[1, 2], f3={'a': 1}, f4=datetime.date(2020, 1, 2), "
        "f5=0.10000000149011612, f6=[3, 4], f7=Decimal('1.50'), f8=(7, 'z'), f9=None, "
        "f10=datetime.datetime(2020, 1, 2, 3, 4, 5, 123000), f11=Instant<1, 500000000>, "
        "f12={4: 'a', 1: 'b'}, f13=['p', 'q'], f14=1099511627776)")
    assert repr(TUPLE_MIX._from_python(TUPLE_MIX_VALUE)) == (
        "([1, 2], [3, 4], True, 10000000000.0, Row(f0=5), {'k': 1}, 0.10000000149011612, "
        "datetime.datetime(2020, 1, 2, 3, 4, 5, 120000), Instant<1, 500000000>, "
        "Decimal('1E+3'), datetime.date(2020, 1, 2), datetime.time(1, 2, 3), ['x', 'y'], "
        "[1, 2], Row(a=1, b='n'))")


def test_printing_a_received_row_matches_pyflink_source_streams():
    # from_collection(..., type_info=ROW) streams print converted rows (observed)
    nested = Types.ROW([Types.INT(), Types.ROW([Types.STRING(), Types.DOUBLE()])])
    assert nested._to_java_string(nested._from_python(Row(2, Row('b', 1e10)))) == \
        "+I[2,Row(f0='b', f1=10000000000.0)]"
    value = Row(1e10, True, [1, 2], {'a': 1}, D.date(2020, 1, 2), 0.1, [3, 4], Decimal('1.50'),
                (7, 'z'))
    assert ROW_MIX_9._to_java_string(ROW_MIX_9._from_python(value)) == \
        "+I[10000000000.0,True,[1, 2],{'a': 1},2020-01-02,0.10000000149011612,[3, 4],1.50," \
        "(7, 'z')]"


# dicts come back in java.util.HashMap iteration order
RECEIVED_MAP_ORDER = [
    (Types.MAP(Types.INT(), Types.STRING()), {4: 'a', 1: 'b', 8: 'c'}, [4, 8, 1]),
    (Types.MAP(Types.INT(), Types.STRING()),
     {16: 'a', 1: 'b', 0: 'c', 32: 'd', 5: 'e', 21: 'f', 64: 'g'}, [16, 0, 32, 64, 1, 5, 21]),
    (Types.MAP(Types.INT(), Types.STRING()),
     {1: 'a', 17: 'b', 33: 'c', 2: 'd', -1: 'e', 100: 'f'}, [-1, 1, 17, 33, 2, 100]),
    (Types.MAP(Types.STRING(), Types.INT()), {'BB': 2, 'Aa': 1}, ['BB', 'Aa']),
    (Types.MAP(Types.STRING(), Types.INT()), {'é': 1, '日本': 2, 'a': 3, '\U0001F600': 4},
     ['\U0001F600', 'é', 'a', '日本']),
    (Types.MAP(Types.STRING(), Types.INT()), {'banana': 1, 'apple': 2, 'cherry': 3, 'date': 4},
     ['banana', 'date', 'apple', 'cherry']),
    (Types.MAP(Types.STRING(), Types.INT()), TWENTY_KEYS,
     ['key1', 'key2', 'key0', 'key5', 'key6', 'key3', 'key4', 'key9', 'key7', 'key8', 'key11',
      'key10', 'key15', 'key14', 'key13', 'key12', 'key19', 'key18', 'key17', 'key16']),
    (Types.MAP(Types.LONG(), Types.INT()), {2 ** 33: 1, 1: 2, -2 ** 40: 3, 2 ** 32 + 1: 4},
     [4294967297, 1, 8589934592, -1099511627776]),
    (Types.MAP(Types.DOUBLE(), Types.INT()), {0.1: 1, -0.0: 2, 0.0: 3, 1e10: 4, nan: 5},
     ['-0.0', 'nan', '0.1', '10000000000.0']),
    (Types.MAP(Types.FLOAT(), Types.INT()), {0.1: 1, 2.5: 2, -1.0: 3},
     [2.5, -1.0, 0.10000000149011612]),
    (Types.MAP(Types.SHORT(), Types.INT()), {-1: 1, 3: 2, 19: 3}, [-1, 3, 19]),
    (Types.MAP(Types.BOOLEAN(), Types.STRING()), {True: 't', False: 'f'}, [False, True]),
]


@pytest.mark.parametrize("type_info,value,keys", RECEIVED_MAP_ORDER,
                         ids=[repr(v)[:40] for _, v, _ in RECEIVED_MAP_ORDER])
def test_received_maps_in_java_hashmap_order(type_info, value, keys):
    got = list(type_info._from_python(value))
    if keys and isinstance(keys[0], str) and isinstance(got[0], float):
        got = [repr(k) for k in got]
    assert got == keys
    assert list(Types.LIST(type_info)._from_python([value])[0]) == \
        list(type_info._from_python(value))


# what fails on real PyFlink fails in the shim too
FAILING = [
    (Types.STRING(), 5, TypeError, "no attribute 'encode'"),
    (Types.INT(), 2 ** 31, OverflowError, "int32_t"),
    (Types.INT(), None, TypeError, ""),
    (Types.LONG(), None, TypeError, ""),
    (Types.BOOLEAN(), None, TypeError, ""),
    (Types.DOUBLE(), None, TypeError, ""),
    (Types.FLOAT(), None, TypeError, ""),
    (Types.SQL_TIMESTAMP(), None, TypeError, ""),
    (Types.SQL_TIMESTAMP(), D.datetime(1960, 1, 2, 3, 4, 5, 1000), ValueError,
     "microsecond must be in 0..999999"),
    (ROW_IS, None, TypeError, ""),
    (ROW_IS, (1, 'a'), TypeError, "get_fields_by_names"),
    (ROW_IS, Row(x=1, y='b'), Exception, "not exist in"),
    (Types.ROW([Types.INT(), Types.ROW([Types.STRING(), Types.DOUBLE()])]),
     Row(2, ('b', 1e10)), TypeError, "get_fields_by_names"),
    (Types.TUPLE([Types.INT(), Types.STRING()]), None, TypeError, ""),
    (Types.TUPLE([Types.INT(), Types.STRING()]), [2, 'b'], TypeError, "Expected tuple, got list"),
    (Types.TUPLE([Types.INT(), Types.STRING()]), Row(3, 'c'), TypeError,
     "Expected tuple, got Row"),
    (Types.TUPLE([Types.INT(), Types.STRING()]), (1, None), TypeError, "None"),
    (Types.LIST(Types.INT()), None, TypeError, ""),
    (Types.LIST(Types.INT()), [1, None], TypeError, "does not accept None elements"),
    (Types.MAP(Types.STRING(), Types.INT()), None, TypeError, ""),
    (Types.PRIMITIVE_ARRAY(Types.INT()), None, TypeError, ""),
    (Types.PRIMITIVE_ARRAY(Types.BYTE()), None, TypeError, ""),
    (Types.BASIC_ARRAY(Types.STRING()), None, TypeError, ""),
    (Types.OBJECT_ARRAY(Types.STRING()), None, TypeError, ""),
    (Types.LIST(Types.STRING()), ['a', None], TypeError, "does not accept None elements"),
    (Types.LIST(Types.ROW([Types.INT()])), [Row(1), None], TypeError,
     "does not accept None elements"),
    (Types.PRIMITIVE_ARRAY(Types.INT()), [1, None], TypeError, "does not accept None elements"),
    (Types.PICKLED_BYTE_ARRAY(), None, TypeError, "None record"),
    (Types.ROW([Types.INT(), Types.INT()]), Row(1), ValueError, "expects 2 fields"),
    (Types.LIST(Types.INT()), (1, 2), TypeError, "Expected list, got tuple"),
    (Types.PRIMITIVE_ARRAY(Types.INT()), (1, 2), TypeError, "Expected list, got tuple"),
    (Types.DOUBLE(), '1.5', TypeError, "must be real number"),
    (Types.LONG(), 2 ** 63, OverflowError, "int64_t"),
    (Types.BYTE(), 200, OverflowError, "int8_t"),
    (Types.SHORT(), 40000, OverflowError, "int16_t"),
]


@pytest.mark.parametrize("type_info,value,error,message", FAILING,
                         ids=["%r:%r" % (t, v) for t, v, _, _ in FAILING])
def test_fails_where_pyflink_fails(type_info, value, error, message):
    with pytest.raises(error, match=re.escape(message) if message else None):
        type_info._from_python(value)


def test_print_failures():
    # a None record fails in Java's print sink even when the type lets it through
    with pytest.raises(TypeError, match="None record"):
        Types.STRING()._to_java_string(None)
    with pytest.raises(TypeError, match="must be a Row"):
        ROW_IS._to_java_string((1, 'a'))
    with pytest.raises(TypeError, match="'bytes' object has no attribute 'encode'"):
        Types.PICKLED_BYTE_ARRAY()._to_java_string(b'ab')
