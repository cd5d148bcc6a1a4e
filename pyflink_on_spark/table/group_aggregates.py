"""The changelog of a grouping query over an unbounded table, in keyed state (issue 44).

Seen on PyFlink 1.20.5 (compat_tests/cases/table/unbounded_group_by.py): the aggregate takes
the rows of a group as they arrive; the group's first row emits +I[result], every later
row -U[previous result] then +U[new result], or nothing when its aggregate values did not
change (Flink's GroupAggFunction compares them). The per-row part of the query (keys,
aggregate arguments, WHERE) runs as any stateless query of an unbounded table (Spark SQL per
micro-batch, spark/streaming/table_feeds.py); this function keeps each group's accumulators
in the keyed state of the job (checkpointed with it, restored after a restart) and computes
the aggregates as Flink does: SUM in its argument's type (integers wrap, FLOAT in single
precision), AVG of integers the sum over the count truncated, NULLs skipped (a group of NULLs
only: SUM / MIN / MAX / AVG NULL, COUNT(x) 0).

A query with a Python aggregate function (udaf) runs as PyFlink's Python group aggregate
(BundledGroupAggregate below, with PyFlink's bundles)."""
from __future__ import annotations

import struct
from decimal import Context, Decimal
from typing import List, Optional, Sequence, Tuple

from pyflink_on_spark.datastream.functions import KeyedProcessFunction

_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}


def _wrap(value: int, bits: int) -> int:
    half = 1 << (bits - 1)
    return (value + half) % (2 * half) - half


def _single(value: float) -> float:
    """A Java float's value (FLOAT arithmetic)."""
    return struct.unpack("f", struct.pack("f", value))[0]


# DECIMAL sums exact to 38 digits and beyond (Python's default context rounds to 28)
_DECIMALS = Context(prec=80)


def decimal_quotient(total: Decimal, count: int, scale: int) -> Decimal:
    """total / count at `scale` digits, rounded half up (away from zero), as Flink's DECIMAL
    AVG divides (seen on PyFlink 1.20.5: AVG of -1.00000001, 0.5 is -0.25000001); exact, in
    integers."""
    scaled = int(total.scaleb(scale, _DECIMALS))    # total's scale <= scale: exact
    quotient, remainder = divmod(abs(scaled), count)
    if 2 * remainder >= count:
        quotient += 1
    return Decimal(quotient if scaled >= 0 else -quotient).scaleb(-scale, _DECIMALS)


