"""Flink SQL's ARRAY[...] / MAP[...] value constructors and its collection functions (ELEMENT,
ARRAY_CONTAINS, ARRAY_DISTINCT, ARRAY_POSITION, ARRAY_REMOVE, ARRAY_REVERSE, ARRAY_CONCAT,
ARRAY_JOIN, ARRAY_SLICE, ARRAY_MAX, ARRAY_MIN, MAP_KEYS, MAP_VALUES, MAP_ENTRIES,
MAP_FROM_ARRAYS) as Spark SQL with Flink's result types and values.

Every type, NULL result and error text here was seen on PyFlink 1.20.5 (docs/table.md
"Collection functions"). Where Spark's function means something else (array_contains and
array_remove of a NULL, slice's offsets, array_position's BIGINT), the expression is written
so the result is Flink's. ARRAY_APPEND, ARRAY_PREPEND, ARRAY_SORT, ARRAY_UNION,
ARRAY_EXCEPT, ARRAY_INTERSECT and SPLIT too; MAP_UNION stays refused by name
(functions.translate_function)."""
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from sqlglot import exp

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.flink_types import flink_type_string, spark_type_string
from pyflink_on_spark.table.sql.typing_rules import common_type, is_numeric, is_string
from pyflink_on_spark.table.types import (
    ArrayType, BooleanType, CharType, DataType, DataTypes, IntType, MapType, RowType, SmallIntType,
    TinyIntType)

__all__ = ['COLLECTION_FUNCTIONS', 'array_value', 'map_value', 'NULL_ARGUMENT_FUNCTIONS']

Arg = Tuple[exp.Expression, Optional[DataType]]
Result = Tuple[exp.Expression, Optional[DataType]]

# the functions that take an untyped NULL needle (PyFlink 1.20.5: ARRAY_CONTAINS(b, NULL)
# is BOOLEAN, ARRAY_POSITION(b, NULL) INT, ARRAY_APPEND(b, NULL) ARRAY<INT>)
NULL_ARGUMENT_FUNCTIONS = ('ARRAY_CONTAINS', 'ARRAY_POSITION', 'ARRAY_APPEND', 'ARRAY_PREPEND')

_INVALID = 'Invalid input arguments.'     # Flink's text for a call its signatures refuse
_SAME_TYPE = 'Parameters must be of the same type'     # Calcite's, for ARRAY[...] / MAP[...]


def _call(name: str, *args: exp.Expression) -> exp.Expression:
    return exp.Anonymous(this=name, expressions=list(args))


def _cast(e: exp.Expression, dt: DataType) -> exp.Expression:
    return exp.Cast(this=e, to=exp.DataType.build(spark_type_string(dt), dialect='spark'))


def _is_null(e: exp.Expression) -> exp.Expression:
    return exp.Is(this=e.copy(), expression=exp.Null())


def _invalid(name: str, args: Sequence[Arg]) -> SqlValidationError:
    """Flink's error, then the call's argument types (Flink names no more)."""
    return SqlValidationError('%s\n%s(%s)' % (_INVALID, name, ', '.join(
        'NULL' if t is None else flink_type_string(t) for _, t in args)))


def _arity(name: str, args: Sequence[Arg], low: int, high: int) -> None:
    if not low <= len(args) <= high:
        raise SqlValidationError('The function %s takes %s arguments, found %d'
                                 % (name, low if low == high else '%d to %d' % (low, high),
                                    len(args)))


def _array(name: str, args: Sequence[Arg], i: int = 0) -> ArrayType:
    dt = args[i][1]
    if not isinstance(dt, ArrayType):
        raise _invalid(name, args)
    return dt


def _same_ignoring_null(a: DataType, b: DataType) -> bool:
    """Whether a and b are one type, NOT NULL or not."""
    return a.nullable() == b.nullable()


