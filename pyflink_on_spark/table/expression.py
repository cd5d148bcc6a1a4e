"""Expression: a Table API expression as the Flink SQL text it stands for (translated to
Spark SQL with the queries, table/sql). Besides its text, an Expression knows what the Table
methods need to write their query as Flink's Table API plans it: the column it names, the
columns it reads outside aggregate calls, the aggregate calls it holds (Flink names an
unnamed aggregate EXPR$<n>, numbering a select's distinct aggregate calls in order, seen on
PyFlink 1.20.5) and, for order_by, its sort direction."""
from __future__ import annotations

import datetime
import decimal
from enum import Enum
from typing import Any, Optional, Tuple

__all__ = ['Expression', 'JsonType', 'JsonExistsOnError', 'JsonValueOnEmptyOrError',
           'JsonQueryWrapper', 'JsonQueryOnEmptyOrError', 'JsonOnNull']


class JsonType(Enum):
    """Types of JSON values for is_json() (PyFlink's members)."""
    VALUE = 0,
    SCALAR = 1,
    ARRAY = 2,
    OBJECT = 3


class JsonExistsOnError(Enum):
    """json_exists()'s behaviour on an error."""
    TRUE = 0,
    FALSE = 1,
    UNKNOWN = 2,
    ERROR = 3


class JsonValueOnEmptyOrError(Enum):
    """json_value()'s behaviour on an empty result or an error."""
    NULL = 0,
    ERROR = 1,
    DEFAULT = 2


class JsonQueryWrapper(Enum):
    """Whether json_query() wraps its result into an array."""
    WITHOUT_ARRAY = 0,
    CONDITIONAL_ARRAY = 1,
    UNCONDITIONAL_ARRAY = 2


class JsonQueryOnEmptyOrError(Enum):
    """json_query()'s behaviour on an empty result or an error."""
    NULL = 0,
    EMPTY_ARRAY = 1,
    EMPTY_OBJECT = 2,
    ERROR = 3


class JsonOnNull(Enum):
    """json_object() / json_array()'s treatment of NULL values."""
    NULL = 0,
    ABSENT = 1

# the SQL words of json_query's wrappers and behaviours
_QUERY_WRAPPER_SQL = {"WITHOUT_ARRAY": "WITHOUT ARRAY WRAPPER",
                      "CONDITIONAL_ARRAY": "WITH CONDITIONAL ARRAY WRAPPER",
                      "UNCONDITIONAL_ARRAY": "WITH UNCONDITIONAL ARRAY WRAPPER"}


