"""to_spark_sql: a Flink SQL query as Spark SQL with the same meaning, or UnsupportedSqlError
naming the construct that has none here.

How: window TVFs become placeholder tables (windows.py); sqlglot parses the rest with a Flink
dialect in which every function is an anonymous call, so each one is translated from the table
in functions.py or refused; a small scope walk types every expression the way Flink does, and
casts Spark's results where the two engines type them differently (integer division, SUM and
AVG of integers, FLOOR/CEIL of doubles). Table names stay as they are: the caller registers
each input as a Spark temporary view of the same name."""
from dataclasses import dataclass
from decimal import Decimal
import math
import re
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

import sqlglot
from sqlglot import exp, parser, tokens
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError

from pyflink_on_spark.table.sql.reserved_words import refuse_reserved_identifiers
from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.sql.collection_functions import (
    NULL_ARGUMENT_FUNCTIONS, array_value, map_value)
from pyflink_on_spark.table.sql.flink_types import (
    as_materialized, as_rowtime, flink_type_string, is_materialized, is_rowtime, parse_column_type,
    parse_type, spark_type_string)
from pyflink_on_spark.table.sql.functions import (
    AGGREGATES, call, cast, is_builtin, lit, niladic, translate_function, try_cast_text)
from pyflink_on_spark.table.sql import over_windows
from pyflink_on_spark.table.sql.column_names import result_select, unique_projections
from pyflink_on_spark.table.sql.json_syntax import rewrite_json_syntax
from pyflink_on_spark.table.sql.statements import Column as DdlColumn
from pyflink_on_spark.table.sql.tokens import tokenize
from pyflink_on_spark.table.sql.udf_calls import (
    LATERAL_TABLE, FunctionSignature, find_function, function_call, lateral_view,
    mark_lateral_tables, table_call)
from pyflink_on_spark.table.sql.arithmetic import (
    OPERATORS, arithmetic, negation, slice_id, sliced_sum)
from pyflink_on_spark.table.sql.typing_rules import (
    ILLEGAL_NULL, boolean_of, cannot_apply, common_type, is_integral, is_numeric, is_string,
    is_timestamp, literal_number_type)
from pyflink_on_spark.table.sql.windows import (
    WindowTvf, extract_window_tvfs, interval_millis, spark_duration)
from pyflink_on_spark.table.types import (
    ArrayType, CharType, DataType, DataTypes, DecimalType, DoubleType, FloatType, IntType,
    LocalZonedTimestampType, MapType, RowType, SmallIntType, TimestampType, TinyIntType,
    VarCharType)

__all__ = ['to_spark_sql', 'translate_query', 'SparkQuery']

ColumnSpec = Union[Tuple[str, str], DdlColumn]
Columns = Sequence[ColumnSpec]


def _truncated_fraction(casted: exp.Expression, source: Optional[DataType],
                        target: DataType) -> exp.Expression:
    """A cast to TIMESTAMP(p) / TIMESTAMP_LTZ(p) with p < 6 keeps p digits of the second's
    fraction, the rest cut (seen on PyFlink 1.20.5: CAST('... 00:00:01.987654' AS
    TIMESTAMP(3)) is .987, AS TIMESTAMP(0) :01, of a TIMESTAMP(6) too; TIMESTAMP_LTZ(0) of
    1.987 s is 1 s); Spark's timestamps keep microseconds. Nothing to cut from a timestamp
    of at most p digits."""
    if not isinstance(target, (TimestampType, LocalZonedTimestampType)) or \
            target.precision >= 6:
        return casted
    if isinstance(source, (TimestampType, LocalZonedTimestampType)) and \
            source.precision <= target.precision:
        return casted
    if isinstance(target, LocalZonedTimestampType):
        # an instant: its microseconds since the epoch, cut (pmod: before 1970 too)
        micros = call('unix_micros', casted)
        step = exp.Literal.number(10 ** (6 - target.precision))
        return call('timestamp_micros', exp.Sub(this=micros, expression=call(
            'pmod', micros, step)))
    # a wall-clock time (TIMESTAMP_NTZ): written with p digits and read back, no time zone
    pattern = exp.Literal.string('yyyy-MM-dd HH:mm:ss' + (
        '.' + 'S' * target.precision if target.precision else ''))
    return call('to_timestamp_ntz', call('date_format', casted, pattern), pattern)


class _FlinkDialect(Dialect):
    """Flink SQL as sqlglot reads it: backquoted identifiers, every function anonymous."""

    class Tokenizer(tokens.Tokenizer):
        IDENTIFIERS = ['`']
        QUOTES = ["'"]

    class Parser(parser.Parser):
        FUNCTIONS: Dict = {}
        NO_PAREN_FUNCTIONS: Dict = {}
        # only the calls with SQL's own argument syntax keep their parsers
        FUNCTION_PARSERS = {k: v for k, v in parser.Parser.FUNCTION_PARSERS.items()
                            if k in ('CAST', 'TRY_CAST', 'SUBSTRING', 'TRIM', 'EXTRACT',
                                     'POSITION')}


@dataclass(frozen=True)
class SparkQuery:
    """The translation: Spark SQL text and the result columns as (name, Flink type string)."""
    sql: str
    columns: Tuple[Tuple[str, str], ...]
    # what a STREAMING query fails with when it runs (not when it is made), in Flink's words
    # with its exception class: a window over a column that is no time attribute
    failure: Optional[str] = None
    # whether it computes OVER windows (over_windows.py: bounded inputs only)
    over_window: bool = False
    # the query with its rows in the order Flink's STREAMING OVER windows emit them (None: no
    # such order; over_windows.emit_ordered)
    emit_ordered_sql: Optional[str] = None
    # the ranking function it calls OVER a window (ROW_NUMBER, RANK, DENSE_RANK), which runs
    # in BATCH mode: STREAMING mode plans it as Flink's Top-N / deduplication, a changelog
    ranking: Optional[str] = None
    # the result columns an aggregate made of a rowtime (flink_types.as_materialized)
    materialized: Tuple[str, ...] = ()


# Node types that mean the same in both engines once their children are translated
_PASS_THROUGH = (exp.And, exp.Or, exp.Not, exp.Paren, exp.Neg, exp.EQ, exp.NEQ, exp.GT,
                 exp.GTE, exp.LT, exp.LTE, exp.Is, exp.Like, exp.In, exp.Between,
                 exp.Null, exp.Boolean, exp.Case, exp.If, exp.Ordered, exp.Interval, exp.Var,
                 exp.Identifier, exp.DataType, exp.Star, exp.Tuple, exp.NullSafeEQ,
                 exp.NullSafeNEQ)

_SESSION_CALL = '_SESSION_GROUP_WINDOW'
_NARROW_INT_BITS = {TinyIntType: 8, SmallIntType: 16, IntType: 32}
_REFUSED_WORDS = {
    'MATCH_RECOGNIZE': 'MATCH_RECOGNIZE (pattern recognition)',
    'UNNEST': 'UNNEST',
}


def _column_specs(columns: Columns) -> List[Tuple[str, DataType]]:
    out = []
    for c in columns:
        if isinstance(c, DdlColumn):
            if c.data_type is None:
                raise ValueError('computed column %s needs its type for translation' % c.name)
            out.append((c.name, parse_type(c.data_type)))
        else:
            name, type_string = c
            out.append((name, parse_column_type(type_string)))
    return out


class _Source:
    """One FROM item: its qualifier and columns."""

    def __init__(self, qualifier: Optional[str], columns: List[Tuple[str, DataType]]):
        self.qualifier = qualifier
        self.columns = columns


class _Scope:
    def __init__(self, sources: List[_Source], outer: Optional['_Scope'] = None):
        self.sources = sources
        self.outer = outer
        self.aliases: Dict[str, DataType] = {}   # select aliases (usable in ORDER BY)
        self.using: Tuple[str, ...] = ()         # JOIN ... USING columns: one column each

    def resolve(self, name: str, qualifier: Optional[str]) -> Optional[DataType]:
        scope = self
        while scope is not None:
            hits = []
            for s in scope.sources:
                if qualifier is not None and s.qualifier != qualifier:
                    continue
                hits.extend(t for n, t in s.columns if n == name)
            if len(hits) > 1 and not (qualifier is None and name in scope.using):
                raise SqlValidationError("Column '%s' is ambiguous" % name)
            if hits:
                return hits[0]
            scope = scope.outer
        return None