def least_restrictive(types: Sequence[Optional[DataType]]) -> Optional[DataType]:
    """Calcite's least restrictive type of ARRAY[...] elements, MAP[...] keys or values and
    ARRAY_CONCAT's arrays, NOT NULL when every one is (an untyped NULL makes it nullable);
    None when the types do not mix. Seen on PyFlink 1.20.5: ARRAY[1, 2.5] is
    ARRAY<DECIMAL(11, 1) NOT NULL>, ARRAY['a', 'b'] CHAR(1), ARRAY['a', 'bb'] VARCHAR(2),
    ARRAY[k, 'x'] STRING, ARRAY[CAST(1 AS FLOAT), 2e0] FLOAT but ARRAY[2e0, CAST(1 AS
    FLOAT)] DOUBLE, ARRAY[ARRAY[1], ARRAY[n]] ARRAY<ARRAY<INT> NOT NULL>."""
    known = [t for t in types if t is not None]
    if not known:
        return None
    nullable = len(known) < len(types) or any(t._nullable for t in known)
    result: Optional[DataType]
    if all(is_string(t) for t in known):
        lengths = {t.length for t in known}
        result = DataTypes.CHAR(lengths.pop()) if len(lengths) == 1 and all(
            isinstance(t, CharType) for t in known) else \
            DataTypes.VARCHAR(max(t.length for t in known))
    elif all(is_numeric(t) for t in known):
        result = common_type(known, calcite=True)
    elif all(isinstance(t, ArrayType) for t in known):
        element = least_restrictive([t.element_type for t in known])
        result = None if element is None else DataTypes.ARRAY(element)
    elif all(_same_ignoring_null(t, known[0]) for t in known):
        result = known[0]
    else:
        result = None
    if result is None:
        return None
    return result.nullable() if nullable else result.not_null()


def _as(e: exp.Expression, dt: Optional[DataType], target: DataType) -> exp.Expression:
    """e as a value of target's Spark type, cast when its own type differs (an INT element
    of an ARRAY<DECIMAL(11, 1)>, an untyped NULL)."""
    if dt is None or spark_type_string(dt) != spark_type_string(target):
        return _cast(e, target)
    return e


def array_value(args: Sequence[Arg]) -> Result:
    """ARRAY[a, b, ...]: NOT NULL itself, its elements of their least restrictive type."""
    if not args:
        raise SqlValidationError('Require at least 1 argument')
    element = least_restrictive([t for _, t in args])
    if element is None:
        raise SqlValidationError(_SAME_TYPE)
    return _call('array', *[_as(e, t, element) for e, t in args]), \
        DataTypes.ARRAY(element, False)


def map_value(args: Sequence[Arg]) -> Result:
    """MAP[k1, v1, k2, v2, ...]: NOT NULL itself, keys and values each of their least
    restrictive type. A key given twice as the same literal keeps its last value (seen on
    PyFlink 1.20.5: MAP['x', 1, 'x', 2] is {x=2}); Spark's map() would refuse it."""
    if len(args) % 2:
        raise SqlValidationError('Map requires an even number of arguments')
    if not args:
        raise SqlValidationError('Map requires at least 2 arguments')
    pairs = [(args[i], args[i + 1]) for i in range(0, len(args), 2)]
    key = least_restrictive([k[1] for k, _ in pairs])
    value = least_restrictive([v[1] for _, v in pairs])
    if key is None or value is None:
        raise SqlValidationError(_SAME_TYPE)
    kept: Dict[str, int] = {}
    out: List[Tuple[Arg, Arg]] = []
    for k, v in pairs:
        literal = k[0].sql() if isinstance(k[0], exp.Literal) else None
        if literal is not None and literal in kept:
            out[kept[literal]] = (out[kept[literal]][0], v)
            continue
        if literal is not None:
            kept[literal] = len(out)
        out.append((k, v))
    flat: List[exp.Expression] = []
    for (k, kt), (v, vt) in out:
        flat += [_as(k, kt, key), _as(v, vt, value)]
    return _call('map', *flat), DataTypes.MAP(key, value, False)


