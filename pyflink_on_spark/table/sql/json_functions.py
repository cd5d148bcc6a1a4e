"""Flink's JSON functions (JSON_VALUE, JSON_QUERY, JSON_EXISTS, IS JSON, JSON_STRING,
JSON_OBJECT, JSON_ARRAY) as Spark SQL over Spark's VARIANT: the document is parsed once per
call with try_parse_json (NULL for text that is no JSON), the path is read with variant_get,
and the result is built with Flink's rules for empty results, errors, scalars and wrappers
(SQL/JSON as Flink implements it, seen on PyFlink 1.20.5: docs/table_sql.md "JSON").

The calls come here as json_syntax.py rewrites them (`__JSON_VALUE(doc, path, type,
on-empty..., on-error...)`). Paths: `$`, `.name`, `['name']`, `[n]`, after an optional `lax`
or `strict` mode; wildcards, filters, recursive descent and functions are refused naming the
path (Spark's variant paths have none of them)."""
import re
from typing import Callable, Dict, List, Optional, Tuple

from sqlglot import exp

from pyflink_on_spark.table.sql.errors import SqlValidationError, UnsupportedSqlError
from pyflink_on_spark.table.types import DataType, DataTypes

__all__ = ['JSON_FUNCTIONS', 'spark_path']

Arg = Tuple[exp.Expression, Optional[DataType]]
Result = Tuple[exp.Expression, Optional[DataType]]

_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def spark_path(path: str) -> Tuple[str, str]:
    """(mode LAX / STRICT, Spark's variant path) of a Flink SQL/JSON path. Without a mode
    the path is strict, as in Flink."""
    m = re.match(r'^\s*(lax|strict)\s+(.*)$', path, re.IGNORECASE | re.DOTALL)
    mode, rest = (m.group(1).upper(), m.group(2)) if m else ('STRICT', path)
    rest = rest.strip()
    if not rest.startswith('$'):
        raise UnsupportedSqlError('The JSON path %r is not supported by pyflink_on_spark '
                                  "(a path starts with '$')" % path)
    out, i = ['$'], 1
    while i < len(rest):
        if rest[i] == '.':
            name = _NAME.match(rest, i + 1)
            if name is None:
                break
            out.append('.' + name.group(0))
            i = name.end()
            if rest.startswith('(', i):
                break        # a function: .length()
            continue
        if rest[i] == '[':
            m = re.compile(r"\[\s*(?:(\d+)|'([^'\\\]]*)'|\"([^\"\\\]]*)\")\s*\]").match(rest, i)
            if m is None:
                break
            if m.group(1) is not None:
                out.append('[%d]' % int(m.group(1)))
            else:
                key = m.group(2) if m.group(2) is not None else m.group(3)
                out.append("['%s']" % key)
            i = m.end()
            continue
        break
    if i < len(rest):
        raise UnsupportedSqlError(
            'The JSON path %r is not supported by pyflink_on_spark: it reads $, .name, '
            "['name'] and [n] steps (no wildcards, filters, recursive descent or functions)"
            % path)
    return mode, ''.join(out)


def _text(e: exp.Expression) -> str:
    return e.sql(dialect='spark')


def _string_value(e: exp.Expression) -> str:
    if not (isinstance(e, exp.Literal) and e.is_string):
        raise SqlValidationError('%s: a JSON function clause must be a literal' % e.sql())
    return e.name


def _quoted(text: str) -> str:
    return "'%s'" % text.replace('\\', '\\\\').replace("'", "\\'")


class _Doc(object):
    """A JSON document's Spark SQL: its text, the parsed variant and the item at a path."""

    def __init__(self, doc: str, path: Optional[str] = None) -> None:
        self.doc = doc
        self.variant = 'try_parse_json(%s)' % doc
        if path is not None:
            self.mode, spath = spark_path(path)
            self.item = 'variant_get(%s, %s)' % (self.variant, _quoted(spath))
            self.schema = 'schema_of_variant(%s)' % self.item

    def is_container(self) -> str:
        return "(%s LIKE 'OBJECT%%' OR %s LIKE 'ARRAY%%')" % (self.schema, self.schema)