class Aggregate:
    """One aggregate call: `function` (COUNT, SUM, MIN, MAX, AVG), the index of its argument
    in the row (None: COUNT(*)), the argument's Flink type."""

    def __init__(self, function: str, argument: Optional[int], arg_type: str) -> None:
        self.function = function
        self.argument = argument
        base = arg_type.split("(", 1)[0]
        self.bits = _BITS.get(base)
        self.single = base == "FLOAT"
        self.decimal = base == "DECIMAL"
        # AVG of a DECIMAL(p, s) is a DECIMAL(38, max(6, s)) (Flink's; seen on PyFlink 1.20.5)
        self.avg_scale = max(6, int(arg_type.split(",")[1].strip(" )"))) \
            if self.decimal and "," in arg_type else 6
        # a TIMESTAMP_LTZ value reaches the keyed path as PyFlink's Instant, which has no
        # order of its own (as on PyFlink): MIN / MAX compare its (seconds, nanos)
        self.instants = base == "TIMESTAMP_LTZ"

    def initial(self):
        return (0, 0) if self.function == "AVG" else 0 if self.function == "COUNT" else None

    def add(self, acc, row: Sequence):
        value = None if self.argument is None else row[self.argument]
        if self.function == "COUNT":
            return acc + (1 if self.argument is None or value is not None else 0)
        if value is None:
            return acc
        if self.function in ("MIN", "MAX"):
            return self._extreme(acc, value)
        if self.function == "SUM":
            return self._sum(acc, value)
        total, count = acc
        return (self._avg_sum(total, value), count + 1)

    def adder(self):
        """add, made for this call (the keyed aggregate's per-row path): COUNT, MIN, MAX and
        SUM of a type that neither wraps nor rounds without add's branches."""
        argument, function = self.argument, self.function
        if function == "COUNT":
            if argument is None:
                return lambda acc, row: acc + 1
            return lambda acc, row: acc if row[argument] is None else acc + 1
        if function == "SUM" and self.bits is not None:
            half = 1 << (self.bits - 1)

            def add_wrapped(acc, row):
                value = row[argument]
                if value is None:
                    return acc
                if acc is None:
                    return value
                total = acc + value
                return total if -half <= total < half else _wrap(total, self.bits)
            return add_wrapped
        if function == "SUM" and not self.single and not self.decimal:
            def add_sum(acc, row):
                value = row[argument]
                if value is None:
                    return acc
                return value if acc is None else acc + value
            return add_sum
        if function in ("MIN", "MAX") and self.instants:
            def add_extreme(acc, row):
                value = row[argument]
                return acc if value is None else self._extreme(acc, value)
            return add_extreme
        if function == "MIN":
            def add_min(acc, row):
                value = row[argument]
                return acc if value is None or (acc is not None and not value < acc) \
                    else value
            return add_min
        if function == "MAX":
            def add_max(acc, row):
                value = row[argument]
                return acc if value is None or (acc is not None and not value > acc) \
                    else value
            return add_max
        return self.add

    def merge(self, acc, other):
        """Two accumulators as one (merging session windows)."""
        if self.function == "COUNT":
            return acc + other
        if self.function == "AVG":
            if acc[1] == 0 or other[1] == 0:
                return other if acc[1] == 0 else acc
            return (self._avg_sum(acc[0], other[0]), acc[1] + other[1])
        if other is None or acc is None:
            return acc if other is None else other
        if self.function in ("MIN", "MAX"):
            return self._extreme(acc, other)
        return self._sum(acc, other)

    def _extreme(self, acc, value):
        """MIN / MAX of an accumulator (None: nothing yet) and a value (not None): the
        accumulator on a tie."""
        if acc is None:
            return value
        if self.instants:
            later = (value.seconds, value.nanos) > (acc.seconds, acc.nanos)
            earlier = (value.seconds, value.nanos) < (acc.seconds, acc.nanos)
        else:
            later, earlier = value > acc, value < acc
        return value if (earlier if self.function == "MIN" else later) else acc

    def _sum(self, acc, value):
        if acc is None:
            return value
        if self.bits is not None:
            return _wrap(acc + value, self.bits)
        if self.single:
            return _single(acc + value)
        if self.decimal:
            return _DECIMALS.add(acc, value)
        return acc + value

    def _avg_sum(self, total, value):
        """AVG's sum as Flink keeps it (its AvgAggFunction's sum type, seen on PyFlink
        1.20.5): a BIGINT for each integer type, wrapping (AVG of 2^63 - 1 and 10 is
        -4611686018427387899), a DOUBLE for a FLOAT (AVG of 16777216, 1, 1 is 5592406.0,
        where a FLOAT sum gives 5592405.5), a DECIMAL(38, s) for a DECIMAL."""
        if self.bits is not None:
            return _wrap(total + value, 64)
        if self.decimal:
            return _DECIMALS.add(total, value)
        return total + value

    def result(self, acc):
        if self.function != "AVG":
            return acc
        total, count = acc
        if count == 0:
            return None
        if self.bits is not None:   # Java's long division, truncated toward zero
            quotient = abs(total) // count
            return quotient if total >= 0 else -quotient
        if self.decimal:
            return decimal_quotient(total, count, self.avg_scale)
        mean = total / count
        return _single(mean) if self.single else mean