class _Translator:
    def __init__(self, tables: Mapping[str, Columns], windows: Dict[str, WindowTvf],
                 functions: Optional[Mapping[str, FunctionSignature]] = None):
        self.functions = functions or {}             # user-defined functions (udf_calls.py)
        self.var_types: Dict[int, DataType] = {}     # types of pre-translated Spark text
        self.failure: Optional[str] = None           # SparkQuery.failure
        self.over_keys: List[str] = []               # the OVER windows (over_windows.py)
        self.ranking: Optional[str] = None           # SparkQuery.ranking
        self.over_windows: List[over_windows.OverWindow] = []
        self.tables = {name: _column_specs(cols) for name, cols in tables.items()}
        self.windows = windows
        self.result_select: Optional[exp.Select] = None   # whose names are the result's
        # the SELECT's window slices (Spark SQL of a row's slice, merged backward?): a HOP or
        # CUMULATE window aggregate sums FLOAT / DOUBLE by slices, as Flink (sliced_sum)
        self.slicing: Optional[Tuple[str, bool]] = None
        self.streaming = False
        self.ctes: Dict[str, List[Tuple[str, DataType]]] = {}
        for placeholder, tvf in windows.items():
            self.tables[placeholder] = self._window_columns(tvf)

    # -- window TVFs
    def _window_columns(self, tvf: WindowTvf) -> List[Tuple[str, DataType]]:
        if tvf.table not in self.tables:
            raise SqlValidationError("Object '%s' not found" % tvf.table)
        cols = self.tables[tvf.table]
        time_type = dict(cols).get(tvf.time_column)
        if time_type is None:
            raise SqlValidationError("Unknown identifier '%s'" % tvf.time_column)
        if not is_timestamp(time_type):
            raise SqlValidationError(
                'The window function requires the timecol is a time attribute type, but is %s.'
                % flink_type_string(time_type))
        if not is_rowtime(time_type) and self.failure is None:
            # seen on PyFlink 1.20.5 (STREAMING): accepted by sql_query, refused when it runs
            self.failure = ('org.apache.flink.table.api.ValidationException: The window '
                            'function requires the timecol is a time attribute type, but is '
                            '%s.' % _calcite_type(time_type))
        if tvf.offset_ms:
            # seen on PyFlink 1.20.5: an offset TUMBLE over rows 0..24 s gave only the
            # windows from 13 s on; without a clear reference it is not translated
            raise UnsupportedSqlError('The window offset argument of %s is not supported by '
                                      'pyflink_on_spark' % tvf.kind)
        if tvf.kind == 'CUMULATE' and tvf.size_ms % tvf.slide_ms:
            raise SqlValidationError('CUMULATE: the max size (%d ms) must be an integral '
                                     'multiple of the step (%d ms)'
                                     % (tvf.size_ms, tvf.slide_ms))
        window_time = (DataTypes.TIMESTAMP_LTZ(3) if isinstance(time_type,
                                                                LocalZonedTimestampType)
                       else DataTypes.TIMESTAMP(3))
        if is_rowtime(time_type):   # a window over a rowtime attribute: window_time is one,
            # NOT NULL (seen on PyFlink 1.20.5: `window_time` TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*)
            window_time = as_rowtime(window_time.not_null())
        return cols + [('window_start', DataTypes.TIMESTAMP(3, False)),
                       ('window_end', DataTypes.TIMESTAMP(3, False)),
                       ('window_time', window_time)]

    def window_table_sql(self, tvf: WindowTvf) -> str:
        if tvf.kind == 'SESSION':     # the aggregation itself groups by session_window()
            return _q(tvf.table)
        cols = self.tables[tvf.table]
        ltz = isinstance(dict(cols)[tvf.time_column], LocalZonedTimestampType)
        args = [_q(tvf.time_column), "'%s'" % spark_duration(tvf.size_ms)]
        if tvf.kind == 'HOP':
            args.append("'%s'" % spark_duration(tvf.slide_ms))
        names = ', '.join(_q(n) for n, _ in cols)
        if tvf.kind == 'CUMULATE':
            # the windows of one max-size tumbling window: [start, start + k * step) for
            # k = 1 .. size / step, each holding the rows before its end
            step = "INTERVAL '%s' SECOND" % (Decimal(tvf.slide_ms) / 1000)
            start, end = '`$ws`', '(`$ws` + `$k` * %s)' % step
            inner = ("(SELECT *, window(%s).start AS `$ws` FROM %s) LATERAL VIEW explode("
                     "sequence(1, %d)) `$kv` AS `$k` WHERE %s < %s"
                     % (', '.join(args), _q(tvf.table), tvf.size_ms // tvf.slide_ms,
                        _q(tvf.time_column), end))
        else:
            start, end = '`$w`.start', '`$w`.end'
            inner = '(SELECT *, window(%s) AS `$w` FROM %s)' % (', '.join(args),
                                                               _q(tvf.table))
        window_time = "%s - INTERVAL '0.001' SECOND" % end
        if ltz:   # Flink's window_start / window_end are wall-clock times in the session zone
            start, end = 'CAST(%s AS TIMESTAMP_NTZ)' % start, 'CAST(%s AS TIMESTAMP_NTZ)' % end
        return ('(SELECT %s, %s AS window_start, %s AS window_end, %s AS window_time FROM %s)'
                % (names, start, end, window_time, inner))

    # -- queries
    def query(self, node: exp.Expression, outer: Optional[_Scope]) -> List[Tuple[str, DataType]]:
        if isinstance(node, exp.Subquery):
            return self.query(node.this, outer)
        if isinstance(node, (exp.Union, exp.Intersect, exp.Except)):
            # EXCEPT / INTERSECT [ALL]: Spark's set semantics are Flink's (NULLs equal,
            # duplicates as in the SQL standard; seen on PyFlink 1.20.5 via Table.minus...)
            left = self.query(node.left, outer)
            right = self.query(node.right, outer)
            if len(left) != len(right):
                raise SqlValidationError('Column count mismatch in %s'
                                         % type(node).__name__.upper())
            return left
        if isinstance(node, exp.Select):
            return self.select(node, outer)
        if isinstance(node, exp.Values):
            return self.values(node)
        raise UnsupportedSqlError('The SQL construct %s is not supported by pyflink_on_spark'
                                  % type(node).__name__)

    def values(self, node: exp.Values) -> List[Tuple[str, DataType]]:
        rows = node.expressions
        names = [c.name for c in node.args['alias'].columns] if node.args.get('alias') \
            else ['EXPR$%d' % i for i in range(len(rows[0].expressions))]
        scope = _Scope([])
        row_types = [[self.expr(e, scope)[1] for e in row.expressions] for row in rows]
        types = row_types[0]
        for i, dt in enumerate(types):
            if dt is None:      # a NULL in the first row: the column's type from another row
                dt = next((r[i] for r in row_types[1:] if i < len(r) and r[i] is not None),
                          None)
                if dt is None:
                    _untyped(rows[0].expressions[i])
                types[i] = dt.nullable()
        return list(zip(names, types))

    def source(self, node: exp.Expression, outer: Optional[_Scope]) -> _Source:
        if isinstance(node, exp.Table):
            if node.args.get('version') is not None:
                raise UnsupportedSqlError('Temporal joins (FOR SYSTEM_TIME AS OF) are not '
                                          'supported by pyflink_on_spark')
            name = '.'.join(p.name for p in node.parts)
            if name in self.ctes:
                cols = self.ctes[name]
            elif name in self.tables:
                cols = self.tables[name]
            else:
                raise SqlValidationError("Object '%s' not found" % name)
            alias = node.args.get('alias')
            if alias is not None and alias.columns:
                cols = [(c.name, t) for c, (_, t) in zip(alias.columns, cols)]
            qualifier = node.alias or node.name
            return _Source(qualifier, cols)
        if isinstance(node, exp.Subquery):
            cols = self.query(node.this, outer)
            alias = node.args.get('alias')
            if alias is not None and alias.columns:
                cols = [(c.name, t) for c, (_, t) in zip(alias.columns, cols)]
            return _Source(node.alias or None, cols)
        if isinstance(node, exp.Values):
            cols = self.values(node)
            return _Source(node.alias or None, cols)
        if isinstance(node, exp.Lateral):
            raise UnsupportedSqlError('LATERAL TABLE (table functions) is not supported by '
                                      'pyflink_on_spark')
        raise UnsupportedSqlError('The FROM item %s is not supported by pyflink_on_spark'
                                  % type(node).__name__)

    def lateral(self, join: exp.Join, scope: _Scope, laterals: list) -> _Source:
        """`[CROSS] JOIN | , LATERAL TABLE(f(args)) [AS T(a, b)]` and `LEFT JOIN LATERAL
        TABLE(...) ON TRUE` as Spark's LATERAL VIEW [OUTER] (udf_calls.py)."""
        node = join.this
        call = node.this
        if not (isinstance(call, exp.Anonymous) and call.name == LATERAL_TABLE
                and len(call.expressions) == 1):
            raise UnsupportedSqlError('LATERAL %s is not supported by pyflink_on_spark '
                                      '(LATERAL TABLE(table function) is)' % call.sql())
        signature = table_call(self.functions, call.expressions[0], is_builtin)
        side = (join.args.get('side') or '').upper()
        on = join.args.get('on')
        if side not in ('', 'LEFT') or (on is not None and not (
                isinstance(on, exp.Boolean) and on.this is True)):
            raise UnsupportedSqlError('%s JOIN LATERAL TABLE%s is not supported by '
                                      'pyflink_on_spark (CROSS JOIN, and LEFT JOIN ... ON '
                                      'TRUE, are)' % (side or 'INNER', ' ON ' + on.sql()
                                                      if on is not None else ''))
        args = [self.expr(a, scope)[0] for a in call.expressions[0].expressions]
        view, qualifier, columns = lateral_view(signature, args, node.args.get('alias'),
                                                side == 'LEFT')
        laterals.append(view)
        return _Source(qualifier, columns)

    def select(self, node: exp.Select, outer: Optional[_Scope]) -> List[Tuple[str, DataType]]:
        saved, self.slicing = self.slicing, None     # a subquery's windows are its own
        try:
            return self._select(node, outer)
        finally:
            self.slicing = saved

    def _select(self, node: exp.Select, outer: Optional[_Scope]) -> List[Tuple[str, DataType]]:
        over_windows.inline_named_windows(node)
        with_ = node.args.get('with_') or node.args.get('with')
        if with_ is not None:
            if with_.args.get('recursive'):
                raise UnsupportedSqlError('WITH RECURSIVE is not supported by pyflink_on_spark')
            for cte in with_.expressions:
                self.ctes[cte.alias] = self.query(cte.this, outer)
        sources: List[_Source] = []
        from_ = node.args.get('from_') or node.args.get('from')
        if from_ is not None:
            sources.append(self.source(from_.this, outer))
        laterals = []
        for join in node.args.get('joins') or []:
            kind = (join.args.get('kind') or '').upper()
            if kind in ('SEMI', 'ANTI', 'ASOF'):
                raise UnsupportedSqlError('%s JOIN is not supported by pyflink_on_spark' % kind)
            if isinstance(join.this, exp.Lateral):
                sources.append(self.lateral(join, _Scope(list(sources), outer), laterals))
                continue
            if laterals:
                raise UnsupportedSqlError('a join after LATERAL TABLE is not supported by '
                                          'pyflink_on_spark: join the tables first')
            sources.append(self.source(join.this, outer))
        if laterals:       # Spark's LATERAL VIEWs follow the FROM clause's joins
            node.set('joins', [j for j in node.args['joins']
                               if not isinstance(j.this, exp.Lateral)] or None)
            node.set('laterals', laterals)
        scope = _Scope(sources, outer)
        if from_ is not None and isinstance(from_.this, exp.Table):
            tvf = self.windows.get(from_.this.name)
            if tvf is not None and tvf.kind == 'SESSION':
                self.session_tvf(node, tvf)
            if tvf is not None and tvf.kind in ('HOP', 'CUMULATE'):
                # seen on PyFlink 1.20.5 in STREAMING mode: a HOP TVF merges its slices from
                # the last, CUMULATE from the first; in BATCH mode both add row by row in
                # arrival order, as one slice (a DOUBLE too, where Spark's SUM adds
                # partitions' partial sums)
                ltz = isinstance(dict(self.tables[tvf.table])[tvf.time_column],
                                 LocalZonedTimestampType)
                self.slicing = (slice_id(_q(tvf.time_column), ltz,
                                         math.gcd(tvf.size_ms, tvf.slide_ms)),
                                tvf.kind == 'HOP') if self.streaming else ('0', False)
        for join in node.args.get('joins') or []:
            on = join.args.get('on')
            if on is not None:
                join.set('on', self.expr(on, scope)[0])
            if join.args.get('using'):
                if scope.using or len(sources) != 2:
                    raise UnsupportedSqlError('JOIN ... USING (...) is supported by '
                                              'pyflink_on_spark for one join of two tables')
                scope.using = tuple(i.name for i in join.args['using'])
        self.group_windows(node, scope)
        if node.args.get('where') is not None:
            where = node.args['where']
            where.set('this', self.expr(where.this, scope)[0])
        group = node.args.get('group')
        if group is not None:
            group.set('expressions', [self.expr(e, scope)[0] for e in group.expressions])
        having = node.args.get('having')
        if having is not None:
            having.set('this', self.expr(having.this, scope, aggregate_ok=True)[0])
        out: List[Tuple[str, DataType]] = []
        projections = []
        # an unnamed item is EXPR$<ordinal>: the ordinal counts the result's columns before
        # it (a star's each), in an aggregating select their distinct names (seen on
        # PyFlink 1.20.5: SELECT k, k, COUNT(*) ... GROUP BY k names the count EXPR$1,
        # SELECT *, UPPER(k) over three columns EXPR$3)
        aggregating = group is not None or any(
            self._aggregates(e) for e in node.expressions)
        for e in node.expressions:
            if isinstance(e, exp.Star) or (isinstance(e, exp.Column)
                                           and isinstance(e.this, exp.Star)):
                qualifier = e.table if isinstance(e, exp.Column) else None
                if qualifier is None and scope.using:
                    # the USING columns once, first, then the others (PyFlink 1.20.5, Spark)
                    left = dict(sources[0].columns)
                    out.extend((n, left[n]) for n in scope.using)
                    for s in sources:
                        out.extend(c for c in s.columns if c[0] not in scope.using)
                    projections.append(e)
                    continue
                for s in sources:
                    if qualifier is None or s.qualifier == qualifier:
                        out.extend(s.columns)
                projections.append(e)
                continue
            alias = e.alias if isinstance(e, exp.Alias) else None
            inner = e.this if isinstance(e, exp.Alias) else e
            translated, dt = self.expr(inner, scope, aggregate_ok=True)
            if alias is None:
                ordinal = len({n for n, _ in out}) if aggregating else len(out)
                # a column keeps its name, and so does a ROW column's field (`g.p` is p)
                alias = (inner.name if isinstance(inner, exp.Column)
                         and isinstance(translated, (exp.Column, exp.Dot))
                         else 'EXPR$%d' % ordinal)
            if dt is None:      # no column may leave untyped (connector_tables.flink_column)
                _untyped(inner)
            out.append((alias, dt))
            scope.aliases[alias] = dt
            projections.append(exp.alias_(translated, _ident(alias), copy=False))
        # ORDER BY names the select list's items as written, a star's columns and equal
        # names included: one named twice is ambiguous (seen on PyFlink 1.20.5: SELECT k, k
        # ... ORDER BY k, and SELECT *, k ... ORDER BY k + 1, fail with Column 'k' is
        # ambiguous; ORDER BY t.k and ORDER BY 1 run)
        listed = list(out)
        if node is self.result_select:
            # the result's equal names renamed as Flink does (SELECT k, k gives k, k0; a
            # subquery's stay: seen, SELECT k0 FROM (SELECT k, k ...) fails on PyFlink)
            projections, out = unique_projections(projections, out, sources, scope.using)
        node.set('expressions', projections)
        order = node.args.get('order')
        if order is not None:
            order_scope = _Scope([_Source(None, listed)], scope)
            order.set('expressions', [self.expr(o, order_scope, aggregate_ok=True)[0]
                                      for o in order.expressions])
        return out

    # -- SESSION window TVF: only as the input of an aggregation by the session window
    def session_tvf(self, node: exp.Select, tvf: WindowTvf) -> None:
        """Flink computes the sessions per PARTITION BY key (over all rows without one, even
        when grouped by other keys: seen on PyFlink 1.20.5); Spark's session_window() is per
        grouping key. So the query must group by window_start, window_end [, window_time]
        and exactly the PARTITION BY keys; it then groups by session_window() itself."""
        group = node.args.get('group')
        window_names = ('window_start', 'window_end', 'window_time')
        refused = UnsupportedSqlError(
            'The window function SESSION is translated by pyflink_on_spark only as the input '
            'of an aggregation grouped by window_start, window_end and exactly its PARTITION '
            'BY keys (%s)' % ', '.join(tvf.partition_keys or ['none']))
        if group is None or node.args.get('joins') or any(
                not isinstance(e, exp.Column) for e in group.expressions):
            raise refused
        names = [e.name for e in group.expressions]
        keys = {n for n in names if n not in window_names}
        if ('window_start' not in names or 'window_end' not in names
                or keys != set(tvf.partition_keys)):
            raise refused
        where = node.args.get('where')
        if where is not None and any(c.name in window_names for c in where.find_all(exp.Column)):
            raise refused
        time_type = dict(self.tables[tvf.table])[tvf.time_column]
        spark_window = "session_window(%s, '%s')" % (_q(tvf.time_column),
                                                    spark_duration(tvf.size_ms))
        parts = {'window_start': 'START', 'window_end': 'END', 'window_time': 'ROWTIME'}

        def replace(n: exp.Expression) -> exp.Expression:
            if isinstance(n, exp.Column) and n.name in parts:
                return self._window_part(spark_window, parts[n.name], time_type)
            return n
        kept = [e for e in group.expressions if e.name not in window_names]
        group.set('expressions', [exp.Var(this=spark_window)] + kept)
        node.set('expressions', [
            exp.alias_(e.transform(replace), _ident(e.name), copy=False)
            if isinstance(e, exp.Column) and e.name in parts else e.transform(replace)
            for e in node.expressions])
        for key in ('having', 'order'):
            if node.args.get(key) is not None:
                node.set(key, node.args[key].transform(replace))

    # -- group windows: GROUP BY TUMBLE(ts, size) / HOP(ts, slide, size) / SESSION(ts, gap)
    def group_windows(self, node: exp.Select, scope: _Scope) -> None:
        group = node.args.get('group')
        if group is None:
            self._refuse_window_auxiliaries(node)
            return
        windows = {}
        kept = []
        for e in group.expressions:
            if isinstance(e, exp.Anonymous) and _window_name(e) in ('TUMBLE', 'HOP', 'SESSION'):
                kind = _window_name(e)
                windows[kind] = self._group_window(kind, e.expressions, scope)
                kept.append(exp.Var(this=windows[kind][0]))
            else:
                kept.append(e)
        if len(windows) > 1:
            raise SqlValidationError('Only one window is allowed in GROUP BY')
        if not windows:
            self._refuse_window_auxiliaries(node)
            return
        kind, (spark_window, time_type, key) = next(iter(windows.items()))
        group.set('expressions', kept)

        def replace(n: exp.Expression) -> exp.Expression:
            if isinstance(n, exp.Anonymous):
                name = n.name.upper()
                for part in ('START', 'END', 'ROWTIME', 'PROCTIME'):
                    if name == '%s_%s' % (kind, part):
                        self._same_window(kind, n.expressions, key, scope)
                        return self._window_part(spark_window, part, time_type)
            return n
        node.set('expressions', [e.transform(replace) for e in node.expressions])
        if node.args.get('having') is not None:
            node.args['having'].set('this', node.args['having'].this.transform(replace))
        self._refuse_window_auxiliaries(node, allowed_kind=kind)

    def _group_window(self, kind: str, args: List[exp.Expression], scope: _Scope):
        expected = {'TUMBLE': 2, 'HOP': 3, 'SESSION': 2}[kind]
        if len(args) != expected:
            raise SqlValidationError('The group window %s takes %d arguments, found %d'
                                     % (kind, expected, len(args)))
        time_expr, time_type = self.expr(args[0], scope)
        if not is_timestamp(time_type):
            raise SqlValidationError('The group window %s needs a time attribute, found %s'
                                     % (kind, flink_type_string(time_type) if time_type else
                                        args[0].sql()))
        if not is_rowtime(time_type) and self.failure is None:
            # seen on PyFlink 1.20.5 (STREAMING): accepted by sql_query, refused when it runs
            self.failure = ('org.apache.flink.table.api.TableException: Window aggregate can '
                            'only be defined over a time attribute column, but %s encountered.'
                            % _calcite_type(time_type))
        millis = [interval_millis(a.sql(dialect=_FlinkDialect)) for a in args[1:]]
        ts = time_expr.sql(dialect='spark')
        if kind == 'TUMBLE':
            text = "window(%s, '%s')" % (ts, spark_duration(millis[0]))
        elif kind == 'HOP':     # Flink: HOP(ts, slide, size); Spark: window(ts, size, slide)
            text = "window(%s, '%s', '%s')" % (ts, spark_duration(millis[1]),
                                               spark_duration(millis[0]))
            # seen on PyFlink 1.20.5 (STREAMING and BATCH): a HOP group window merges its
            # panes from the first
            self.slicing = (slice_id(ts, isinstance(time_type, LocalZonedTimestampType),
                                     math.gcd(*millis)), False)
        else:
            text = "session_window(%s, '%s')" % (ts, spark_duration(millis[0]))
        key = (args[0].sql(), tuple(millis))
        return text, time_type, key

    def _same_window(self, kind, args, key, scope) -> None:
        millis = tuple(interval_millis(a.sql(dialect=_FlinkDialect)) for a in args[1:])
        if args[0].sql() != key[0] or millis != key[1]:
            raise SqlValidationError('%s_START/_END/_ROWTIME must name the same time column and '
                                     'intervals as the GROUP BY %s(...)' % (kind, kind))

    def _window_part(self, spark_window: str, part: str, time_type: DataType) -> exp.Expression:
        ltz = isinstance(time_type, LocalZonedTimestampType)
        if part in ('START', 'END'):
            # Flink's window start / end are wall-clock times (in the session time zone)
            text = '%s.%s' % (spark_window, part.lower())
            var = exp.Var(this='CAST(%s AS TIMESTAMP_NTZ)' % text if ltz else text)
            self.var_types[id(var)] = DataTypes.TIMESTAMP(3, False)
            return var
        if part == 'ROWTIME':
            var = exp.Var(this="(%s.end - INTERVAL '0.001' SECOND)" % spark_window)
            self.var_types[id(var)] = (DataTypes.TIMESTAMP_LTZ(3, False) if ltz
                                       else DataTypes.TIMESTAMP(3, False))
            if is_rowtime(time_type):   # nullable then (seen on PyFlink 1.20.5: TUMBLE_ROWTIME
                # of a TIMESTAMP_LTZ rowtime is `TIMESTAMP_LTZ(3) *ROWTIME*`)
                self.var_types[id(var)] = as_rowtime(self.var_types[id(var)].nullable())
            return var
        raise UnsupportedSqlError('%s: processing time windows are not supported by '
                                  'pyflink_on_spark' % part)

    @staticmethod
    def _refuse_window_auxiliaries(node: exp.Select, allowed_kind: Optional[str] = None) -> None:
        for n in node.find_all(exp.Anonymous):
            name = _window_name(n)
            head = name.split('_')[0]
            if head in ('TUMBLE', 'HOP', 'SESSION') and head != allowed_kind and (
                    name == head or name[len(head):] in ('_START', '_END', '_ROWTIME',
                                                          '_PROCTIME')):
                raise SqlValidationError('%s(...) is only allowed in GROUP BY %s(...) queries'
                                         % (name, head))

    # -- expressions
    def expr(self, e: exp.Expression, scope: _Scope, aggregate_ok: bool = False
             ) -> Tuple[exp.Expression, Optional[DataType]]:
        if isinstance(e, exp.Var):
            return e, self.var_types.get(id(e))
        if isinstance(e, exp.Window):
            return self.over(e, scope)
        if isinstance(e, exp.Column):
            return self.column(e, scope)
        if isinstance(e, exp.Literal):
            if e.is_string:
                return e, DataTypes.CHAR(len(e.this), False)
            return e, literal_number_type(e.this)
        if isinstance(e, (exp.Cast, exp.TryCast)):
            return self.cast(e, scope)
        if isinstance(e, exp.Anonymous):
            return self.function(e, scope, aggregate_ok)
        if isinstance(e, exp.Dot):
            return self.field(e, scope, aggregate_ok)
        if isinstance(e, exp.Array):      # ARRAY[a, b] (collection_functions.py)
            return array_value([self.expr(a, scope, aggregate_ok) for a in e.expressions])
        if isinstance(e, exp.Bracket) and isinstance(e.this, exp.Column) and \
                e.this.name.upper() == 'MAP' and not e.this.table and \
                not e.this.this.args.get('quoted'):       # MAP[k, v]: MAP is reserved
            return map_value([self.expr(a, scope, aggregate_ok) for a in e.expressions])
        if isinstance(e, exp.Bracket) and len(e.expressions) == 1:
            return self.element(e, scope, aggregate_ok)
        if isinstance(e, exp.Count):
            return self.function(exp.Anonymous(this='COUNT', expressions=[e.this]), scope,
                                 aggregate_ok)
        if isinstance(e, (exp.Subquery, exp.Select, exp.Union)):
            cols = self.query(e.this if isinstance(e, exp.Subquery) else e, scope)
            return e, cols[0][1] if len(cols) == 1 else None
        if isinstance(e, exp.Exists):
            self.query(e.this, scope)
            return e, DataTypes.BOOLEAN()
        if type(e) in OPERATORS:      # + - * / %: Flink's types (arithmetic.py)
            left = self.expr(e.this, scope, aggregate_ok)
            right = self.expr(e.expression, scope, aggregate_ok)
            return arithmetic(OPERATORS[type(e)], left, right, e)
        if isinstance(e, exp.DPipe):
            left, lt = self.expr(e.this, scope, aggregate_ok)
            right, rt = self.expr(e.expression, scope, aggregate_ok)
            if lt is not None and not is_string(lt) or rt is not None and not is_string(rt):
                raise cannot_apply('||', lt or rt, rt or lt)
            return exp.DPipe(this=left, expression=right), DataTypes.STRING()
        if isinstance(e, exp.Substring):
            return self.substring(e, scope, aggregate_ok)
        if isinstance(e, exp.Trim):
            inner, _ = self.expr(e.this, scope, aggregate_ok)
            e.set('this', inner)
            if e.args.get('expression') is not None:
                e.set('expression', self.expr(e.args['expression'], scope)[0])
            return e, DataTypes.STRING()
        if isinstance(e, exp.Extract):
            e.set('expression', self.expr(e.expression, scope, aggregate_ok)[0])
            return e, DataTypes.BIGINT()
        if isinstance(e, exp.StrPosition):    # POSITION(sub IN s)
            if e.args.get('position') is not None:
                raise UnsupportedSqlError('POSITION(... FROM n) is not supported by '
                                          'pyflink_on_spark')
            sub = self.expr(e.args['substr'], scope, aggregate_ok)
            return translate_function('LOCATE', [sub, self.expr(e.this, scope, aggregate_ok)])
        if isinstance(e, exp.Case):
            return self.case(e, scope, aggregate_ok)
        if isinstance(e, exp.If):
            cond = self.expr(e.this, scope, aggregate_ok)[0]
            then, tt = self.expr(e.args['true'], scope, aggregate_ok)
            other, ot = (self.expr(e.args['false'], scope, aggregate_ok)
                         if e.args.get('false') is not None else (None, None))
            return _as_decimal(exp.If(this=cond, true=then, false=other),
                               _result_type([tt, ot]))
        if isinstance(e, exp.Neg):        # an integer's wraps (arithmetic.negated)
            from pyflink_on_spark.table.sql.arithmetic import negated
            return negated(e.this, *self.expr(e.this, scope, aggregate_ok))
        if isinstance(e, _PASS_THROUGH):
            types = []
            for key, value in list(e.args.items()):
                if isinstance(value, exp.Expression):
                    t, dt = self.expr(value, scope, aggregate_ok)
                    e.set(key, t)
                    types.append(dt)
                elif isinstance(value, list):
                    new = []
                    for v in value:
                        if isinstance(v, exp.Expression):
                            t, dt = self.expr(v, scope, aggregate_ok)
                            new.append(t)
                            types.append(dt)
                        else:
                            new.append(v)
                    e.set(key, new)
            return e, self._pass_through_type(e, types)
        raise UnsupportedSqlError('The SQL construct %s (%s) is not supported by '
                                  'pyflink_on_spark' % (type(e).__name__, e.sql()[:80]))

    @staticmethod
    def _pass_through_type(e: exp.Expression, types: List[Optional[DataType]]):
        if isinstance(e, (exp.And, exp.Or, exp.Not, exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT,
                          exp.LTE, exp.Like, exp.In, exp.Between)):
            return boolean_of(*types)
        if isinstance(e, (exp.NullSafeEQ, exp.NullSafeNEQ)):     # IS [NOT] DISTINCT FROM
            return DataTypes.BOOLEAN(False)
        if isinstance(e, exp.Is):
            return DataTypes.BOOLEAN(False)
        if isinstance(e, exp.Neg):
            return negation(e.this, types[0] if types else None)
        if isinstance(e, exp.Paren):
            return types[0] if types else None
        if isinstance(e, exp.Boolean):
            return DataTypes.BOOLEAN(False)
        return None

    def case(self, e: exp.Case, scope: _Scope, aggregate_ok: bool):
        if e.this is not None:
            e.set('this', self.expr(e.this, scope, aggregate_ok)[0])
        results = []
        for branch in e.args.get('ifs') or []:
            branch.set('this', self.expr(branch.this, scope, aggregate_ok)[0])
            then, tt = self.expr(branch.args['true'], scope, aggregate_ok)
            branch.set('true', then)
            results.append(tt)
        if e.args.get('default') is not None:
            default, dt = self.expr(e.args['default'], scope, aggregate_ok)
            e.set('default', default)
            results.append(dt)
            return _as_decimal(e, _branches_type(results))
        return _as_decimal(e, _result_type(results))

    def field(self, e: exp.Dot, scope: _Scope, aggregate_ok: bool):
        """`f(x).a`: a field of a ROW value (the Table API's aggregate() reads a ROW-typed
        udaf's fields so, as Flink's plan does: Calc(TMP_0.a AS m) over the aggregate)."""
        inner, dt = self.expr(e.this, scope, aggregate_ok)
        name = e.expression.name
        if not isinstance(dt, RowType):
            raise UnsupportedSqlError('The field access %s of a value that is not a ROW is not '
                                      'supported by pyflink_on_spark' % e.sql()[:80])
        if name not in dt.names:
            raise SqlValidationError('Unknown field %s of %s' % (name, e.this.sql()[:80]))
        field_type = dt.fields[dt.names.index(name)].data_type
        if dt._nullable and not field_type._nullable:
            field_type = field_type.nullable()
        return exp.Dot(this=inner, expression=_ident(name)), field_type

    def element(self, e: exp.Bracket, scope: _Scope, aggregate_ok: bool):
        """`a[i]` of an ARRAY (from 1) or `m[k]` of a MAP: NULL when there is no such
        element (seen on PyFlink 1.20.5: b[3] of [1, 2], m[7] of {1: 1.5}), always nullable
        (an ARRAY<INT NOT NULL>'s element is INT); a literal index below 1 is Flink's error
        (seen). Spark's try_element_at counts from 1 and gives NULL past the end."""
        inner, dt = self.expr(e.this, scope, aggregate_ok)
        index, index_type = self.expr(e.expressions[0], scope, aggregate_ok)
        if isinstance(dt, ArrayType):
            literal = e.expressions[0]
            value = None
            if isinstance(literal, exp.Literal) and not literal.is_string:
                value = int(literal.this)
            elif isinstance(literal, exp.Neg) and isinstance(literal.this, exp.Literal):
                value = -int(literal.this.this)
            if value is not None and value < 1:
                raise SqlValidationError('Array element access needs an index starting at 1 '
                                         'but was %d.' % value)
            if index_type is not None and not is_integral(index_type):
                raise UnsupportedSqlError('The array element access %s with an index that is '
                                          'not an integer is not supported by '
                                          'pyflink_on_spark' % e.sql()[:80])
            return exp.Anonymous(this='try_element_at', expressions=[inner, index]), \
                dt.element_type.nullable()
        if isinstance(dt, MapType):
            return exp.Anonymous(this='try_element_at', expressions=[inner, index]), \
                dt.value_type.nullable()
        raise UnsupportedSqlError('The element access %s of a value that is not an ARRAY or '
                                  'a MAP is not supported by pyflink_on_spark' % e.sql()[:80])

    def column(self, e: exp.Column, scope: _Scope):
        name = e.name
        qualifier = e.table or None
        if isinstance(e.this, exp.Star):
            return e, None
        dt = scope.resolve(name, qualifier)
        if dt is None and qualifier is not None and not e.args.get('db') and \
                isinstance(scope.resolve(qualifier, None), RowType):
            # `g.p`: a field of the ROW column g (no table is named g)
            return self.field(exp.Dot(this=exp.column(qualifier, quoted=True),
                                      expression=_ident(name)), scope, False)
        if dt is None:
            if qualifier is None and e.this.args.get('quoted') is not True:
                fn = niladic(name)
                if fn is not None:
                    return fn
            if qualifier is None and name in scope.aliases:
                return e, scope.aliases[name]
            raise SqlValidationError("Column '%s' not found in any table" % name
                                     if qualifier is None else
                                     "Column '%s' not found in table '%s'" % (name, qualifier))
        return _quoted_column(e), dt

    def cast(self, e: exp.Expression, scope: _Scope):
        inner, source = self.expr(e.this, scope, True)
        # sqlglot writes TIMESTAMP_LTZ(p) and TIMESTAMP(p) WITH LOCAL TIME ZONE as
        # TIMESTAMPLTZ(p)
        type_text = e.args['to'].sql(dialect=_FlinkDialect).replace('TEXT', 'STRING') \
            .replace('TIMESTAMPLTZ', 'TIMESTAMP_LTZ')
        target = parse_type(type_text)
        spark = spark_type_string(target)
        if isinstance(e, exp.TryCast):
            # TRY_CAST: NULL where the value does not convert, in both engines
            casted = try_cast_text(inner, spark)
        else:
            from pyflink_on_spark.table.sql.arithmetic import integer_cast
            casted = integer_cast(inner, source, target) or cast(inner, spark)
        casted = _truncated_fraction(casted, source, target)
        # Flink (1.15+) trims a cast to VARCHAR(n) to n characters and pads CHAR(n)
        if isinstance(target, VarCharType) and target.length < 0x7fffffff:
            casted = call('substring', casted, exp.Literal.number(1),
                          exp.Literal.number(target.length))
        elif isinstance(target, CharType):
            casted = call('rpad', casted, exp.Literal.number(target.length),
                          exp.Literal.string(' '))
        if source is not None and not source._nullable and not isinstance(e, exp.TryCast):
            # a CAST keeps its operand's NOT NULL (seen on PyFlink 1.20.5: CAST(1.1 AS FLOAT),
            # CAST('12' AS INT), CAST of a tuple's INT to BIGINT / STRING / DECIMAL(10, 2) /
            # VARCHAR(3) are NOT NULL; TRY_CAST and CAST(NULL AS INT) are nullable)
            target = target.not_null()
        return casted, target

    def substring(self, e: exp.Substring, scope: _Scope, aggregate_ok: bool):
        s, _ = self.expr(e.this, scope, aggregate_ok)
        start, _ = self.expr(e.args['start'], scope, aggregate_ok)
        args = [s, start]
        if e.args.get('length') is not None:
            args.append(self.expr(e.args['length'], scope, aggregate_ok)[0])
        return call('substring', *args), DataTypes.STRING()

    def _aggregates(self, e: exp.Expression) -> bool:
        """Whether a select item calls an aggregate function (not over a window)."""
        for node in e.walk():
            if isinstance(node, exp.Window) or node.find_ancestor(exp.Window) is not None:
                continue
            if isinstance(node, exp.Count):
                return True
            if isinstance(node, exp.Anonymous) and (
                    _window_name(node) in AGGREGATES or getattr(find_function(
                        self.functions, node.name, is_builtin), 'kind', None) == 'aggregate'):
                return True
        return False

    def function(self, e: exp.Anonymous, scope: _Scope, aggregate_ok: bool):
        name = _window_name(e)
        user = find_function(self.functions, e.name, is_builtin)
        if user is not None:
            if user.kind == 'aggregate' and not aggregate_ok:
                raise SqlValidationError('Aggregate %s is not allowed here' % e.name)
            return function_call(user, [self.expr(a, scope, aggregate_ok and
                                                  user.kind != 'aggregate')[0]
                                        for a in e.expressions])
        if name in AGGREGATES:
            if not aggregate_ok:
                raise SqlValidationError('Aggregate %s is not allowed here' % name)
            return self.aggregate(name, e, scope)
        if name in ('TUMBLE', 'HOP', 'SESSION', 'CUMULATE') or name.split('_')[0] in (
                'TUMBLE', 'HOP', 'SESSION'):
            raise SqlValidationError('%s(...) is only allowed in GROUP BY %s(...) queries'
                                     % (name, name.split('_')[0]))
        if name in ('TIMESTAMPDIFF', 'TIMESTAMPADD'):
            return self.timestamp_arithmetic(name, e, scope, aggregate_ok)
        args = [self.expr(a, scope, aggregate_ok) for a in e.expressions]
        if name not in _NULL_ARGUMENTS and any(isinstance(a, exp.Null) for a in e.expressions):
            raise SqlValidationError(ILLEGAL_NULL)     # PyFlink 1.20.5: UPPER(NULL), ABS(NULL)
        return translate_function(name, args)

    def over(self, e: exp.Window, scope: _Scope):
        """An aggregate OVER a window (over_windows.py)."""
        call = e.this
        name = 'COUNT' if isinstance(call, exp.Count) else (
            call.name.upper() if isinstance(call, exp.Anonymous) else type(call).__name__.upper())
        if name == 'ROW_NUMBER' or isinstance(call, exp.RowNumber):
            if call.expressions:
                raise SqlValidationError('ROW_NUMBER() takes no arguments')
            return self.row_number(e, scope)
        if name in ('RANK', 'DENSE_RANK'):
            if call.expressions:     # seen on PyFlink 1.20.5 (after the statement's place)
                raise SqlValidationError("Invalid number of arguments to function '%s'. Was "
                                         "expecting 0 arguments" % name)
            return self.row_number(e, scope, name)
        if name not in AGGREGATES:
            over_windows.refuse_function(name)
        if isinstance(call, exp.Count):
            call = exp.Anonymous(this='COUNT', expressions=[call.this])
        if any(isinstance(a, exp.Distinct) for a in call.expressions):
            raise UnsupportedSqlError('%s(DISTINCT ...) OVER (...) is not supported by '
                                      'pyflink_on_spark' % name)
        window, failure = over_windows.over_window(e, lambda x: self.expr(x, scope))
        self.over_keys.append(window.key)
        self.over_windows.append(window)
        if failure is None and len(set(self.over_keys)) > 1:
            failure = over_windows.DIFFERENT_WINDOWS
        if failure is not None and self.failure is None:
            self.failure = failure
        saved, self.slicing = self.slicing, None     # an OVER aggregate is not sliced
        try:
            translated, dt = self.aggregate(name, call, scope)
        finally:
            self.slicing = saved
        return over_windows.over_aggregate(translated, window), dt

    def row_number(self, e: exp.Window, scope: _Scope, name: str = 'ROW_NUMBER'):
        """ROW_NUMBER(), RANK(), DENSE_RANK() OVER (PARTITION BY ... ORDER BY ...): Spark's,
        the same numbers of each partition's rows in the window's order, ties and NULLs
        first for ASC, last for DESC alike (BIGINT NOT NULL, seen on PyFlink 1.20.5 in BATCH
        mode; STREAMING mode plans them otherwise: SparkQuery.ranking)."""
        window, _ = over_windows.over_window(e, lambda x: self.expr(x, scope))
        if window.order is None or window.spec is not None:
            raise UnsupportedSqlError('%s() OVER (...) without ORDER BY, or with a '
                                      'frame, is not supported by pyflink_on_spark' % name)
        self.ranking = name
        return window.over(exp.RowNumber() if name == 'ROW_NUMBER' else
                           exp.Anonymous(this=name, expressions=[])), DataTypes.BIGINT(False)

    def timestamp_arithmetic(self, name: str, e: exp.Anonymous, scope: _Scope,
                             aggregate_ok: bool):
        """TIMESTAMPDIFF(unit, a, b) (an INT in Flink, a BIGINT in Spark) and
        TIMESTAMPADD(unit, n, ts): the unit is a keyword, not a column."""
        if len(e.expressions) != 3 or not isinstance(e.expressions[0], exp.Column):
            raise SqlValidationError('%s(unit, a, b) takes a time unit and two arguments'
                                     % name)
        unit = e.expressions[0].name.upper()
        if unit not in ('SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'):
            raise UnsupportedSqlError('%s with the unit %s is not supported by '
                                      'pyflink_on_spark' % (name, unit))
        a, _ = self.expr(e.expressions[1], scope, aggregate_ok)
        b, bt = self.expr(e.expressions[2], scope, aggregate_ok)
        if name == 'TIMESTAMPDIFF':
            return cast(call('timestampdiff', exp.Var(this=unit), a, b), 'INT'), DataTypes.INT()
        return call('timestampadd', exp.Var(this=unit), a, b), bt

    def aggregate(self, name: str, e: exp.Anonymous, scope: _Scope):
        args = e.expressions
        distinct = False
        if len(args) == 1 and isinstance(args[0], exp.Distinct):
            distinct = True
            args = args[0].expressions
        if name == 'COUNT':
            if len(args) == 1 and isinstance(args[0], exp.Star):
                return exp.Count(this=exp.Star()), DataTypes.BIGINT(False)
            translated = [self.expr(a, scope)[0] for a in args]
            inner = exp.Distinct(expressions=translated) if distinct else translated[0]
            return exp.Count(this=inner), DataTypes.BIGINT(False)
        if len(args) != 1:
            raise SqlValidationError('The aggregate %s takes 1 argument, found %d'
                                     % (name, len(args)))
        arg, dt = self.expr(args[0], scope)
        inner = exp.Distinct(expressions=[arg]) if distinct else arg
        if name in ('MIN', 'MAX'):
            result = dt.nullable() if dt is not None else None
            return call(name, inner), as_materialized(result) if is_rowtime(dt) else result
        if dt is None or not is_numeric(dt):
            raise SqlValidationError('Cannot apply \'%s\' to arguments of type %s'
                                     % (name, flink_type_string(dt) if dt else '?'))
        if self.slicing is not None and not distinct and isinstance(dt, (FloatType,
                                                                         DoubleType)):
            return self._sliced(name, arg, dt)
        if name == 'SUM':
            return self._sum(inner, dt)
        return self._avg(arg, inner, dt, distinct)

    def _sliced(self, name: str, arg: exp.Expression, dt: DataType):
        """SUM / AVG of a FLOAT or DOUBLE over HOP / CUMULATE windows, the slices' sums
        merged as Flink merges them (arithmetic.sliced_sum); AVG's sum a DOUBLE."""
        slices, backward = self.slicing
        value = arg.sql(dialect='spark')
        if name == 'SUM':
            var = exp.Var(this=sliced_sum(value, spark_type_string(dt), slices, backward))
        else:
            var = exp.Var(this='CAST(%s / NULLIF(COUNT(%s), 0) AS %s)' % (
                sliced_sum(value, 'DOUBLE', slices, backward), value, spark_type_string(dt)))
        self.var_types[id(var)] = dt.nullable()
        return var, dt.nullable()

    @staticmethod
    def _sum(inner: exp.Expression, dt: DataType):
        # Flink sums in the argument's type (INT stays INT); Spark widens to BIGINT / DOUBLE
        bits = _NARROW_INT_BITS.get(type(dt))
        if bits is not None:
            # Flink sums TINYINT / SMALLINT / INT in that type and wraps on overflow (SUM of
            # 2147483647 and 1 is -2147483648 on PyFlink 1.20.5): the BIGINT sum, wrapped
            half = 2 ** (bits - 1)
            total = call('SUM', cast(inner, 'BIGINT') if not isinstance(inner, exp.Distinct)
                         else exp.Distinct(expressions=[cast(inner.expressions[0], 'BIGINT')]))
            wrapped = exp.Sub(this=call('pmod', exp.Add(this=total, expression=lit(half)),
                                        lit(2 * half)), expression=lit(half))
            return cast(wrapped, spark_type_string(dt)), dt.nullable()
        if is_integral(dt):
            # a BIGINT wraps too (Java's long sum): the exact DECIMAL(38, 0) sum, wrapped
            from pyflink_on_spark.table.sql.arithmetic import wrapped as wrapped_into
            total = call('SUM', cast(inner, 'DECIMAL(38,0)') if not isinstance(
                inner, exp.Distinct) else exp.Distinct(
                    expressions=[cast(inner.expressions[0], 'DECIMAL(38,0)')]))
            return wrapped_into(total, dt), dt.nullable()
        if isinstance(dt, FloatType):      # in single precision (arithmetic.float_sum)
            from pyflink_on_spark.table.sql.arithmetic import float_sum
            return float_sum(inner), dt.nullable()
        if is_integral(dt) or isinstance(dt, (FloatType, DoubleType)):
            return cast(call('SUM', inner), spark_type_string(dt)), dt.nullable()
        result = DataTypes.DECIMAL(38, dt.scale)
        return cast(call('SUM', inner), spark_type_string(result)), result

    @staticmethod
    def _avg(arg: exp.Expression, inner: exp.Expression, dt: DataType, distinct: bool):
        if is_integral(dt):
            # Flink: the sum (BIGINT) divided by the count, truncated, in the argument's type
            total = call('SUM', exp.Distinct(expressions=[cast(arg, 'BIGINT')])
                         if distinct else cast(arg, 'BIGINT'))
            if _NARROW_INT_BITS.get(type(dt)) is None:
                # a BIGINT's sum wraps (seen: AVG of 2^63 - 1 and 10 is -4611686018427387899)
                total, _ = _Translator._sum(inner, dt)
            count = exp.Count(this=exp.Distinct(expressions=[arg]) if distinct else arg)
            div = exp.IntDiv(this=total, expression=call('NULLIF', count,
                                                         exp.Literal.number(0)))
            return cast(div, spark_type_string(dt)), dt.nullable()
        if isinstance(dt, (FloatType, DoubleType)):
            return cast(call('AVG', inner), spark_type_string(dt)), dt.nullable()
        if isinstance(dt, DecimalType):
            # Flink: the DECIMAL(38, s) sum over the count, a DECIMAL(38, max(6, s)) rounded
            # half up (seen on PyFlink 1.20.5: AVG of 1, 1, 0 is 0.666667, of -1, -1, 0
            # -0.666667); Spark's division of a DECIMAL(38, s) by a BIGINT is that type
            result = DataTypes.DECIMAL(38, max(6, dt.scale))
            total = cast(call('SUM', inner), 'DECIMAL(38,%d)' % dt.scale)
            count = exp.Count(this=exp.Distinct(expressions=[arg]) if distinct else arg)
            quotient = exp.Div(this=total, expression=call('NULLIF', count,
                                                           exp.Literal.number(0)))
            return cast(quotient, spark_type_string(result)), result
        raise UnsupportedSqlError('AVG of %s is not supported by pyflink_on_spark: its '
                                  'result scale differs between Flink and Spark'
                                  % flink_type_string(dt))