def _element(name: str, args: List[Arg]) -> Result:
    """ELEMENT(a): the one element of an array, NULL of an empty or NULL one, Flink's
    runtime error for more (seen on PyFlink 1.20.5: `Array has more than one element.`);
    typed as the elements are (ELEMENT of an ARRAY<INT NOT NULL> is INT NOT NULL)."""
    _arity(name, args, 1, 1)
    (a, dt), = args
    if not isinstance(dt, ArrayType):
        raise SqlValidationError(
            "Cannot apply 'ELEMENT' to arguments of type 'ELEMENT(<%s>)'. Supported form(s): "
            "'ELEMENT(<MULTISET>)'\n'ELEMENT(<ARRAY>)'" % _calcite(dt))
    many = exp.GT(this=_call('size', a.copy()), expression=exp.Literal.number(1))
    error = _call('raise_error', exp.Literal.string('Array has more than one element.'))
    return exp.Case(ifs=[exp.If(this=many, true=error)],
                    default=_call('try_element_at', a, exp.Literal.number(1))), \
        dt.element_type


def _calcite(dt: Optional[DataType]) -> str:
    """A type as Calcite's messages print it (`INTEGER ARRAY`, `(INTEGER, DOUBLE) MAP`)."""
    from pyflink_on_spark.table.sql.typing_rules import calcite_type_name
    if isinstance(dt, ArrayType):
        return '%s ARRAY' % _calcite(dt.element_type)
    if isinstance(dt, MapType):
        return '(%s, %s) MAP' % (_calcite(dt.key_type), _calcite(dt.value_type))
    return 'NULL' if dt is None else calcite_type_name(dt)


def _needle(name: str, args: List[Arg]) -> Tuple[exp.Expression, exp.Expression, ArrayType]:
    """The array and the value to look for, of the elements' type: Flink takes a value that
    widens to it (an INT array and a TINYINT) and refuses others (a BIGINT, a STRING)."""
    _arity(name, args, 2, 2)
    dt = _array(name, args)
    (a, _), (x, xt) = args
    element = dt.element_type
    if xt is not None:
        widened = least_restrictive([element, xt])
        if widened is None or not _same_ignoring_null(widened, element):
            raise _invalid(name, args)
    return a, _as(x, xt, element), dt


# the lambda variable of transform / filter; a column of this name read by the needle
# would be shadowed inside the lambda (a name no program is likely to use)
_VAR = '__e'


def _lambda(body: exp.Expression) -> exp.Lambda:
    """`__e -> body`, the function transform / filter take (body reads exp.column(_VAR))."""
    return exp.Lambda(this=body, expressions=[exp.to_identifier(_VAR)])


def _null_safe_matches(a: exp.Expression, x: exp.Expression) -> exp.Expression:
    """transform(a, e -> e <=> x): for each element whether it is x, a NULL element being a
    NULL x (Flink's ARRAY_CONTAINS and ARRAY_REMOVE compare so); NULL of a NULL array."""
    var = exp.column(_VAR)
    return _call('transform', a, _lambda(exp.NullSafeEQ(this=var, expression=x)))


def _array_contains(name: str, args: List[Arg]) -> Result:
    """ARRAY_CONTAINS(a, x): whether x is an element, a NULL x found as a NULL element, NULL
    of a NULL array; BOOLEAN NOT NULL when the array is (seen on PyFlink 1.20.5: TRUE for
    ARRAY[1, CAST(NULL AS INT)] and NULL, FALSE for it and 2; ARRAY_CONTAINS(ARRAY[1], n)
    BOOLEAN NOT NULL). Spark's array_contains gives NULL for those."""
    a, x, dt = _needle(name, args)
    return _call('array_contains', _null_safe_matches(a, x), exp.true()), \
        DataTypes.BOOLEAN(dt._nullable)


def _array_position(name: str, args: List[Arg]) -> Result:
    """ARRAY_POSITION(a, x): the first position of x from 1, 0 when it is missing, NULL of a
    NULL array or NULL x (NULL elements are never found); INT, nullable when either is
    (seen on PyFlink 1.20.5). Spark's array_position means the same, as a BIGINT."""
    a, x, dt = _needle(name, args)
    xt = args[1][1]
    return _cast(_call('array_position', a, x), DataTypes.INT()), \
        DataTypes.INT(dt._nullable or xt is None or xt._nullable)