class GroupAggregate(KeyedProcessFunction):
    """Rows of the per-row query (group keys first, then aggregate arguments), keyed by their
    group keys -> the changelog of the result: Rows named `names` with their RowKind.
    `items` per result column: ("key", key index) or ("aggregate", Aggregate). `plain`: the
    changes as tuples of the result's values and the RowKind's value last instead of Rows
    (the keyed changelog that spark/table_changelog.py decodes, QueryTable.keyed_changelog:
    a tuple of plain values crosses the stage boundary by marshal, a Row by pickle).

    Per row (measured, benchmarks/keyed_changelog.py): the row's values are read once from
    the Row, each aggregate adds through a function made for its call (Aggregate.adder), the
    results are the accumulators themselves unless an AVG divides, and a change is a Row
    built directly (what Row(*values), set_field_names and set_row_kind give)."""

    def __init__(self, names: Sequence[str], items: Sequence[Tuple[str, object]],
                 plain: bool = False) -> None:
        self.names = list(names)
        self.items = list(items)
        self.aggregates: List[Aggregate] = [what for kind, what in items
                                            if kind == "aggregate"]
        self.plain = plain
        self.state = None

    def open(self, runtime_context) -> None:
        from pyflink_on_spark.common.typeinfo import Types
        from pyflink_on_spark.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(
            ValueStateDescriptor("group_aggregate", Types.PICKLED_BYTE_ARRAY()))
        self._prepare()

    def _prepare(self) -> None:
        """The per-row plan: the aggregates' add functions, whether their results are their
        accumulators, where each result column comes from (a key of the row, an aggregate
        value), and how a change is made."""
        self._adders = [a.adder() for a in self.aggregates]
        self._initial = tuple(a.initial() for a in self.aggregates)
        self._plain_results = all(a.function != "AVG" for a in self.aggregates)
        self._make = self._maker()

    def _maker(self):
        """(the row's values, the aggregate values, RowKind) -> the change."""
        from pyflink_on_spark.common.types import Row, RowKind
        keys = [what for kind, what in self.items if kind == "key"]
        width = max(keys) + 1 if keys else 0
        # result column -> its position in (the row's first `width` values + the aggregate
        # values)
        positions, next_aggregate = [], width
        for kind, what in self.items:
            if kind == "key":
                positions.append(what)
            else:
                positions.append(next_aggregate)
                next_aggregate += 1
        in_order = positions == list(range(len(positions)))
        names = self.names
        new_row = Row.__new__
        # the kinds make is given: RowKinds, or their values for plain changes
        self._kinds = tuple(k.value if self.plain else k for k in (
            RowKind.INSERT, RowKind.UPDATE_BEFORE, RowKind.UPDATE_AFTER))
        if self.plain and in_order:
            def make_plain(values, aggregated: tuple, kind: int) -> tuple:
                return tuple(values[:width]) + aggregated + (kind,)
            return make_plain

        def make(values, aggregated: tuple, kind):
            combined = tuple(values[:width]) + aggregated
            out = combined if in_order else tuple([combined[i] for i in positions])
            if self.plain:
                return out + (kind,)
            row = new_row(Row)
            row._values = list(out)
            row._fields = names
            row._row_kind = kind
            return row
        return make

    def process_element(self, value, ctx):
        values = getattr(value, "_values", value)     # a Row's values, or a tuple
        state = self.state
        accs = state.value()
        adders = self._adders
        if accs is None:
            accs = tuple([add(acc, values) for add, acc in zip(adders, self._initial)])
            state.update(accs)
            return (self._make(values, self._results(accs), self._kinds[0]),)
        new = tuple([add(acc, values) for add, acc in zip(adders, accs)])
        state.update(new)
        before, after = self._results(accs), self._results(new)
        if after == before:
            return None
        make, kinds = self._make, self._kinds
        return (make(values, before, kinds[1]), make(values, after, kinds[2]))

    def _results(self, accs: tuple) -> tuple:
        if self._plain_results:
            return accs
        return tuple([a.result(acc) for a, acc in zip(self.aggregates, accs)])


# PyFlink's python.fn-execution.bundle.size default: a bundle ends after this many rows
BUNDLE_SIZE = 100000


class UserAggregate:
    """A Python aggregate function's call (pyflink.table.udf.udaf): its AggregateFunction
    (create_accumulator / accumulate / get_value, its accumulator changed in place as
    PyFlink's worker changes it), the indices of its arguments in the per-row query's rows,
    its declared result type (a DataType or a Flink type string; a ROW's fields may be
    several columns, RowField)."""

    def __init__(self, function, arguments: Sequence[int], result_type,
                 name: str, row_fields: Optional[Sequence[str]] = None) -> None:
        self.function = function
        self.arguments = tuple(arguments)
        self.result_type = result_type
        self.name = name
        # Table.aggregate(f) / flat_aggregate(f): the arguments are one Row of these fields
        self.row_fields = None if row_fields is None else list(row_fields)
        self.views = ()     # the accumulator's declared MAP_VIEW fields (table/data_view.py)

    def initial(self):
        acc = self.function.create_accumulator()
        if self.views:
            from pyflink_on_spark.table.data_view import with_state_views
            acc = with_state_views(acc, self.views)
        return acc

    def add(self, acc, row: Sequence):
        if self.row_fields is not None:
            from pyflink_on_spark.common.types import Row
            one = Row(*[row[i] for i in self.arguments])
            one.set_field_names(self.row_fields)
            self.function.accumulate(acc, one)
            return acc
        self.function.accumulate(acc, *[row[i] for i in self.arguments])
        return acc

    def value(self, acc):
        return self.function.get_value(acc)