def _branches_type(types: List[Optional[DataType]]) -> Optional[DataType]:
    """The type of a CASE with an ELSE: NOT NULL when every branch is (PyFlink 1.20.5: CASE
    WHEN a > 2 THEN 'big' ELSE 'small' END is VARCHAR(5) NOT NULL: CHAR literals of
    different lengths make a VARCHAR of the longest; the Table API's if_then_else(a > 2, 1,
    0) INT NOT NULL). Flink's IF is typed otherwise (IF(a > 2, 'ab', 'cd') is a nullable
    CHAR(2)), and keeps _result_type."""
    result = _result_type(types)
    if result is None or any(t is None or t._nullable for t in types):
        return result
    if all(isinstance(t, CharType) for t in types):
        lengths = {t.length for t in types}
        result = DataTypes.CHAR(lengths.pop()) if len(lengths) == 1 else \
            DataTypes.VARCHAR(max(t.length for t in types))
    return result.not_null()


def _result_type(types: List[Optional[DataType]]) -> Optional[DataType]:
    """The nullable common type of CASE branches / IF results (typing_rules.common_type: an
    untyped NULL branch takes the others' type); types that do not mix are refused as
    PyFlink 1.20.5 refuses them (CASE of a STRING and an INT, of a DATE and a TIMESTAMP)."""
    known = [t for t in types if t is not None]
    if not known:
        return None
    result = common_type(known, calcite=True)
    if result is None:
        raise SqlValidationError('Illegal mixing of types in CASE or COALESCE statement')
    return result.nullable()