def _behaviour(args: List[Arg], i: int, error_text: str) -> Tuple[str, int]:
    """The Spark SQL of a NULL / ERROR / DEFAULT expr behaviour at args[i], and the index
    after it."""
    kind = _string_value(args[i][0]).upper()
    if kind == 'NULL':
        return 'NULL', i + 1
    if kind == 'ERROR':
        return 'raise_error(%s)' % _quoted(error_text), i + 1
    if kind == 'DEFAULT':
        return _text(args[i + 1][0]), i + 2
    if kind in ('TRUE', 'FALSE', 'UNKNOWN'):
        return {'TRUE': 'TRUE', 'FALSE': 'FALSE', 'UNKNOWN': 'CAST(NULL AS BOOLEAN)'}[kind], i + 1
    if kind == 'EMPTY ARRAY':
        return "'[]'", i + 1
    if kind == 'EMPTY OBJECT':
        return "'{}'", i + 1
    raise UnsupportedSqlError('The JSON clause %s is not supported by pyflink_on_spark' % kind)


def _var(text: str) -> exp.Expression:
    return exp.Var(this=text)


def _missing(d: _Doc) -> str:
    """Whether the document gives no value at the path: text that is no JSON, a path that is
    not there, or a JSON null there (seen on PyFlink 1.20.5: the three behave alike, the
    error behaviour in strict mode, the empty one in lax mode)."""
    return '(%s IS NULL OR %s IS NULL OR is_variant_null(%s))' % (d.variant, d.item, d.item)


def _json_value(name: str, args: List[Arg]) -> Result:
    doc, path = _text(args[0][0]), _string_value(args[1][0])
    returning = _string_value(args[2][0])
    d = _Doc(doc, path)
    on_empty, i = _behaviour(args, 3, 'Empty result of JSON_VALUE function is not allowed')
    on_error, _ = _behaviour(args, i, 'No results for path: %s (or no JSON text, or a '
                                      'non-scalar value there)' % _jayway(path))
    # strict: no value, or an object / array, is an error; lax: an empty result
    fallback = on_error if d.mode == 'STRICT' else on_empty
    value, result_type = _value_as(d, returning)
    return _var('(CASE WHEN %s IS NULL THEN NULL WHEN %s THEN %s WHEN %s THEN %s ELSE %s END)'
                % (doc, _missing(d), fallback, d.is_container(), fallback, value)), \
        result_type


def _jayway(path: str) -> str:
    """A path as Flink's JSON reader prints it in errors ($['a']['b'][0])."""
    _, spath = spark_path(path)
    return '$' + ''.join("['%s']" % step[1:] if step.startswith('.') else step
                         for step in re.findall(r"\.[^.\[]+|\[[^\]]*\]", spath[1:]))


def _java_class(d: _Doc) -> str:
    """The Java class of the value Flink's JSON reader (Jackson) gives a scalar: Integer for
    an integer within int's range, Long beyond, Double for a number with a fraction or an
    exponent, Boolean, String."""
    return ("(CASE WHEN %s LIKE 'DECIMAL%%' OR %s IN ('DOUBLE', 'FLOAT') THEN "
            "'java.lang.Double' WHEN %s = 'BIGINT' THEN CASE WHEN variant_get(%s, '$', "
            "'bigint') BETWEEN -2147483648 AND 2147483647 THEN 'java.lang.Integer' ELSE "
            "'java.lang.Long' END WHEN %s = 'BOOLEAN' THEN 'java.lang.Boolean' ELSE "
            "'java.lang.String' END)" % (d.schema, d.schema, d.schema, d.item, d.schema))


# RETURNING types that run on PyFlink 1.20.5 (seen): the value's Java class must be the
# type's (an INT of 12345678901, a Long, fails the job with Java's ClassCastException)
_RETURNING = {'INT': ('java.lang.Integer', 'int', DataTypes.INT()),
              'INTEGER': ('java.lang.Integer', 'int', DataTypes.INT()),
              'DOUBLE': ('java.lang.Double', 'double', DataTypes.DOUBLE()),
              'BOOLEAN': ('java.lang.Boolean', 'boolean', DataTypes.BOOLEAN())}