class RowField:
    """A result column that is one field of a ROW-typed Python aggregate's value (Table.
    aggregate's columns): the aggregate runs once per group, each of its columns reading its
    field (Flink's plan: the aggregate, then Calc(TMP_0.a AS m, TMP_0.b AS x))."""

    def __init__(self, aggregate: UserAggregate, index: int) -> None:
        self.aggregate = aggregate
        self.index = index


class PythonBuiltin(Aggregate):
    """A built-in aggregate call beside a Python aggregate function: PyFlink runs the whole
    aggregate in its Python worker with pyflink.table.functions' aggregates (seen in its
    source: SUM and AVG in Python numbers, not wrapped nor in single precision, AVG the sum
    divided by the count), the output coder converting the values to the column's type."""

    def _sum(self, acc, value):
        return value if acc is None else acc + value

    def add(self, acc, row: Sequence):
        if self.function == "AVG":
            value = row[self.argument]
            return acc if value is None else (acc[0] + value, acc[1] + 1)
        return super().add(acc, row)

    def value(self, acc):
        if self.function != "AVG":
            return acc
        total, count = acc
        return None if count == 0 else total / count


class BundledGroupAggregate(GroupAggregate):
    """A grouping query with a Python aggregate function (udaf) in STREAMING mode, as
    PyFlink 1.20.5's Python group aggregate runs it (pyflink/fn_execution/table/
    aggregate_fast.pyx GroupAggFunction): the rows of a bundle are kept by group in the
    order the groups first came; when the bundle ends each group's accumulators take all of
    its rows, and the group emits once: +I[result] the first time, -U[before the bundle]
    +U[after it] when the values changed (Python's != of the values get_value gave), else
    nothing. A bundle ends after `bundle_size` rows (python.fn-execution.bundle.size), at
    the end of the input, and here at the end of each micro-batch of an unbounded job (its
    checkpoint: PyFlink ends a bundle at each checkpoint; its bundle.time, 1 s by default,
    has no counterpart: runtime/operators/bundled_aggregate.py). The built-in aggregates of the query run as
    PyFlink's Python ones (PythonBuiltin); every value is converted to its column's type as
    PyFlink's output coder does (`converters`, the operator's)."""

    # runtime/registry.py runs it in runtime/operators/bundled_aggregate.py's BundleOperator
    runs_in_bundles = True

    def __init__(self, names: Sequence[str], items: Sequence[Tuple[str, object]],
                 result_types: Sequence[str], bundle_size: int = BUNDLE_SIZE,
                 job_parameters=(), plain: bool = False) -> None:
        super().__init__(names, items, plain)
        self.result_types = list(result_types)      # of the aggregate columns, in order
        # the aggregates each run once (a ROW aggregate's fields are columns: RowField); a
        # column is (its aggregate's index, its field's index or None)
        self._columns: List[Tuple[int, Optional[int]]] = []
        unique: list = []
        for column in self.aggregates:
            base, field = (column.aggregate, column.index) if isinstance(column, RowField) \
                else (column, None)
            if not any(base is u for u in unique):
                unique.append(base)
            self._columns.append(
                (next(i for i, u in enumerate(unique) if u is base), field))
        self.aggregates = unique
        self.converters: list = []      # the output coder's conversions (BundleOperator.open)
        self.bundle_size = bundle_size
        self.job_parameters = dict(job_parameters)
        self._bundle: dict = {}
        self._count = 0
        self.bundle_full = None     # the operator's finish_bundle (BundleOperator.open)

    def _prepare(self) -> None:
        self._make = self._maker()

    def open(self, runtime_context) -> None:
        from pyflink_on_spark.table.udf import FunctionContext
        super().open(runtime_context)
        for a in self.aggregates:
            if isinstance(a, UserAggregate):
                a.function.open(FunctionContext(None, self.job_parameters))

    def close(self) -> None:
        for a in self.aggregates:
            if isinstance(a, UserAggregate):
                a.function.close()

    def process_element(self, value, ctx):
        key = ctx.get_current_key()
        rows = self._bundle.get(key)
        if rows is None:
            self._bundle[key] = [value]
        else:
            rows.append(value)
        self._count += 1
        if self._count >= self.bundle_size:
            self.bundle_full()

    def take_bundle(self) -> list:
        """The bundle's (key, rows) in the order the keys first came; a new bundle starts."""
        bundle, self._bundle, self._count = self._bundle, {}, 0
        return list(bundle.items())

    def finish_key(self, rows: list) -> Optional[list]:
        """One group's rows of the bundle (its key set) -> its changelog rows."""
        aggregates = self.aggregates
        accs = self.state.value()
        first = accs is None
        if first:
            accs = [a.initial() for a in aggregates]
        # PyFlink calls get_value before and after the bundle's rows, a fresh
        # accumulator's too
        before = [a.value(acc) for a, acc in zip(aggregates, accs)]
        for row in rows:
            accs = [a.add(acc, row) for a, acc in zip(aggregates, accs)]
        after = [a.value(acc) for a, acc in zip(aggregates, accs)]
        self.state.update(accs)
        values = getattr(rows[0], "_values", rows[0])
        kinds = self._kinds
        if first:
            return [self._make(values, self._converted(after), kinds[0])]
        if before != after:
            return [self._make(values, self._converted(before), kinds[1]),
                    self._make(values, self._converted(after), kinds[2])]
        return None

    def _converted(self, values: list) -> tuple:
        """The aggregates' values -> the columns' (a ROW's field read from its value, None
        from a NULL row), converted."""
        return tuple(convert(values[i] if field is None else
                             None if values[i] is None else values[i][field])
                     for convert, (i, field) in zip(self.converters, self._columns))