def _array_remove(name: str, args: List[Arg]) -> Result:
    """ARRAY_REMOVE(a, x): a without the elements equal to x, a NULL x removing the NULL
    elements (seen on PyFlink 1.20.5: [1, 2, 1] of [1, NULL, 2, 1] and NULL), NULL of a
    NULL array; typed as a. Spark's array_remove gives NULL for a NULL x."""
    a, x, dt = _needle(name, args)
    var = exp.column(_VAR)
    kept = _lambda(exp.Not(this=exp.Paren(this=exp.NullSafeEQ(this=var, expression=x))))
    return _call('filter', a, kept), dt


def _unary_array(spark_name: str):
    """ARRAY_DISTINCT (the first of equal elements, NULL kept once), ARRAY_REVERSE: typed as
    the array (seen on PyFlink 1.20.5); Spark's array_distinct and reverse mean the same."""
    def handler(name: str, args: List[Arg]) -> Result:
        _arity(name, args, 1, 1)
        dt = _array(name, args)
        return _call(spark_name, args[0][0]), dt
    return handler


def _array_extreme(spark_name: str):
    """ARRAY_MAX / ARRAY_MIN: the greatest / least element, NULL elements skipped, NULL of
    an empty or NULL array; the element type, nullable (seen on PyFlink 1.20.5); Spark's
    array_max / array_min mean the same."""
    def handler(name: str, args: List[Arg]) -> Result:
        _arity(name, args, 1, 1)
        dt = args[0][1]
        if not isinstance(dt, ArrayType):
            raise SqlValidationError('The argument requires to be an ARRAY type')
        if isinstance(dt.element_type, (ArrayType, MapType, RowType)):
            raise SqlValidationError("Type '%s' should support both 'EQUALS' and 'ORDER' "
                                     "comparison with itself."
                                     % flink_type_string(dt.element_type))
        return _call(spark_name, args[0][0]), dt.element_type.nullable()
    return handler


def _common_array(args: Sequence[Arg]) -> DataType:
    """The arrays' least restrictive type (ARRAY_CONCAT and the set functions type so),
    Flink's error when they have none."""
    result = least_restrictive([t for _, t in args])
    if result is None:
        raise SqlValidationError('Could not find a common type for arguments: [%s]' % ', '.join(
            flink_type_string(t) for _, t in args))
    return result


def _array_concat(name: str, args: List[Arg]) -> Result:
    """ARRAY_CONCAT(a, b, ...): NULL when any is NULL (seen on PyFlink 1.20.5); typed as the
    arrays' least restrictive type (ARRAY_CONCAT(b, ARRAY[CAST(1 AS BIGINT)]) is
    ARRAY<BIGINT>), whose Spark type each array is cast to when it differs."""
    if not args:
        raise SqlValidationError('No match found for function signature ARRAY_CONCAT().\n'
                                 'Supported signatures are:\nARRAY_CONCAT(<COMMON>, '
                                 '<COMMON>...)')
    for i in range(len(args)):
        _array(name, args, i)
    result = _common_array(args)
    if len(args) == 1:
        return args[0][0], result
    return _call('concat', *[_as(a, t, result) for a, t in args]), result


def _array_join(name: str, args: List[Arg]) -> Result:
    """ARRAY_JOIN(a, delimiter[, null_replacement]) of an array of strings: the elements
    joined, NULL elements skipped or replaced, NULL when any argument is NULL (seen on
    PyFlink 1.20.5: a NULL replacement gives NULL too); STRING, NOT NULL when all are."""
    if len(args) == 1:
        raise SqlValidationError(
            'No match found for function signature ARRAY_JOIN(<%s>).\nSupported signatures '
            'are:\nARRAY_JOIN(ARRAY<STRING>, <CHARACTER_STRING>)\nARRAY_JOIN(ARRAY<STRING>, '
            '<CHARACTER_STRING>, <CHARACTER_STRING>)' % _calcite(args[0][1]))
    _arity(name, args, 2, 3)
    dt = _array(name, args)
    if not is_string(dt.element_type) or any(t is not None and not is_string(t)
                                             for _, t in args[1:]):
        raise _invalid(name, args)
    joined = _call('array_join', *[a for a, _ in args])
    if len(args) == 3:
        # Spark's array_join takes a NULL replacement for none; Flink's result is NULL
        joined = exp.Case(ifs=[exp.If(this=_is_null(args[2][0]), true=exp.Null())],
                          default=joined)
    nullable = any(t is None or t._nullable for _, t in args)
    return joined, DataTypes.STRING(nullable)


