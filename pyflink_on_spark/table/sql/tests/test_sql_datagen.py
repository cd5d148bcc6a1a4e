"""datagen_rows: sequences and number-of-rows split across subtasks exactly as PyFlink 1.20.5
splits them (the expected rows below were printed by PyFlink at parallelism 2, each
subtask's rows in order); random fields within their options; Flink's words for bad
options."""
import datetime
import itertools
from decimal import Decimal

import pytest

from pyflink_on_spark.table.sql import (
    SqlValidationError, UnsupportedSqlError, datagen_rows, parse_statement, rows_per_second,
    scan_parallelism)


def _table(columns: str, **options: str):
    opts = {'connector': 'datagen'}
    # keyword names: '__' is '.', '_' is '-' (fields__s__var_len: fields.s.var-len)
    opts.update({k.replace('__', '.').replace('_', '-'): v for k, v in options.items()})
    return parse_statement('CREATE TABLE t (%s) WITH (%s)' % (
        columns, ', '.join("'%s' = '%s'" % kv for kv in opts.items())))


def _seq(field: str, start, end) -> dict:
    return {'fields__%s__kind' % field: 'sequence', 'fields__%s__start' % field: str(start),
            'fields__%s__end' % field: str(end)}


def _split(table, parallelism: int = 2):
    return [list(itertools.islice(datagen_rows(table, i, parallelism), 1000))
            for i in range(parallelism)]


@pytest.mark.parametrize('columns, options, expected', [
    # seq_p: two sequences side by side
    ('id INT, v BIGINT', dict(_seq('id', 1, 10), **_seq('v', 100, 109)),
     [[(1, 100), (3, 102), (5, 104), (7, 106), (9, 108)],
      [(2, 101), (4, 103), (6, 105), (8, 107), (10, 109)]]),
    # seq_uneven: a subtask stops at its first exhausted sequence
    ('a INT, b INT', dict(_seq('a', 1, 7), **_seq('b', 1, 3)), [[(1, 1), (3, 3)], [(2, 2)]]),
    # seq_nrows / nrows5: number-of-rows split, one more for the first subtasks
    ('id INT', dict(_seq('id', 1, 10), number_of_rows='4'), [[(1,), (3,)], [(2,), (4,)]]),
    ('id INT', dict(_seq('id', 1, 10), number_of_rows='5'), [[(1,), (3,), (5,)], [(2,), (4,)]]),
    # seq_nrows_more: the sequence ends first
    ('id INT', dict(_seq('id', 1, 5), number_of_rows='20'), [[(1,), (3,), (5,)], [(2,), (4,)]]),
    # bad_startend: start > end still emits abs(end - start + 1) values, counting up
    ('id INT', _seq('id', 5, 1), [[(5,), (7,)], [(6,)]]),
    # bad_nrows / nrows0: nothing
    ('id INT', dict(_seq('id', 1, 10), number_of_rows='-1'), [[], []]),
    ('x INT', dict(_seq('x', 1, 10), number_of_rows='0'), [[], []]),
    # s_neg, s_bigint
    ('x INT', _seq('x', -3, 2), [[(-3,), (-1,), (1,)], [(-2,), (0,), (2,)]]),
    ('x BIGINT', _seq('x', 10000000000, 10000000003),
     [[(10000000000,), (10000000002,)], [(10000000001,), (10000000003,)]]),
    # s_string, s_varchar, s_double: strings are the numbers' text; doubles
    ('s STRING', _seq('s', 1, 5), [[('1',), ('3',), ('5',)], [('2',), ('4',)]]),
    ('s VARCHAR(3)', _seq('s', 8, 12), [[('8',), ('10',), ('12',)], [('9',), ('11',)]]),
    ('x DOUBLE', _seq('x', 1, 5), [[(1.0,), (3.0,), (5.0,)], [(2.0,), (4.0,)]]),
    # s_bytes: the 8-byte big-endian number
    ('x BYTES', _seq('x', 1, 3), [[((1).to_bytes(8, 'big'),), ((3).to_bytes(8, 'big'),)],
                                  [((2).to_bytes(8, 'big'),)]]),
    # seq_mixed_rand: a random field beside the sequence, min = max
    ('id INT, r INT', dict(_seq('id', 1, 4), fields__r__min='1', fields__r__max='1'),
     [[(1, 1), (3, 1)], [(2, 1), (4, 1)]]),
])
def test_sequences_split_as_pyflink_splits_them(columns, options, expected):
    assert _split(_table(columns, **options)) == expected