class BundledTableAggregate(BundledGroupAggregate):
    """Table.flat_aggregate's query in STREAMING mode: a table aggregate function (udtaf)
    per group, as PyFlink 1.20.5 runs it (pyflink/fn_execution/table/aggregate_fast.pyx
    GroupTableAggFunction, the changelog seen: compat_tests/cases/table/
    table_flat_aggregate.py): when a bundle ends, a group seen before first retracts every
    row emit_value gave for its accumulator (-D, whether or not they change), then takes the
    bundle's rows and emits emit_value's rows (+I). An emitted Row gives its fields, a
    tuple its values, another value the one column."""

    def _prepare(self) -> None:
        from pyflink_on_spark.common.types import RowKind
        super()._prepare()
        self._delete, self._insert = (k.value if self.plain else k
                                      for k in (RowKind.DELETE, RowKind.INSERT))

    def finish_key(self, rows: list) -> Optional[list]:
        (aggregate,) = self.aggregates
        acc = self.state.value()
        values = getattr(rows[0], "_values", rows[0])
        out = []
        if acc is None:
            acc = aggregate.initial()
        else:
            out.extend(self._emitted(values, acc, self._delete))
        for row in rows:
            acc = aggregate.add(acc, row)
        self.state.update(acc)
        out.extend(self._emitted(values, acc, self._insert))
        return out or None

    def _emitted(self, values, acc, kind) -> list:
        """The rows of emit_value(acc), as changes of `kind` (all taken before the
        accumulator changes)."""
        from pyflink_on_spark.common.types import Row
        out = []
        for emitted in self.aggregates[0].function.emit_value(acc):
            fields = list(emitted) if isinstance(emitted, (Row, tuple)) else [emitted]
            out.append(self._make(values, tuple(
                convert(fields[field or 0]) for convert, (_, field)
                in zip(self.converters, self._columns)), kind))
        return out