def _array_slice(name: str, args: List[Arg]) -> Result:
    """ARRAY_SLICE(a, start[, end]): the elements from start to end, both included, from 1;
    a negative offset counts from the end (-1 the last), a start below 1 is 1, an end of 0
    (after counting from the end) is 1, an end past the end is the end, start after end an
    empty array; NULL when any argument is NULL; typed as a, nullable when an offset is
    (seen on PyFlink 1.20.5, Flink's ArraySliceFunction). Spark's slice takes a start and a
    length and fails on a start of 0, so the offsets are computed here."""
    _arity(name, args, 2, 3)
    dt = _array(name, args)
    for _, t in args[1:]:
        if t is not None and type(t) not in (TinyIntType, SmallIntType, IntType):
            raise _invalid(name, args)     # BIGINT too (seen)
    a = args[0][0]
    size = _call('size', a.copy())

    def from_end(offset: exp.Expression) -> exp.Expression:
        # offset + size + 1 when negative
        return exp.Case(ifs=[exp.If(this=exp.LT(this=offset.copy(),
                                                expression=exp.Literal.number(0)),
                                    true=exp.Add(this=exp.Add(this=offset.copy(),
                                                              expression=size.copy()),
                                                 expression=exp.Literal.number(1)))],
                        default=offset.copy())

    start = _call('greatest', exp.Literal.number(1), from_end(args[1][0]))
    if len(args) == 3:
        end_at = from_end(args[2][0])
        end = exp.Case(ifs=[exp.If(this=exp.EQ(this=end_at.copy(),
                                               expression=exp.Literal.number(0)),
                                   true=exp.Literal.number(1))],
                       default=_call('least', end_at, size.copy()))
    else:
        end = size.copy()
    length = _call('greatest', exp.Literal.number(0), exp.Add(
        this=exp.Sub(this=end, expression=start.copy()), expression=exp.Literal.number(1)))
    sliced = _call('slice', a, start, length)
    # greatest / least skip a NULL offset, which makes Flink's result NULL
    nulls = [_is_null(o) for o, _ in args[1:]]
    condition = nulls[0] if len(nulls) == 1 else exp.Or(this=nulls[0], expression=nulls[1])
    nullable = any(t is None or t._nullable for _, t in args)
    return exp.Case(ifs=[exp.If(this=condition, true=exp.Null())], default=sliced), \
        dt.nullable() if nullable else dt


def _map_part(spark_name: str, part: Callable[[MapType], DataType]):
    """MAP_KEYS / MAP_VALUES / MAP_ENTRIES: an ARRAY of the keys, the values or ROW<`key`,
    `value`> entries (nullable), nullable when the map is (seen on PyFlink 1.20.5); Spark's
    map_keys / map_values / map_entries (a struct of `key` and `value`) mean the same."""
    def handler(name: str, args: List[Arg]) -> Result:
        _arity(name, args, 1, 1)
        dt = args[0][1]
        if not isinstance(dt, MapType):
            raise _invalid(name, args)
        return _call(spark_name, args[0][0]), DataTypes.ARRAY(part(dt), dt._nullable)
    return handler


def _entry(dt: MapType) -> DataType:
    return DataTypes.ROW([DataTypes.FIELD('key', dt.key_type),
                          DataTypes.FIELD('value', dt.value_type)])


def _map_from_arrays(name: str, args: List[Arg]) -> Result:
    """MAP_FROM_ARRAYS(keys, values): NULL when either is NULL, Flink's runtime error when
    their lengths differ (seen on PyFlink 1.20.5); MAP<key element, value element>,
    nullable when either array is."""
    _arity(name, args, 2, 2)
    kt, vt = _array(name, args, 0), _array(name, args, 1)
    (k, _), (v, _) = args
    sizes = (_call('size', k.copy()), _call('size', v.copy()))
    error = _call('raise_error', _call(
        'concat', exp.Literal.string('Invalid function MAP_FROM_ARRAYS call:\nThe length of '
                                     'the keys array '),
        sizes[0].copy(), exp.Literal.string(' is not equal to the length of the values array '),
        sizes[1].copy()))
    built = exp.Case(ifs=[exp.If(this=exp.NEQ(this=sizes[0], expression=sizes[1]), true=error)],
                     default=_call('map_from_arrays', k, v))
    return built, DataTypes.MAP(kt.element_type, vt.element_type,
                                kt._nullable or vt._nullable)