# functions that take an untyped NULL argument (Calcite infers its type from the others:
# COALESCE(NULL, 1) is INT NOT NULL on PyFlink 1.20.5)
_NULL_ARGUMENTS = ('COALESCE', 'IFNULL', 'NULLIF', 'IF', '__JSON_OBJECT', '__JSON_ARRAY',
                   'JSON_STRING') + NULL_ARGUMENT_FUNCTIONS


def _as_decimal(e: exp.Expression, dt: Optional[DataType]):
    """A CASE / IF of DECIMAL type cast to it: Spark's common type of a DECIMAL and a BIGINT
    takes the BIGINT as DECIMAL(20, 0), Flink as DECIMAL(19, 0). A FLOAT one too: Flink's
    common type of a FLOAT and a DOUBLE may be the FLOAT (typing_rules.common_type), Spark's
    is a DOUBLE."""
    if isinstance(dt, (DecimalType, FloatType)):
        return cast(e, spark_type_string(dt)), dt
    return e, dt


def _untyped(e: exp.Expression) -> None:
    """Refuses an expression whose Flink type is not derived here (a result column must
    have one), naming it."""
    inner = e
    while isinstance(inner, exp.Paren):
        inner = inner.this
    if isinstance(inner, exp.Null):
        raise SqlValidationError(ILLEGAL_NULL)      # PyFlink 1.20.5: SELECT NULL FROM t
    raise UnsupportedSqlError('The type of the expression %s is not derived by '
                              'pyflink_on_spark (docs/table_sql.md)' % e.sql()[:100])