def _value_as(d: _Doc, returning: str) -> Tuple[str, DataType]:
    """A scalar item as JSON_VALUE's RETURNING type: STRING is its text as Java prints the
    value Flink's JSON reader gives it (a number with a fraction or exponent is a double:
    1.50 is '1.5', 1e2 '100.0'); INT / DOUBLE / BOOLEAN the value of that class, another
    class failing the job as PyFlink's does (ClassCastException's text)."""
    upper = ' '.join(returning.upper().split())
    if upper in ('STRING', 'VARCHAR(2147483647)'):
        as_double = "CAST(variant_get(%s, '$', 'double') AS STRING)" % d.item
        return ("CASE WHEN %s LIKE 'DECIMAL%%' THEN %s ELSE variant_get(%s, '$', 'string') "
                "END" % (d.schema, as_double, d.item)), DataTypes.STRING()
    if upper in _RETURNING:
        java, spark, flink_type = _RETURNING[upper]
        cls = _java_class(d)
        error = ("raise_error(concat('java.lang.ClassCastException: class ', %s, ' cannot be "
                 "cast to class %s (', %s, ' and %s are in module java.base of loader "
                 "\\'bootstrap\\')'))" % (cls, java, cls, java))
        return ("CASE WHEN %s = '%s' THEN variant_get(%s, '$', '%s') ELSE %s END"
                % (cls, java, d.item, spark, error)), flink_type
    if upper.startswith(('VARCHAR', 'CHAR')):
        # runs on PyFlink 1.20.5 (VARCHAR(3) of 'x' is 'x', seen); longer values not compared
        raise UnsupportedSqlError('JSON_VALUE ... RETURNING %s is not supported by '
                                  'pyflink_on_spark yet (RETURNING STRING is)' % returning)
    raise UnsupportedSqlError(
        "JSON_VALUE ... RETURNING %s is not supported by pyflink_on_spark: PyFlink 1.20.5 "
        "fails such a query when it runs (Unsupported type '%s' for RETURNING in "
        "JSON_VALUE().); STRING, INT, DOUBLE and BOOLEAN run" % (returning, returning))


def _json_exists(name: str, args: List[Arg]) -> Result:
    doc, path = _text(args[0][0]), _string_value(args[1][0])
    d = _Doc(doc, path)
    on_error, _ = _behaviour(args, 2, 'No results for path: %s' % _jayway(path))
    # seen on PyFlink 1.20.5: a JSON null there is no value (FALSE), and in strict mode an
    # error (TRUE ON ERROR gives TRUE); text that is no JSON likewise
    fallback = on_error if d.mode == 'STRICT' else 'FALSE'
    return _var('(CASE WHEN %s IS NULL THEN NULL WHEN %s THEN %s ELSE TRUE END)'
                % (doc, _missing(d), fallback)), DataTypes.BOOLEAN()


def _json_query(name: str, args: List[Arg]) -> Result:
    doc, path = _text(args[0][0]), _string_value(args[1][0])
    wrapper = _string_value(args[2][0]).upper()
    d = _Doc(doc, path)
    on_empty, i = _behaviour(args, 3, 'Empty result of JSON_QUERY function is not allowed')
    on_error, _ = _behaviour(args, i, 'No results for path: %s (or no JSON text, or a scalar '
                                      'value there)' % _jayway(path))
    fallback = on_error if d.mode == 'STRICT' else on_empty
    text = 'to_json(%s)' % d.item
    if wrapper == 'WITHOUT':     # a scalar is no result: an error in strict mode
        found = 'CASE WHEN %s THEN %s ELSE %s END' % (d.is_container(), text, fallback)
    elif wrapper == 'UNCONDITIONAL':
        found = "concat('[', %s, ']')" % text
    else:
        found = "CASE WHEN %s LIKE 'ARRAY%%' THEN %s ELSE concat('[', %s, ']') END" % (
            d.schema, text, text)
    return _var('(CASE WHEN %s IS NULL THEN NULL WHEN %s THEN %s ELSE %s END)'
                % (doc, _missing(d), fallback, found)), DataTypes.STRING()


def _is_json(name: str, args: List[Arg]) -> Result:
    doc = _text(args[0][0])
    kind = _string_value(args[1][0]).upper()
    d = _Doc(doc)
    schema = 'schema_of_variant(%s)' % d.variant
    test = {'VALUE': 'TRUE',
            'SCALAR': "NOT (%s LIKE 'OBJECT%%' OR %s LIKE 'ARRAY%%')" % (schema, schema),
            'ARRAY': "%s LIKE 'ARRAY%%'" % schema,
            'OBJECT': "%s LIKE 'OBJECT%%'" % schema}[kind]
    return _var('COALESCE(%s IS NOT NULL AND %s, FALSE)' % (d.variant, test)), \
        DataTypes.BOOLEAN(False)