def _array_add(spark_name: str):
    """ARRAY_APPEND / ARRAY_PREPEND(a, x): x added at the end / the start, a NULL x too, NULL
    of a NULL array; the elements nullable when x is, the array nullable when either is
    (seen on PyFlink 1.20.5: ARRAY_PREPEND(ARRAY[1], n) is ARRAY<INT>, [x, NULL, y, x, NULL]
    for a NULL x); Spark's array_append / array_prepend mean the same. An x that does not
    widen to the elements' type is Flink's error; a string into an array of shorter CHAR /
    VARCHAR elements is refused here (PyFlink types ARRAY_APPEND(ARRAY['a'], 'bb') as
    ARRAY<CHAR(1) NOT NULL>; its value was not compared)."""
    def handler(name: str, args: List[Arg]) -> Result:
        a, x, dt = _needle(name, args)
        xt = args[1][1]
        element = dt.element_type
        if xt is not None and is_string(element) and element.length < xt.length:
            raise UnsupportedSqlError('%s of a %s into an %s is not supported by '
                                      'pyflink_on_spark' % (name, flink_type_string(xt),
                                                            flink_type_string(dt)))
        x_nullable = xt is None or xt._nullable
        if x_nullable:
            element = element.nullable()
        result = DataTypes.ARRAY(element, dt._nullable or x_nullable)
        return _call(spark_name, a, x), result
    return handler


def _array_sort(name: str, args: List[Arg]) -> Result:
    """ARRAY_SORT(a[, ascending[, nulls_first]]): ascending by default, NULLs first when
    ascending and last when descending unless nulls_first says otherwise, NULL when any
    argument is; typed as a, nullable when a flag is (seen on PyFlink 1.20.5: [NULL, x, x,
    y], (FALSE) [y, x, x, NULL], (TRUE, FALSE) [x, x, y, NULL], (FALSE, TRUE) [NULL, y, x,
    x]). Spark's sort_array puts NULLs as the default does and takes a literal order only,
    so the NULLs are placed here and the order chosen by a CASE."""
    _arity(name, args, 1, 3)
    dt = _array(name, args)
    if isinstance(dt.element_type, (ArrayType, MapType, RowType)) or any(
            not isinstance(t, BooleanType) for _, t in args[1:]):
        raise _invalid(name, args)
    a = args[0][0]
    var = exp.column(_VAR)
    nulls = _call('filter', a.copy(), _lambda(_is_null(var)))
    values = _call('filter', a, _lambda(exp.Not(this=_is_null(var))))
    ascending = args[1][0] if len(args) > 1 else exp.true()
    nulls_first = args[2][0] if len(args) > 2 else ascending
    sorted_values = exp.Case(ifs=[exp.If(this=ascending.copy(),
                                         true=_call('sort_array', values.copy(), exp.true()))],
                             default=_call('sort_array', values, exp.false()))
    flags = [f for f in (ascending, nulls_first) if not isinstance(f, exp.Boolean)]
    ifs = [exp.If(this=_is_null(exp.Paren(this=f.copy())), true=exp.Null()) for f in flags]
    ifs.append(exp.If(this=nulls_first.copy(), true=_call('concat', nulls.copy(),
                                                           sorted_values.copy())))
    nullable = dt._nullable or any(t._nullable for _, t in args[1:])
    return exp.Case(ifs=ifs, default=_call('concat', sorted_values, nulls)), \
        dt.nullable() if nullable else dt