def _window_name(e: exp.Anonymous) -> str:
    name = e.name.upper()
    return 'SESSION' if name == _SESSION_CALL else name


def _q(name: str) -> str:
    return '`%s`' % name.replace('`', '``')


def _ident(name: str) -> exp.Identifier:
    return exp.Identifier(this=name, quoted=True)


def _quoted_column(e: exp.Column) -> exp.Column:
    col = exp.Column(this=_ident(e.name))
    if e.table:
        col.set('table', _ident(e.table))
    return col


def _refuse_words(sql: str) -> None:
    toks = tokenize(sql)
    for i, tok in enumerate(toks):
        if tok.kind != 'word':
            continue
        upper = tok.text.upper()
        if upper in _REFUSED_WORDS:
            raise UnsupportedSqlError('%s is not supported by pyflink_on_spark'
                                      % _REFUSED_WORDS[upper])
        if upper == 'FOR' and i + 1 < len(toks) and toks[i + 1].is_word('SYSTEM_TIME'):
            raise UnsupportedSqlError('Temporal joins (FOR SYSTEM_TIME AS OF) are not '
                                      'supported by pyflink_on_spark')


def _rename_session_calls(sql: str) -> str:
    """SESSION(...) as _SESSION_GROUP_WINDOW(...): sqlglot reads SESSION as a keyword."""
    toks = tokenize(sql)
    for tok, after in reversed(list(zip(toks, toks[1:]))):
        if tok.is_word('SESSION') and after.kind == 'symbol' and after.text == '(':
            sql = sql[:tok.start] + _SESSION_CALL + sql[tok.end:]
    return sql