def test_tinyint_sequence_wraps_as_flinks_narrowing_does():
    # s_overflow_tiny: 126..129 as TINYINT is 126..-127, 252 values
    first, second = _split(_table('x TINYINT', **_seq('x', 126, 129)))
    assert first[:3] == [(126,), (-128,), (-126,)] and first[-1] == (120,)
    assert second[:3] == [(127,), (-127,), (-125,)] and second[-1] == (121,)
    assert (len(first), len(second)) == (126, 126)


def test_without_rows_or_sequences_the_generator_does_not_end():
    rows = datagen_rows(_table('x INT', fields__x__min='3', fields__x__max='3'), 0, 1)
    assert list(itertools.islice(rows, 2500)) == [(3,)] * 2500


def test_computed_columns_are_not_generated():
    table = parse_statement("CREATE TABLE t (id INT, id2 AS id * 2) WITH ('connector' = "
                            "'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                            " 'fields.id.end' = '2')")
    assert _split(table, 1) == [[(1,), (2,)]]


def test_random_values_keep_to_their_options():
    table = _table('s STRING, v VARCHAR(3), c CHAR(4), i TINYINT, d DECIMAL(5,2), f DOUBLE, '
                   'b BOOLEAN, y BYTES, a ARRAY<INT>, m MAP<STRING, INT>, r ROW<x INT>, '
                   'ts TIMESTAMP(3), n INT',
                   number_of_rows='60', fields__s__length='4', fields__a__element__min='7',
                   fields__a__element__max='7', fields__d__min='1', fields__d__max='2',
                   fields__n__null_rate='1.0', fields__y__length='3', fields__ts__max_past='5000')
    before = datetime.datetime.now()
    rows = list(datagen_rows(table, 0, 1, seed=1))
    assert len(rows) == 60
    for s, v, c, i, d, f, b, y, a, m, r, ts, n in rows:
        assert len(s) == 4 and set(s) <= set('0123456789abcdef')   # Flink: hex digits
        assert len(v) == 3 and len(c) == 4                          # declared lengths
        assert -128 <= i <= 127
        assert Decimal('1') <= d <= Decimal('2') and d.as_tuple().exponent == -2
        assert 0 < f                     # Flink's default DOUBLE range is positive
        assert isinstance(b, bool) and len(y) == 3
        assert a == [7, 7, 7] and len(m) <= 3 and isinstance(r, tuple)
        assert before - datetime.timedelta(seconds=6) <= ts <= datetime.datetime.now()
        assert ts.microsecond % 1000 == 0     # TIMESTAMP(3)
        assert n is None
    assert {r[6] for r in rows} == {True, False}


def test_string_default_length_and_var_len():
    rows = list(datagen_rows(_table('s STRING', number_of_rows='50'), 0, 1, seed=2))
    assert {len(s) for s, in rows} == {100}
    rows = list(datagen_rows(_table('s STRING', number_of_rows='200', fields__s__length='4',
                                    fields__s__var_len='true'), 0, 1, seed=3))
    assert {len(s) for s, in rows} == {1, 2, 3}    # PyFlink showed 1..3 for length 4


def test_rows_per_second_is_split_across_subtasks():
    assert rows_per_second(_table('x INT', rows_per_second='10'), 0, 2) == 5.0
    assert rows_per_second(_table('x INT'), 0, 1) == 10000.0


def _error(columns: str, **options) -> str:
    with pytest.raises(SqlValidationError) as info:
        list(itertools.islice(datagen_rows(_table(columns, **options), 0, 1), 1))
    return str(info.value)


def test_unsupported_options_list_what_flink_lists():
    # s_seq_with_min / r_len_int on PyFlink
    assert _error('x INT', fields__x__zzz='1') == (
        "Unsupported options found for 'datagen'.\n\nUnsupported options:\n\nfields.x.zzz\n\n"
        "Supported options:\n\nconnector\nfields.x.kind\nfields.x.max\nfields.x.min\n"
        "fields.x.null-rate\nnumber-of-rows\nrows-per-second\nscan.parallelism")
    assert _error('x INT', fields__x__min='1', **_seq('x', 1, 3)).endswith(
        "Unsupported options:\n\nfields.x.min\n\nSupported options:\n\nconnector\n"
        "fields.x.end\nfields.x.kind\nfields.x.start\nnumber-of-rows\nrows-per-second\n"
        "scan.parallelism")