def group_aggregate(names: Sequence[str], grouping, types: Sequence[str],
                    result_types: Sequence[str], user_functions, job_parameters=(),
                    bundle_size: int = BUNDLE_SIZE, plain: bool = False) -> GroupAggregate:
    """The keyed function of a split grouping query (table/sql/grouping.py Grouping):
    `types` the per-row query's column types, `result_types` the result's; `user_functions`
    the Python aggregate functions (udaf wrappers) by lowercase call name. A query calling
    one runs as PyFlink's Python group aggregate (BundledGroupAggregate)."""
    from pyflink_on_spark.table.sql.grouping import AGGREGATE, USER_AGGREGATE
    keys = grouping.keys
    python = any(kind == USER_AGGREGATE for kind, _ in grouping.items)
    builtin = PythonBuiltin if python else Aggregate
    items: List[Tuple[str, object]] = []
    aggregate_types = []
    calls: dict = {}    # (name, arguments) -> its UserAggregate: f(x).a and f(x).b run once
    table_aggregate = False     # a udtaf's call (Table.flat_aggregate)
    for (kind, what), result_type in zip(grouping.items, result_types):
        if kind == AGGREGATE:
            function, argument = what
            items.append((AGGREGATE, builtin(
                function, None if argument is None else keys + argument,
                "BIGINT" if argument is None else types[keys + argument])))
        elif kind == USER_AGGREGATE:
            name, arguments, field = what
            wrapper = user_functions[name]
            call = calls.get((name, arguments))
            if call is None:
                call = calls[(name, arguments)] = UserAggregate(
                    wrapper.delegate(), [keys + i for i in arguments],
                    wrapper.result_types()[0], wrapper._name, wrapper.row_fields())
                from pyflink_on_spark.table.data_view import declared_views
                call.views = declared_views(getattr(wrapper, "_accumulator_type", None))
            table_aggregate = table_aggregate or wrapper._is_table_aggregate
            items.append((AGGREGATE, call if field is None else
                          RowField(call, _field_index(wrapper, field))))
        else:
            items.append((kind, what))
            continue
        aggregate_types.append(result_type)
    if not python:
        return GroupAggregate(names, items, plain)
    if table_aggregate:
        # Table.flat_aggregate's query: the keys and the columns of one udtaf call
        columns = [what for kind, what in items if kind == AGGREGATE]
        if len(calls) != 1 or any(not isinstance(c, (RowField, UserAggregate))
                                  for c in columns):
            raise NotImplementedError(
                "a table aggregate function (udtaf) runs on pyflink_on_spark in "
                "Table.flat_aggregate only, alone beside the group keys")
        return BundledTableAggregate(names, items, aggregate_types, bundle_size,
                                     job_parameters, plain)
    return BundledGroupAggregate(names, items, aggregate_types, bundle_size, job_parameters,
                                 plain)


def _field_index(wrapper, field: str) -> int:
    """The position of `field` in the ROW a Python aggregate function's value is."""
    from pyflink_on_spark.table.sql.flink_types import parse_type
    result_type = wrapper.result_types()[0]
    if isinstance(result_type, str):
        result_type = parse_type(result_type)
    return result_type.names.index(field)


def key_selector(keys: int):
    """The key_by of the per-row query's Rows: the tuple of their first `keys` values."""
    def select(row):
        return tuple(getattr(row, "_values", row)[:keys])
    return select


def check_python_aggregate(query: str, specs, user_functions) -> Optional[str]:
    """A query that calls Python aggregate functions (`specs`, UserFunctionSpecs) in
    STREAMING mode: None when it runs, the TableException text its run fails with as on
    PyFlink 1.20.5 (seen: sql_query accepts a pandas udaf in a grouping query,
    to_changelog_stream and execute() fail with 'Pandas UDAFs are not supported in streaming
    mode currently.'), or NotImplementedError naming what keeps it from running here. A
    pandas udaf runs in a window aggregate (the bounded window query in Spark SQL: PyFlink's
    pandas_udaf example); a general udaf in a grouping query of the split's shape
    (`user_functions`: the general udafs by lowercase call name), in a StreamTableEnvironment
    or a TableEnvironment (its keyed aggregate through table/stream_bridge.py)."""
    from pyflink_on_spark.table.sql import UnsupportedSqlError
    from pyflink_on_spark.table.sql.grouping import split_grouping
    from pyflink_on_spark.table.sql.window_grouping import is_window_query
    aggregates = [f for f in specs if f.kind == "aggregate"]
    general = [f.name for f in aggregates if f.func_type != "pandas"]
    if is_window_query(query):
        if general:
            raise NotImplementedError(
                "a general Python aggregate function (%s) in a window aggregate in STREAMING "
                "mode is not supported by pyflink_on_spark yet (a pandas udaf runs there, "
                "docs/table.md)" % ", ".join(general))
        return None
    if len(general) < len(aggregates):
        # PyFlink's text without its plan (Flink's logical plan has no counterpart here)
        return ("org.apache.flink.table.api.TableException: Cannot generate a valid execution "
                "plan for the given query: \n\nPandas UDAFs are not supported in streaming "
                "mode currently.\nPlease check the documentation for the set of currently "
                "supported SQL features.")
    try:
        split_grouping(query, user_functions)
    except UnsupportedSqlError as e:
        raise NotImplementedError(
            "a Python aggregate function (udaf) in STREAMING mode runs in a grouping query "
            "of group keys and aggregate calls over one input on pyflink_on_spark: %s" % e
        ) from None
    return None