# JSON values Spark's VARIANT writes as Flink's JSON writer does (seen on PyFlink 1.20.5);
# other types (dates, timestamps, FLOAT, BYTES, ARRAY, ROW...) are refused by name
_JSON_VALUE_TYPES = ('TINYINT', 'SMALLINT', 'INT', 'BIGINT', 'DECIMAL', 'DOUBLE', 'BOOLEAN',
                     'CHAR', 'VARCHAR', 'STRING')


def _json_input(name: str, arg: Arg) -> str:
    """A value of JSON_STRING / JSON_OBJECT / JSON_ARRAY as a Spark VARIANT: a JSON_OBJECT /
    JSON_ARRAY's result as the JSON it is (nested, not a string), others cast."""
    e, t = arg
    if e.meta.get('json_text'):
        return 'parse_json(%s)' % _text(e)
    if isinstance(e, exp.Null):
        return 'CAST(NULL AS VARIANT)'
    from pyflink_on_spark.table.sql.flink_types import flink_type_string
    type_text = flink_type_string(t) if t is not None else '?'
    if name == 'JSON_STRING' and type_text.startswith('DATE'):
        # seen on PyFlink 1.20.5 (JSON_STRING(DATE '2024-01-02'), at sql_query)
        raise SqlValidationError("Unsupported argument type. Expected type of family "
                                 "'CHARACTER_STRING' but actual type was '%s'." % type_text)
    if not type_text.split('(')[0].split(' ')[0] in _JSON_VALUE_TYPES:
        raise UnsupportedSqlError('%s of a %s value is not supported by pyflink_on_spark'
                                  % (name, type_text))
    return 'CAST(%s AS VARIANT)' % _text(e)


def _json_text(text: str) -> exp.Expression:
    var = _var(text)
    var.meta['json_text'] = True
    return var


def _json_string(name: str, args: List[Arg]) -> Result:
    if len(args) != 1:
        raise SqlValidationError('JSON_STRING takes 1 argument, found %d' % len(args))
    return _var('to_json(%s)' % _json_input('JSON_STRING', args[0])), DataTypes.STRING()


def _json_object(name: str, args: List[Arg]) -> Result:
    on_null = _string_value(args[0][0]).upper()
    pairs = args[1:]
    if not pairs:
        return _json_text("'{}'"), DataTypes.STRING(False)
    entries = []
    for i in range(0, len(pairs), 2):
        key = pairs[i][0]
        if not (isinstance(key, exp.Literal) and key.is_string):
            raise UnsupportedSqlError('JSON_OBJECT with a key that is no string literal is '
                                      'not supported by pyflink_on_spark')
        entries.append((key.name, _json_input('JSON_OBJECT', pairs[i + 1])))
    # seen on PyFlink 1.20.5: the object's keys in sorted order ({"d":...,"k":...} of
    # JSON_OBJECT('k' VALUE ..., 'd' VALUE ...))
    # a key given twice: its last value (seen: JSON_OBJECT('a' VALUE 1, 'a' VALUE 2) is
    # {"a":2})
    entries_text = ', '.join('%s, %s' % (_quoted(k), v) for k, v in sorted(dict(entries).items()))
    if on_null == 'ABSENT':
        text = 'to_json(map_filter(map(%s), (k, v) -> v IS NOT NULL))' % entries_text
    else:
        text = "to_json(named_struct(%s), map('ignoreNullFields', 'false'))" % entries_text
    return _json_text(text), DataTypes.STRING(False)


def _json_array(name: str, args: List[Arg]) -> Result:
    on_null = _string_value(args[0][0]).upper()
    if len(args) == 1:
        return _json_text("'[]'"), DataTypes.STRING(False)
    items = 'array(%s)' % ', '.join(_json_input('JSON_ARRAY', a) for a in args[1:])
    if on_null == 'ABSENT':
        items = 'filter(%s, x -> x IS NOT NULL)' % items
    return _json_text('to_json(%s)' % items), DataTypes.STRING(False)


JSON_FUNCTIONS: Dict[str, Callable[[str, List[Arg]], Result]] = {
    'JSON_STRING': _json_string,
    '__JSON_OBJECT': _json_object,
    '__JSON_ARRAY': _json_array,
    '__JSON_VALUE': _json_value,
    '__JSON_QUERY': _json_query,
    '__JSON_EXISTS': _json_exists,
    '__IS_JSON': _is_json,
}