_PLAIN_NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')


def translate_query(query: str, tables: Mapping[str, Columns],
                    functions: Optional[Mapping[str, FunctionSignature]] = None,
                    streaming: bool = False) -> SparkQuery:
    """The query as Spark SQL and its result columns (name, Flink type string).
    `functions`: the user-defined functions it may call, by lowercase name (udf_calls.py).
    `streaming`: the environment's mode, where Flink computes a result otherwise (a HOP /
    CUMULATE window TVF's float sums)."""
    _refuse_words(query)
    rewritten, windows = extract_window_tvfs(mark_lateral_tables(rewrite_json_syntax(query)))
    rewritten = _rename_session_calls(rewritten)
    try:
        tree = sqlglot.parse_one(rewritten, read=_FlinkDialect)
    except ParseError as e:
        raise UnsupportedSqlError('SQL parse error (pyflink_on_spark reads Flink SQL with '
                                  'sqlglot): %s' % str(e).split('\n')[0])
    refuse_reserved_identifiers(query, rewritten, tree)
    translator = _Translator(tables, windows, functions)
    translator.streaming = streaming
    translator.result_select = result_select(tree)
    columns = translator.query(tree, None)
    for table in tree.find_all(exp.Table):
        # a Flink name Spark would not read bare (UnnamedTable$0, Table.__str__'s views)
        if not _PLAIN_NAME.match(table.name):
            table.this.set('quoted', True)
    sql = tree.sql(dialect='spark')
    for placeholder, tvf in windows.items():
        sql = sql.replace(placeholder, translator.window_table_sql(tvf))
    ordered = over_windows.emit_ordered(tree, translator.over_windows) \
        if translator.over_windows and not windows else None
    return SparkQuery(sql, tuple((n, flink_type_string(t) if t is not None else None)
                                 for n, t in columns), translator.failure,
                      bool(translator.over_keys), ordered, translator.ranking,
                      tuple(n for n, t in columns if is_materialized(t)))


def _calcite_type(time_type: DataType) -> str:
    """A timestamp type as Flink's planner names it in errors (TIMESTAMP(3),
    TIMESTAMP_WITH_LOCAL_TIME_ZONE(3): seen on PyFlink 1.20.5)."""
    text = flink_type_string(time_type).replace(' NOT NULL', '')
    return text.replace('TIMESTAMP_LTZ', 'TIMESTAMP_WITH_LOCAL_TIME_ZONE')


def to_spark_sql(query: str, tables: Mapping[str, Columns]) -> str:
    """A Flink SQL query as Spark SQL text with the same meaning. tables maps each table or
    view name the query reads to its columns: (name, Flink type string) pairs or CreateTable
    columns."""
    return translate_query(query, tables).sql



# Flink SQL as this layer parses and renders it (grouping.py splits queries with it)
FLINK_DIALECT = _FlinkDialect
