"""The Flink SQL each relational Table method writes over its input tables (table.py), so
that Flink's result types and NULL rules come from the SQL translator (table/sql). Pure text:
no Spark, no environment. Column names and errors follow Flink's Table API as seen on PyFlink
1.20.5 (compat_tests/cases/table/table_api_methods.py):

- a column reference keeps its name, an alias names its column, an unnamed aggregate call is
  `EXPR$<n>` (n numbers the select's distinct aggregate calls in order, aliased ones too),
  any other unnamed expression `_c<position>`;
- a column that is not there: `Cannot resolve field [x], input field list:[a, b].`, the list
  being the table's columns, or a grouped select's keys (and aggregates);
- a join of tables sharing a column name: `join relations with ambiguous names: [...]`; an
  outer join whose predicate equates no column of one side with one of the other: `Invalid
  join condition: ... At least one equi-join predicate is required.`;
- order_by: ascending NULLs last, descending NULLs first."""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from pyflink_on_spark.table.expression import Expression
from pyflink_on_spark.table.sql.errors import SqlValidationError

__all__ = ['q', 'as_expression', 'check_reads', 'select_query', 'join_query',
           'set_query', 'sort_query', 'added_columns_query', 'renamed_columns_query',
           'dropped_columns_query', 'java_hash_order']


def q(name: str) -> str:
    return "`%s`" % name.replace("`", "``")


def as_expression(field, method: str) -> Expression:
    if isinstance(field, str):
        from pyflink_on_spark.table.expressions import col
        return col(field)
    if not isinstance(field, Expression):
        raise TypeError("%s() takes Expressions (col('a'), lit(1)...), got %r"
                        % (method, field))
    return field


def _unresolved(name: str, names: Sequence[str]) -> SqlValidationError:
    return SqlValidationError("Cannot resolve field [%s], input field list:[%s]."
                              % (name, ", ".join(names)))


def check_reads(expression: Expression, names: Sequence[str]) -> None:
    """Every column the expression reads is one of `names` (Flink's words otherwise)."""
    for name in expression.reads:
        if name not in names:
            raise _unresolved(name, names)


def select_query(table: str, names: Sequence[str], fields: Sequence[Expression],
                 keys: Optional[Sequence[Expression]] = None) -> str:
    """SELECT of `fields` over `table` (columns `names`), grouped by `keys` when given (a
    select holding aggregate calls and no keys is one group). `col('*')` is the table's
    columns, or a grouped select's keys (seen on PyFlink 1.20.5); two result columns of one
    name fail with Flink's `Ambiguous column name: <name>` (seen: `k, v.alias('k')`,
    `*, *`, two unnamed `v.sum` both `EXPR$0`), where Flink's SQL would rename one."""
    fields = _stars_expanded(fields, names, keys)
    for f in list(fields) + list(keys or ()):
        check_reads(f, names)
        if f.ordering is not None:
            raise SqlValidationError("%s: asc / desc is for order_by only" % f.sql)
    numbers: Dict[str, int] = {}
    for f in fields:
        for call in f.aggregates:
            numbers.setdefault(call, len(numbers))
    if keys is not None:
        if any(k.aggregates for k in keys):
            raise SqlValidationError("an aggregate call cannot be a group_by key")
        if all(k.name is not None and not k.aggregates and k.refs == (k.name,)
               for k in keys):        # keys are columns: the select may read only them
            visible = [k.name for k in keys] + [_expr_name(n) for n in range(len(numbers))]
            for f in fields:
                for name in f.refs:
                    if name not in visible:
                        raise _unresolved(name, visible)
    items = []
    taken = set()
    for position, f in enumerate(fields):
        if f.name is not None:
            name, item = f.name, f.named_sql
        elif f.aggregate_call is not None:
            name = _expr_name(numbers[f.sql])
            item = "%s AS %s" % (f.sql, q(name))
        else:
            name = "_c%d" % position
            item = "%s AS %s" % (f.sql, q(name))
        if name in taken:
            raise SqlValidationError("Ambiguous column name: %s" % name)
        taken.add(name)
        items.append(item)
    sql = "SELECT %s FROM %s" % (", ".join(items), q(table))
    if keys:
        sql += " GROUP BY %s" % ", ".join(k.sql for k in keys)
    return sql


def _is_star(field: Expression) -> bool:
    return field.sql == "`*`" and field.refs == ("*",)


def _stars_expanded(fields: Sequence[Expression], names: Sequence[str],
                    keys: Optional[Sequence[Expression]]) -> List[Expression]:
    """col('*') as the columns it stands for, in their places (positions, and so `_c<n>`
    names, count them: `v + 1, *` gives `_c0, k, v` on PyFlink 1.20.5)."""
    if not any(_is_star(f) for f in fields):
        return list(fields)
    from pyflink_on_spark.table.expressions import col
    if keys is None:
        columns = list(names)
    elif all(k.name is not None and k.refs == (k.name,) and k.sql == q(k.name) for k in keys):
        columns = [k.name for k in keys]
    else:
        raise NotImplementedError("select(col('*')) after group_by of an expression: "
                                  "pyflink_on_spark expands col('*') to grouping keys that "
                                  "are columns only; name the columns")
    out: List[Expression] = []
    for f in fields:
        out.extend([col(n) for n in columns] if _is_star(f) else [f])
    return out


def _expr_name(number: int) -> str:
    return "EXPR$%d" % number