def _array_set(spark_name: str):
    """ARRAY_UNION / ARRAY_EXCEPT / ARRAY_INTERSECT(a, b): the elements without duplicates,
    in the order they first come (a's, then b's), a NULL element a value like the others,
    NULL when either array is; typed as ARRAY_CONCAT types the two (seen on PyFlink 1.20.5:
    [x, NULL, y, q] for [x, NULL, y, x] and [NULL, q]; ARRAY_EXCEPT(q, b) is ARRAY<INT>);
    Spark's array_union / array_except / array_intersect mean the same, over arrays of one
    type (each cast to the result's when it differs)."""
    def handler(name: str, args: List[Arg]) -> Result:
        _arity(name, args, 2, 2)
        _array(name, args, 0)
        _array(name, args, 1)
        result = _common_array(args)
        return _call(spark_name, *[_as(a, t, result) for a, t in args]), result
    return handler


def _split(name: str, args: List[Arg]) -> Result:
    """SPLIT(s, delimiter): s cut at each delimiter, taken as text (not a pattern), empty
    pieces kept (at the ends too), an empty delimiter giving each character, an empty s an
    empty array, NULL when either is NULL; ARRAY<STRING>, NOT NULL when both are (seen on
    PyFlink 1.20.5: SPLIT('a..b.', '.') [a, , b, ], SPLIT('a.b|c', '|') [a.b, c],
    SPLIT('abc', '') [a, b, c], SPLIT('', ',') []). Spark's split takes a regular
    expression: the delimiter is quoted (\\Q...\\E)."""
    _arity(name, args, 2, 2)
    if any(t is not None and not is_string(t) for _, t in args):
        raise _invalid(name, args)
    (text, _), (delimiter, _) = args
    quoted = _call('concat', exp.Literal.string('\\Q'), _call(
        'replace', delimiter.copy(), exp.Literal.string('\\E'),
        exp.Literal.string('\\E\\\\E\\Q')), exp.Literal.string('\\E'))
    var = exp.column(_VAR)
    characters = _call('transform', _call('sequence', exp.Literal.number(1),
                                          _call('char_length', text.copy())),
                       _lambda(_call('substring', text.copy(), var, exp.Literal.number(1))))
    empty = exp.Cast(this=_call('array'), to=exp.DataType.build('ARRAY<STRING>',
                                                                dialect='spark'))
    built = exp.Case(ifs=[
        exp.If(this=exp.Or(this=_is_null(text), expression=_is_null(delimiter)),
               true=exp.Null()),
        exp.If(this=exp.EQ(this=text.copy(), expression=exp.Literal.string('')), true=empty),
        exp.If(this=exp.EQ(this=delimiter.copy(), expression=exp.Literal.string('')),
               true=characters)],
        default=_call('split', text, quoted, exp.Literal.number(-1)))
    nullable = any(t is None or t._nullable for _, t in args)
    return built, DataTypes.ARRAY(DataTypes.STRING(), nullable)


COLLECTION_FUNCTIONS: Dict[str, Callable[[str, List[Arg]], Result]] = {
    'ARRAY_UNION': _array_set('array_union'),
    'ARRAY_EXCEPT': _array_set('array_except'),
    'ARRAY_INTERSECT': _array_set('array_intersect'),
    'SPLIT': _split,
    'ARRAY_APPEND': _array_add('array_append'),
    'ARRAY_PREPEND': _array_add('array_prepend'),
    'ARRAY_SORT': _array_sort,
    'ELEMENT': _element,
    'ARRAY_CONTAINS': _array_contains,
    'ARRAY_POSITION': _array_position,
    'ARRAY_REMOVE': _array_remove,
    'ARRAY_DISTINCT': _unary_array('array_distinct'),
    'ARRAY_REVERSE': _unary_array('reverse'),
    'ARRAY_CONCAT': _array_concat,
    'ARRAY_JOIN': _array_join,
    'ARRAY_SLICE': _array_slice,
    'ARRAY_MAX': _array_extreme('array_max'),
    'ARRAY_MIN': _array_extreme('array_min'),
    'MAP_KEYS': _map_part('map_keys', lambda m: m.key_type),
    'MAP_VALUES': _map_part('map_values', lambda m: m.value_type),
    'MAP_ENTRIES': _map_part('map_entries', _entry),
    'MAP_FROM_ARRAYS': _map_from_arrays,
}