def literal_sql(value: Any) -> str:
    """A Python value as a Flink SQL literal of the type PyFlink's lit() gives it (the
    Table API's expressions go through the SQL translator, table/sql)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value) if -2 ** 31 <= value < 2 ** 31 else "CAST(%d AS BIGINT)" % value
    if isinstance(value, float):
        return "CAST(%r AS DOUBLE)" % value
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, str):
        return "'%s'" % value.replace("'", "''")
    if isinstance(value, datetime.datetime):
        return "TIMESTAMP '%s'" % value.isoformat(sep=" ")
    if isinstance(value, datetime.date):
        return "DATE '%s'" % value.isoformat()
    raise NotImplementedError("lit(%r): a literal of type %s is not supported by "
                              "pyflink_on_spark yet" % (value, type(value).__name__))


def expression_of(value: Any) -> 'Expression':
    """An Expression, or a Python value as its literal (PyFlink's lit)."""
    return value if isinstance(value, Expression) else Expression(literal_sql(value))


# the Table API's `+` of two expressions (Flink's `plus`), as the SQL translator reads it
TABLE_PLUS = "__TABLE_PLUS"


def combined(sql: str, *parts: 'Expression') -> 'Expression':
    """A new expression over `parts`: the columns and aggregate calls they read are its."""
    refs: Tuple[str, ...] = ()
    reads: Tuple[str, ...] = ()
    aggregates: Tuple[str, ...] = ()
    over_aliases: Tuple[str, ...] = ()
    for p in parts:
        _refuse_ordering(p)
        refs += p.refs
        reads += p.reads
        aggregates += p.aggregates
        over_aliases += p.over_aliases
    result = Expression(sql, refs=refs, aggregates=aggregates, reads=reads)
    result.over_aliases = over_aliases
    return result


def _refuse_ordering(e: 'Expression') -> None:
    if e.ordering is not None:
        raise ValueError("%s: asc / desc is for order_by only" % e.sql)


def _function(name: str):
    """A method calling the Flink SQL function `name` on the expression and arguments."""
    def call(self, *args) -> 'Expression':
        parts = [self] + [expression_of(a) for a in args]
        return combined("%s(%s)" % (name, ", ".join(p.sql for p in parts)), *parts)
    call.__name__ = name.lower()
    return call


def _aggregate(function: str):
    def aggregate(self) -> 'Expression':
        if self.aggregates:
            raise ValueError("%s(%s): an aggregate of an aggregate" % (function, self.sql))
        _refuse_ordering(self)
        return Expression("%s(%s)" % (function, self.sql), aggregates=None,
                          aggregate_call=(function, self.sql), reads=self.reads)
    aggregate.__name__ = function.lower()
    return property(aggregate)


class Expression(object):
    """`sql`: its Flink SQL text (without its alias); `name`: the column it names (a column
    reference or an alias; a select keeps that name); `refs`: the columns it reads outside aggregate calls;
    `aggregates`: the SQL of its aggregate calls, in order; `aggregate_call`: (function,
    argument SQL) when it is one aggregate call; `ordering`: 'ASC' / 'DESC' for order_by;
    `reads`: every column it reads (inside aggregate calls too)."""

    # a table function's call (pyflink.table.udf.udtf): the names its alias gives the
    # function's columns (join_lateral), () without one; None for any other expression
    udtf_aliases: Optional[Tuple[str, ...]] = None
    # a Python function's call: (its wrapper, its argument expressions), for Table.map and
    # Table.flat_map, which run the function themselves
    udf_call: Optional[tuple] = None
    # a Python aggregate function's call renamed by alias: all its names (Table.aggregate
    # names a ROW result's columns so); None for any other expression
    aggregate_aliases: Optional[Tuple[str, ...]] = None
    # an interval literal's SQL (lit(5).seconds), for group windows; None for others
    interval_sql: Optional[str] = None
    # an over window's frame bound (row_interval(2), CURRENT_ROW...): (ROWS / RANGE, its SQL)
    over_bound: Optional[Tuple[str, str]] = None
    # the over windows it calls aggregates over (`.over(col('w'))`), by alias
    over_aliases: Tuple[str, ...] = ()

    def __init__(self, sql: str, name: Optional[str] = None, refs: Tuple[str, ...] = (),
                 aggregates: Optional[Tuple[str, ...]] = (),
                 aggregate_call: Optional[Tuple[str, str]] = None,
                 ordering: Optional[str] = None, reads: Optional[Tuple[str, ...]] = None) \
            -> None:
        self.sql = sql
        self.name = name
        self.refs = tuple(refs)
        self.aggregates = (sql,) if aggregates is None else tuple(aggregates)
        self.aggregate_call = aggregate_call
        self.ordering = ordering
        self.reads = self.refs if reads is None else tuple(reads)
        self.cast_name = False      # whether `name` is a cast's name-TYPE (cast)
        # the column pairs it equates in a conjunction (`a == b & c > 1`: (a, b)), which
        # makes a join predicate an equi-join
        self.equalities: Tuple[Tuple[str, str], ...] = ()

    def _binary(self, op: str, other: Any) -> 'Expression':
        other = expression_of(other)
        result = combined("(%s %s %s)" % (self.sql, op, other.sql), self, other)
        if op == "=" and self.is_column and other.is_column:
            result.equalities = ((self.name, other.name),)
        elif op == "AND":
            result.equalities = self.equalities + other.equalities
        return result

    @property
    def is_column(self) -> bool:
        """Whether it is a plain column reference (col('a'))."""
        return self.name is not None and self.refs == (self.name,) and \
            self.sql == "`%s`" % self.name.replace("`", "``")

    def _reflected(self, op: str, other: Any) -> 'Expression':
        other = expression_of(other)
        return combined("(%s %s %s)" % (other.sql, op, self.sql), other, self)

    def _postfix(self, text: str) -> 'Expression':
        return combined("(%s %s)" % (self.sql, text), self)

    # PyFlink's + with a string concatenates (seen: col('s') + 'x' is 'applex', NULL for NULL);
    # of two expressions it is Flink's `plus`, typed when the query is translated (a string
    # on the left concatenates: table/sql/functions.py TABLE_PLUS)
    def __add__(self, other):
        if isinstance(other, str):
            return _function("CONCAT")(self, other)
        if isinstance(other, Expression):
            return _function(TABLE_PLUS)(self, other)
        return self._binary("+", other)

    def __radd__(self, other):
        if isinstance(other, str):
            return _function("CONCAT")(expression_of(other), self)
        return self._reflected("+", other)
    def __sub__(self, other): return self._binary("-", other)
    def __rsub__(self, other): return self._reflected("-", other)
    def __mul__(self, other): return self._binary("*", other)
    def __rmul__(self, other): return self._reflected("*", other)
    def __truediv__(self, other): return self._binary("/", other)
    def __rtruediv__(self, other): return self._reflected("/", other)
    def __mod__(self, other): return self._binary("%", other)
    def __rmod__(self, other): return self._reflected("%", other)
    def __pow__(self, other): return self._power(other)
    def __rpow__(self, other): return expression_of(other)._power(self)
    def __eq__(self, other): return self._binary("=", other)
    def __ne__(self, other): return self._binary("<>", other)
    def __lt__(self, other): return self._binary("<", other)
    def __le__(self, other): return self._binary("<=", other)
    def __gt__(self, other): return self._binary(">", other)
    def __ge__(self, other): return self._binary(">=", other)
    def __and__(self, other): return self._binary("AND", other)
    def __rand__(self, other): return self._reflected("AND", other)
    def __or__(self, other): return self._binary("OR", other)
    def __ror__(self, other): return self._reflected("OR", other)
    # PyFlink's ~ is isNotTrue: TRUE for NULL (NOT would give NULL)
    def __invert__(self): return self._postfix("IS NOT TRUE")
    def __neg__(self): return combined("(- %s)" % self.sql, self)
    def __abs__(self): return self.abs
    __hash__ = object.__hash__

    def alias(self, name: str, *extra_names: str) -> 'Expression':
        if self.udtf_aliases is not None:      # a table function's columns
            renamed = Expression(self.sql, None, self.refs, self.aggregates, reads=self.reads)
            renamed.udtf_aliases = (name,) + extra_names
            return renamed
        if self.udf_call is not None and self.udf_call[0].kind == 'aggregate':
            # a udaf's call: several names are its ROW's columns (Table.aggregate)
            named = Expression(self.sql, None if extra_names else name, self.refs,
                               self.aggregates, self.aggregate_call, reads=self.reads)
            named.udf_call = self.udf_call
            named.aggregate_aliases = (name,) + extra_names
            return named
        if extra_names:
            raise NotImplementedError("Expression.alias with several names is not supported "
                                      "by pyflink_on_spark yet (except for a table "
                                      "function's call in join_lateral)")
        _refuse_ordering(self)
        named = Expression(self.sql, name, self.refs, self.aggregates, self.aggregate_call,
                           reads=self.reads)
        named.over_aliases = self.over_aliases
        return named

    @property
    def named_sql(self) -> str:
        """Its SQL as a select item: `sql AS name` when it names a column."""
        if self.name is None:
            return self.sql
        return "%s AS `%s`" % (self.sql, self.name.replace("`", "``"))

    # -- predicates -----------------------------------------------------------------------

    @property
    def is_null(self) -> 'Expression': return self._postfix("IS NULL")
    @property
    def is_not_null(self) -> 'Expression': return self._postfix("IS NOT NULL")
    @property
    def is_true(self) -> 'Expression': return self._postfix("IS TRUE")
    @property
    def is_false(self) -> 'Expression': return self._postfix("IS FALSE")
    @property
    def is_not_true(self) -> 'Expression': return self._postfix("IS NOT TRUE")
    @property
    def is_not_false(self) -> 'Expression': return self._postfix("IS NOT FALSE")

    def between(self, lower_bound, upper_bound) -> 'Expression':
        low, high = expression_of(lower_bound), expression_of(upper_bound)
        return combined("(%s BETWEEN %s AND %s)" % (self.sql, low.sql, high.sql),
                        self, low, high)

    def not_between(self, lower_bound, upper_bound) -> 'Expression':
        low, high = expression_of(lower_bound), expression_of(upper_bound)
        return combined("(%s NOT BETWEEN %s AND %s)" % (self.sql, low.sql, high.sql),
                        self, low, high)

    def in_(self, first_element_or_table, *remaining_elements) -> 'Expression':
        if not isinstance(first_element_or_table, (Expression, int, float, str, bool,
                                                   decimal.Decimal, datetime.date)) \
                and first_element_or_table is not None:
            raise NotImplementedError("Expression.in_(Table) is not supported by "
                                      "pyflink_on_spark yet: pass the values")
        items = [expression_of(e) for e in (first_element_or_table,) + remaining_elements]
        return combined("(%s IN (%s))" % (self.sql, ", ".join(i.sql for i in items)),
                        self, *items)

    def like(self, pattern=None) -> 'Expression':
        return self._binary("LIKE", pattern)

    def then(self, if_true, if_false) -> 'Expression':
        from pyflink_on_spark.table.expressions import if_then_else
        return if_then_else(self, if_true, if_false)

    def if_null(self, null_replacement) -> 'Expression':
        return _function("COALESCE")(self, null_replacement)

    # -- conversions ----------------------------------------------------------------------

    def cast(self, data_type) -> 'Expression':
        type_sql = _type_sql(data_type)
        cast = combined("CAST(%s AS %s)" % (self.sql, _nullable_type(type_sql)), self)
        # Flink names a cast of a column or an alias `name-TYPE`, a cast of a cast not (seen)
        if self.name is not None and not self.cast_name:
            cast.name = "%s-%s" % (self.name, type_sql)
            cast.cast_name = True
        return cast

    def try_cast(self, data_type) -> 'Expression':
        return combined("TRY_CAST(%s AS %s)" % (self.sql, _nullable_type(_type_sql(data_type))),
                        self)

    # -- numbers --------------------------------------------------------------------------

    abs = property(_function("ABS"))
    sqrt = property(_function("SQRT"))
    exp = property(_function("EXP"))
    ln = property(_function("LN"))
    log10 = property(_function("LOG10"))
    sign = property(_function("SIGN"))
    round = _function("ROUND")
    _power = _function("POWER")      # ** (PyFlink has no power method)

    def floor(self, time_interval_unit=None) -> 'Expression':
        return self._rounded("FLOOR", time_interval_unit)

    def ceil(self, time_interval_unit=None) -> 'Expression':
        return self._rounded("CEIL", time_interval_unit)

    def _rounded(self, function: str, unit) -> 'Expression':
        if unit is not None:
            raise NotImplementedError("Expression.%s(TimeIntervalUnit) is not supported by "
                                      "pyflink_on_spark yet" % function.lower())
        return _function(function)(self)

    # -- strings --------------------------------------------------------------------------

    upper_case = property(_function("UPPER"))
    lower_case = property(_function("LOWER"))
    char_length = property(_function("CHAR_LENGTH"))
    init_cap = property(_function("INITCAP"))
    reverse = property(_function("REVERSE"))
    ltrim = property(_function("LTRIM"))
    rtrim = property(_function("RTRIM"))
    md5 = property(_function("MD5"))
    replace = _function("REPLACE")
    repeat = _function("REPEAT")
    lpad = _function("LPAD")
    rpad = _function("RPAD")
    left = _function("LEFT")
    right = _function("RIGHT")
    regexp_replace = _function("REGEXP_REPLACE")
    regexp_extract = _function("REGEXP_EXTRACT")

    def substring(self, begin_index, length=None) -> 'Expression':
        args = (begin_index,) if length is None else (begin_index, length)
        return _function("SUBSTRING")(self, *args)

    substr = substring

    def trim(self, character=None) -> 'Expression':
        return self._trim("BOTH", character)

    def trim_leading(self, character=None) -> 'Expression':
        return self._trim("LEADING", character)

    def trim_trailing(self, character=None) -> 'Expression':
        return self._trim("TRAILING", character)

    def _trim(self, side: str, character) -> 'Expression':
        c = expression_of(" " if character is None else character)
        return combined("TRIM(%s %s FROM %s)" % (side, c.sql, self.sql), c, self)

    def position(self, haystack) -> 'Expression':
        h = expression_of(haystack)
        return combined("POSITION(%s IN %s)" % (self.sql, h.sql), self, h)

    # -- aggregates -----------------------------------------------------------------------

    sum = _aggregate("SUM")
    min = _aggregate("MIN")
    max = _aggregate("MAX")
    count = _aggregate("COUNT")
    avg = _aggregate("AVG")

    @property
    def distinct(self) -> 'Expression':
        """`col('a').count.distinct`: the aggregate over distinct values."""
        if self.aggregate_call is None or self.name is not None:
            raise ValueError("%s.distinct: distinct applies to an aggregate call "
                             "(col('a').count.distinct)" % self.sql)
        function, argument = self.aggregate_call
        return Expression("%s(DISTINCT %s)" % (function, argument), aggregates=None,
                          aggregate_call=(function, "DISTINCT " + argument), reads=self.reads)

    # -- order_by -------------------------------------------------------------------------

    @property
    def asc(self) -> 'Expression':
        return Expression(self.sql, refs=self.refs, aggregates=self.aggregates,
                          ordering="ASC", reads=self.reads)

    @property
    def desc(self) -> 'Expression':
        return Expression(self.sql, refs=self.refs, aggregates=self.aggregates,
                          ordering="DESC", reads=self.reads)

    # -- intervals and group window properties (Table.window, table/window.py) ------------

    def _interval(self, unit: str, milliseconds: bool = False) -> 'Expression':
        """lit(5).seconds: INTERVAL '5' SECOND (a literal count only)."""
        try:
            count = int(self.sql)
        except ValueError:
            raise NotImplementedError(
                "%s.%s: pyflink_on_spark takes intervals of an integer literal (lit(5).seconds)"
                % (self.sql, unit.lower())) from None
        text = ("%d.%03d" % divmod(count, 1000)) if milliseconds else str(count)
        interval = Expression("INTERVAL '%s' %s" % (text, unit))
        interval.interval_sql = interval.sql
        return interval

    @property
    def millis(self) -> 'Expression': return self._interval("SECOND", milliseconds=True)
    milli = millis
    @property
    def seconds(self) -> 'Expression': return self._interval("SECOND")
    second = seconds
    @property
    def minutes(self) -> 'Expression': return self._interval("MINUTE")
    minute = minutes
    @property
    def hours(self) -> 'Expression': return self._interval("HOUR")
    hour = hours
    @property
    def days(self) -> 'Expression': return self._interval("DAY")
    day = days

    def _window_property(self, kind: str) -> 'Expression':
        """col('w').start of a group window aliased 'w': a marker the window's select
        replaces by TUMBLE_START(...) (table/window_tables.py)."""
        if not self.is_column:
            raise NotImplementedError("%s.%s: a group window property is read from the "
                                      "window's alias (col('w').%s)" % (self.sql, kind, kind))
        return Expression("WINDOW_PROPERTY_%s(%s)" % (kind.upper(), self.sql), aggregates=())

    @property
    def start(self) -> 'Expression': return self._window_property("start")
    @property
    def end(self) -> 'Expression': return self._window_property("end")
    @property
    def rowtime(self) -> 'Expression': return self._window_property("rowtime")
    @property
    def proctime(self) -> 'Expression': return self._window_property("proctime")

    # -- JSON functions (as Flink SQL's: table/sql/json_syntax.py) ---------------------

    def is_json(self, json_type: Optional[JsonType] = None) -> 'Expression':
        kind = (json_type or JsonType.VALUE).name
        return combined("(%s IS JSON %s)" % (self.sql, kind), self)

    def json_exists(self, path: str, on_error: Optional[JsonExistsOnError] = None) \
            -> 'Expression':
        clause = "" if on_error is None else " %s ON ERROR" % on_error.name
        return combined("JSON_EXISTS(%s, %s%s)" % (self.sql, literal_sql(path), clause), self)

    def json_value(self, path: str, returning_type=None,
                   on_empty: JsonValueOnEmptyOrError = JsonValueOnEmptyOrError.NULL,
                   default_on_empty: Any = None,
                   on_error: JsonValueOnEmptyOrError = JsonValueOnEmptyOrError.NULL,
                   default_on_error: Any = None) -> 'Expression':
        parts = [self]

        def behaviour(kind: JsonValueOnEmptyOrError, default: Any, what: str) -> str:
            if kind is JsonValueOnEmptyOrError.DEFAULT:
                value = expression_of(default)
                parts.append(value)
                return "DEFAULT %s ON %s" % (value.sql, what)
            return "%s ON %s" % (kind.name, what)
        type_sql = "STRING" if returning_type is None else _nullable_type(
            _type_sql(returning_type))
        sql = "JSON_VALUE(%s, %s RETURNING %s %s %s)" % (
            self.sql, literal_sql(path), type_sql,
            behaviour(on_empty, default_on_empty, "EMPTY"),
            behaviour(on_error, default_on_error, "ERROR"))
        return combined(sql, *parts)

    def json_query(self, path: str, wrapping_behavior=None, on_empty=None, on_error=None) \
            -> 'Expression':
        wrapper = _QUERY_WRAPPER_SQL[(wrapping_behavior or JsonQueryWrapper.WITHOUT_ARRAY).name]
        empty = (on_empty or JsonQueryOnEmptyOrError.NULL).name.replace("_", " ")
        error = (on_error or JsonQueryOnEmptyOrError.NULL).name.replace("_", " ")
        return combined("JSON_QUERY(%s, %s %s %s ON EMPTY %s ON ERROR)" % (
            self.sql, literal_sql(path), wrapper, empty, error), self)

    def over(self, alias) -> 'Expression':
        """`col('x').sum.over(col('w'))`: the aggregate over the over window aliased w
        (Table.over_window)."""
        if self.aggregate_call is None or self.name is not None:
            raise NotImplementedError("%s.over(...): pyflink_on_spark calls an aggregate "
                                      "(col('x').sum) over an over window" % self.sql)
        if not getattr(alias, "is_column", False):
            raise TypeError("Expression.over takes the over window's alias (col('w')), got "
                            "%r" % (alias,))
        over = Expression("%s OVER %s" % (self.sql, alias.sql), refs=self.reads,
                          reads=self.reads)
        over.over_aliases = (alias.name,)
        return over

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(
            "Expression.%s is not supported by pyflink_on_spark yet (docs/table.md lists the "
            "expression methods that run)" % name)

    def __str__(self) -> str:
        return self.sql

    def __repr__(self) -> str:
        return "Expression(%s)" % self.sql


def _type_sql(data_type) -> str:
    """A DataType (DataTypes.INT()...) as Flink SQL type text."""
    from pyflink_on_spark.table.sql import flink_type_string
    if isinstance(data_type, str):
        return data_type
    return flink_type_string(data_type)


def _nullable_type(type_sql: str) -> str:
    """A type as a CAST's target (a NOT NULL literal stays NOT NULL through the cast)."""
    return type_sql[:-len(" NOT NULL")] if type_sql.endswith(" NOT NULL") else type_sql