def java_hash_order(names: Sequence[str]) -> List[str]:
    """`names` in the iteration order of a small java.util.HashSet of them (the order
    Flink lists ambiguous join columns in): by bucket of the spread String.hashCode."""
    capacity = 16
    while len(names) > capacity * 3 // 4:
        capacity *= 2
    buckets: Dict[int, List[str]] = {}
    for name in names:
        h = 0
        for ch in name:
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
        h ^= h >> 16
        buckets.setdefault(h & (capacity - 1), []).append(name)
    return [n for b in sorted(buckets) for n in buckets[b]]


def join_query(left: str, left_names: Sequence[str], right: str, right_names: Sequence[str],
               kind: str, predicate: Optional[Expression]) -> str:
    """`kind`: 'INNER', 'LEFT', 'RIGHT', 'FULL'. Without a predicate an inner join is a
    cross join, a left outer join joins on TRUE (every pair, as on PyFlink)."""
    shared = [n for n in left_names if n in right_names]
    if shared:
        raise SqlValidationError("join relations with ambiguous names: [%s]"
                                 % ", ".join(java_hash_order(shared)))
    if predicate is None:
        if kind == "INNER":
            return "SELECT * FROM %s CROSS JOIN %s" % (q(left), q(right))
        condition = "TRUE"
    else:
        check_reads(predicate, list(left_names) + list(right_names))
        if predicate.aggregates:
            raise SqlValidationError("an aggregate call in a join predicate: %s"
                                     % predicate.sql)
        if kind != "INNER" and not any(
                (a in left_names) != (b in left_names) for a, b in predicate.equalities):
            # Flink shows the condition as its expression summary (equals(id, plus(nid,
            # 2))); the shim as Flink SQL
            raise SqlValidationError("Invalid join condition: %s. At least one equi-join "
                                     "predicate is required." % predicate.sql)
        condition = predicate.sql
    return "SELECT * FROM %s %s JOIN %s ON %s" % (q(left), kind, q(right), condition)


def set_query(left: str, right: str, operation: str) -> str:
    """`operation`: 'UNION', 'EXCEPT', 'INTERSECT', each optionally followed by ' ALL'."""
    return "SELECT * FROM %s %s SELECT * FROM %s" % (q(left), operation, q(right))


def order_items(names: Sequence[str], fields: Sequence[Expression]) -> str:
    items = []
    for f in fields:
        check_reads(f, names)
        if f.aggregates:
            raise SqlValidationError("an aggregate call in order_by: %s" % f.sql)
        # Flink's Table API: ascending NULLs last, descending NULLs first (seen on 1.20.5)
        items.append("%s DESC NULLS FIRST" % f.sql if f.ordering == "DESC"
                     else "%s ASC NULLS LAST" % f.sql)
    return ", ".join(items)


def sort_query(table: str, order: Optional[str], offset: int, fetch: Optional[int]) -> str:
    sql = "SELECT * FROM %s" % q(table)
    if order:
        sql += " ORDER BY " + order
    if fetch is not None:
        sql += " LIMIT %d" % fetch
    if offset:
        sql += " OFFSET %d" % offset
    return sql


def added_columns_query(table: str, names: Sequence[str], fields: Sequence[Expression],
                        replace: bool) -> str:
    """add_columns (replace False: a name already there is refused) or
    add_or_replace_columns (a column of that name replaced in place, the last of several
    added with one name wins)."""
    added: List[Tuple[str, str]] = []
    for position, f in enumerate(fields):
        check_reads(f, names)
        if f.aggregates:
            raise SqlValidationError("an aggregate call cannot be added as a column: %s"
                                     % f.sql)
        # an unnamed one is _c<its position in the result> (seen: _c4 after 4 columns)
        name = f.name if f.name is not None else "_c%d" % (len(names) + position)
        if not replace and (name in names or name in [n for n, _ in added]):
            raise SqlValidationError("Ambiguous column name: %s" % name)
        added = [(n, s) for n, s in added if n != name] + [(name, f.sql)]
    replaced = dict(added)
    items = ["%s AS %s" % (replaced.pop(n), q(n)) if n in replaced else q(n) for n in names]
    items += ["%s AS %s" % (s, q(n)) for n, s in added if n in replaced]
    return "SELECT %s FROM %s" % (", ".join(items), q(table))


def renamed_columns_query(table: str, names: Sequence[str],
                          fields: Sequence[Expression]) -> str:
    new: Dict[str, str] = {}
    for f in fields:
        if f.name is None or len(f.refs) != 1 or f.aggregates or \
                f.sql != q(f.refs[0]) or f.name == f.refs[0] and f.sql == q(f.name):
            raise SqlValidationError("rename_columns takes column references with an alias "
                                     "(col('a').alias('b')), got %s" % f.sql)
        old = f.refs[0]
        if old not in names:
            raise _unresolved(old, names)
        new[old] = f.name
    result = [new.get(n, n) for n in names]
    if len(set(result)) != len(result):
        duplicates = sorted({n for n in result if result.count(n) > 1})
        raise SqlValidationError("Field names must be unique. Found duplicates: [%s]"
                                 % ", ".join(duplicates))
    return "SELECT %s FROM %s" % (", ".join(
        "%s AS %s" % (q(n), q(new[n])) if n in new else q(n) for n in names), q(table))


def dropped_columns_query(table: str, names: Sequence[str],
                          fields: Sequence[Expression]) -> str:
    dropped = []
    for f in fields:
        if f.name is None or f.sql != q(f.name):
            raise SqlValidationError("drop_columns takes column references (col('a')), got %s"
                                     % f.sql)
        if f.name not in names:
            raise SqlValidationError("Field %s does not exist in source table" % f.name)
        dropped.append(f.name)
    kept = [n for n in names if n not in dropped]
    return "SELECT %s FROM %s" % (", ".join(q(n) for n in kept), q(table))