@pytest.mark.parametrize('column_type, supported', [
    ('STRING', 'fields.x.length fields.x.null-rate fields.x.var-len'),
    ('CHAR(3)', 'fields.x.null-rate'),
    ('BOOLEAN', 'fields.x.null-rate'),
    ('DECIMAL(5,2)', 'fields.x.max fields.x.min fields.x.null-rate'),
    ('TIMESTAMP_LTZ(3)', 'fields.x.max-past fields.x.null-rate'),
    ('DATE', ''),
    ('BYTES', 'fields.x.length fields.x.var-len'),
    ('ARRAY<INT>', 'fields.x.element.max fields.x.element.min fields.x.element.null-rate '
                   'fields.x.length fields.x.null-rate'),
    ('MAP<STRING,INT>', 'fields.x.key.length fields.x.key.null-rate fields.x.key.var-len '
                        'fields.x.length fields.x.null-rate fields.x.value.max '
                        'fields.x.value.min fields.x.value.null-rate'),
    ('ROW<a INT>', 'fields.x.a.max fields.x.a.min fields.x.a.null-rate fields.x.null-rate'),
])
def test_each_type_takes_the_options_flink_lists_for_it(column_type, supported):
    message = _error('x %s' % column_type, number_of_rows='1', fields__x__zzz='1')
    listed = message.split('Supported options:\n\n')[1].split('\n')
    expected = sorted(['connector', 'fields.x.kind', 'number-of-rows', 'rows-per-second',
                       'scan.parallelism'] + supported.split())
    assert listed == expected


@pytest.mark.parametrize('columns, options, message', [
    ('id INT', {'fields__id__kind': 'foo'}, 'Unsupported generator kind: foo'),
    ('id INT', {'fields__id__kind': 'sequence', 'fields__id__start': '1'},
     "Could not find required property 'fields.id.end' for sequence generator."),
    ('x INT', {'fields__x__kind': 'sequence', 'fields__x__end': '3'},
     "Could not find required property 'fields.x.start' for sequence generator."),
    ('id INT', {'number_of_rows': '2', 'fields__id__min': 'abc'},
     "Could not parse value 'abc' for key 'fields.id.min'."),
    ('ts TIMESTAMP(3)', _seq('ts', 1, 4), 'Unsupported type: TIMESTAMP(3)'),
    ('s VARCHAR(3)', {'fields__s__length': '5'},
     "Custom length '5' for variable-length type (VARCHAR/STRING/VARBINARY/BYTES) field 's' "
     "should be shorter than '3' defined in the schema."),
    ('x INT', {'number_of_rows': '3', 'fields__x__min': '5', 'fields__x__max': '1'},
     'lower bound (5) must be strictly less than upper bound (1)'),
])
def test_bad_options_fail_in_flinks_words(columns, options, message):
    assert _error(columns, **options) == message


def test_boolean_sequence_options_are_unsupported():
    # seqopts BOOLEAN on PyFlink: start and end are reported, nothing generated
    assert 'Unsupported options:\n\nfields.x.end\nfields.x.start\n\n' in _error(
        'x BOOLEAN', **_seq('x', 1, 2))


def test_decimal_sequence_is_refused_for_want_of_a_reference():
    # PyFlink 1.20.5 fails it at run time (ClassCastException)
    with pytest.raises(UnsupportedSqlError, match='DECIMAL'):
        list(datagen_rows(_table('x DECIMAL(10,2)', **_seq('x', 1, 3)), 0, 1))


def test_scan_parallelism_sets_the_split():
    # scan_parallelism on PyFlink (job parallelism 2): [1, 4], [2, 5], [3, 6]
    table = _table('x INT', scan__parallelism='3', **_seq('x', 1, 6))
    assert scan_parallelism(table) == 3
    assert _split(table, scan_parallelism(table)) == [[(1,), (4,)], [(2,), (5,)], [(3,), (6,)]]


def test_metadata_columns_are_refused_as_flink_refuses_them():
    assert _error('x INT, m INT METADATA', **_seq('x', 1, 3)).startswith(
        "Table 'DataGenTableSource' declares metadata columns, but the underlying "
        "DynamicTableSource doesn't implement the SupportsReadingMetadata interface.")
