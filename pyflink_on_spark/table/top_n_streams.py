"""ROW_NUMBER() in STREAMING mode (issue 44): Flink's Top-N and deduplication as a keyed
function in the DataStream job. The per-row part of the query (table/top_n_query.py), keyed
by the partition keys, into TopNFunction, whose keyed state (checkpointed with the job)
keeps each key's buffer and whose changes are the rules' (table/top_n_rules.py). Its
changes are the query's keyed changelog (QueryTable.keyed_changelog): the rows of
execute(), to_pandas() and to_changelog_stream, with their RowKinds. What is not built is
refused at sql_query (check_top_n_query); RANK() and DENSE_RANK() fail there as on PyFlink.
Over a grouping subquery (an updating input) the grouping query's changelog, keyed by the
partition keys, goes into UpdatingTopNFunction (table/retract_top_n_rules.py)."""
from __future__ import annotations

from typing import List, Optional, Sequence

from pyflink_on_spark.datastream.functions import KeyedProcessFunction

__all__ = ['TopNFunction', 'UpdatingTopNFunction', 'check_top_n_query', 'inlined_grouping_view',
           'ranking_over_aggregate', 'top_n_changes', 'top_n_stream']


class TopNFunction(KeyedProcessFunction):
    """The per-row query's Rows keyed by their partition keys -> the changes: Rows named
    `names` with their RowKind, or (`plain`) tuples of the values and the RowKind's value
    last (the keyed changelog's records). `sources` per result column: the index of its
    value in the per-row row, or None for the rank (`constant_rank` when the rules give no
    rank number: Flink's constant rn)."""

    def __init__(self, rules, names: Sequence[str], sources: Sequence[Optional[int]],
                 constant_rank: int, plain: bool = False) -> None:
        self.rules = rules
        self.names = list(names)
        self.sources = list(sources)
        self.constant_rank = constant_rank
        self.plain = plain
        self.state = None

    def open(self, runtime_context) -> None:
        from pyflink_on_spark.common.typeinfo import Types
        from pyflink_on_spark.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(
            ValueStateDescriptor("top_n", Types.PICKLED_BYTE_ARRAY()))

    def process_element(self, value, ctx):
        row = tuple(getattr(value, "_values", value))
        state = self.state.value()
        if state is None:
            state = self.rules.new_state()
        changes = self.rules.on_row(state, row)
        # (a row taken in may change nothing yet: ranks from 2, a tie after the end)
        self.state.update(state)
        return self._emitted(changes)

    def _emitted(self, changes):
        from pyflink_on_spark.common.types import Row, RowKind
        if not changes:
            return None
        kinds = {"+I": RowKind.INSERT, "-U": RowKind.UPDATE_BEFORE,
                 "+U": RowKind.UPDATE_AFTER, "-D": RowKind.DELETE}
        out: List = []
        for kind, changed, rank in changes:
            rank = self.constant_rank if rank is None else rank
            values = tuple(rank if i is None else changed[i] for i in self.sources)
            if self.plain:
                out.append(values + (kinds[kind].value,))
            else:
                result = Row(*values)
                result.set_field_names(self.names)
                result.set_row_kind(kinds[kind])
                out.append(result)
        return out


class UpdatingTopNFunction(TopNFunction):
    """TopNFunction over a grouping query's changelog (Rows with their RowKinds): the rules
    (retract_top_n_rules.UpdatingTopNRules) take each change with its kind."""

    _KINDS = ("+I", "-U", "+U", "-D")

    def process_element(self, value, ctx):
        row = tuple(getattr(value, "_values", value))
        kind = value.get_row_kind().value if hasattr(value, "get_row_kind") else 0
        state = self.state.value()
        if state is None:
            state = self.rules.new_state()
        changes = self.rules.on_change(state, self._KINDS[kind], row)
        self.state.update(state)
        return self._emitted(changes)


def _split_updating(query: str):
    """split_updating_top_n's split, its refusals as NotImplementedError."""
    from pyflink_on_spark.table.sql import UnsupportedSqlError
    from pyflink_on_spark.table.top_n_query import split_updating_top_n
    try:
        return split_updating_top_n(query)
    except UnsupportedSqlError as e:
        raise NotImplementedError(str(e)) from None


def updating_top_n_function(split, names: Sequence[str], plain: bool = False
                            ) -> UpdatingTopNFunction:
    """The keyed function of a ROW_NUMBER() Top-N over a grouping query's changelog, with
    the operator Flink 1.20.5 plans for it (RankProcessStrategy): UpdateFastStrategy when
    the grouping query's upsert key (its GROUP BY columns, all selected) holds the partition
    keys and each sort column only moves the way its order ranks higher (seen in PyFlink's
    plans: COUNT / MAX DESC, MIN ASC, a group key; SUM, AVG and COUNT ASC retract), its ranks
    1 to 1 FastTop1Function; else RetractableTopNFunction."""
    from pyflink_on_spark.table.retract_top_n_rules import (FAST_TOP_1, RETRACTABLE,
                                                            UPDATABLE, UpdatingTopNRules,
                                                            monotonic_order)
    from pyflink_on_spark.table.top_n_query import STAR
    middle = dict(split.middle)
    sources: List[Optional[int]] = []
    for kind, what in split.items:
        if kind == STAR:
            sources.extend(i for _, i in split.middle)
        else:
            sources.append(middle[what[0]])
    order = [(split.sorts[i], desc, nulls_first)
             for i, (desc, nulls_first) in enumerate(split.order)]
    rank_number = None in sources and split.start != split.end
    fast = bool(split.group_keys) and set(split.keys) <= set(split.group_keys) and \
        monotonic_order([split.monotonicity[i] for i in split.sorts],
                        [desc for desc, _ in split.order])
    strategy = (FAST_TOP_1 if split.start == split.end == 1 else UPDATABLE) if fast \
        else RETRACTABLE
    rules = UpdatingTopNRules(order, split.start, split.end, rank_number, strategy,
                              split.group_keys)
    return UpdatingTopNFunction(rules, names, sources, split.start, plain)


def _keyed_grouping_changes(t_env, split, inputs):
    """The grouping query's changelog (Rows with their kinds) keyed by the partition keys."""
    grouping = t_env._translated_over_views(split.grouping, inputs)
    keys = split.keys
    return t_env._group_changelog(grouping) \
        .key_by(lambda row: tuple(getattr(row, "_values", row)[i] for i in keys))


def inlined_grouping_view(t_env, query: str, named):
    """A ROW_NUMBER() query whose ranked select reads a view of a grouping query in STREAMING
    mode (`create_temporary_view("g", t_env.sql_query("SELECT k, COUNT(*) ... GROUP BY
    k"))`, then `... ROW_NUMBER() OVER (...) AS rn FROM g`) as the same query over that
    grouping query as a subquery, and the inputs it reads ((name, Table) pairs: the view's
    in place of the view); None for any other query. Flink plans the view's query inline
    the same way (seen: the same changelog either way)."""
    import sqlglot
    from sqlglot import exp
    from pyflink_on_spark.table.projected_changelog import (inputs_in_place_of,
                                                            updating_grouping_view)
    from pyflink_on_spark.table.sql.translate import FLINK_DIALECT
    from pyflink_on_spark.table.top_n_query import source_of
    try:
        tree = sqlglot.parse_one(query, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError:
        return None

    if not isinstance(tree, exp.Select) or not isinstance(source_of(tree), exp.Subquery):
        return None
    middle = source_of(tree).this
    ranked = source_of(middle) if isinstance(middle, exp.Select) else None
    if not isinstance(ranked, exp.Table) or ranked.args.get("db") or not any(
            isinstance(w.this, exp.Anonymous) and w.this.name.upper() == "ROW_NUMBER"
            for w in middle.find_all(exp.Window)):
        return None
    view = updating_grouping_view(named, ranked.name)
    if view is None:
        return None
    description, grouping = view._description, view._description.flink_query
    try:
        grouping_tree = sqlglot.parse_one(grouping, read=FLINK_DIALECT)
    except sqlglot.errors.ParseError:
        return None
    if not isinstance(grouping_tree, exp.Select) or not grouping_tree.args.get("group"):
        return None
    ranked.replace(exp.Subquery(this=grouping_tree,
                                alias=exp.TableAlias(this=exp.to_identifier(
                                    ranked.alias_or_name))))
    return tree.sql(dialect=FLINK_DIALECT), inputs_in_place_of(t_env, named, ranked.name,
                                                               description)


def _split(t_env, query: str, inputs):
    """(the split, the per-row query as a Table, its number of inner select columns)."""
    from pyflink_on_spark.table.top_n_query import split_top_n
    from pyflink_on_spark.table.sql import UnsupportedSqlError
    try:
        split = split_top_n(query)
    except UnsupportedSqlError as e:
        raise NotImplementedError(str(e)) from None
    per_row = t_env._translated_over_views(split.per_row, inputs)
    width = len(per_row._resolved_columns()) - split.keys - len(split.order)
    return split, per_row, width


def ranking_over_aggregate(t_env, query: str, named) -> Optional[str]:
    """A ranking query in STREAMING mode that Flink runs as an over aggregate (no filter of
    its number, ordered by one ascending time attribute) as that over aggregate's query
    (top_n_query.as_over_aggregate), which the OVER window paths run, over bounded and
    unbounded tables alike; else None."""
    from pyflink_on_spark.table.top_n_query import as_over_aggregate, rank_top_n_failure
    if rank_top_n_failure(query) is not None or _split_updating(query) is not None:
        return None
    _refuse_watermarked_datagen(t_env, query, named)
    split, per_row, width = _split(t_env, query, [(n, t._description) for n, t in named])
    if split.filtered or split.failure(per_row._resolved_columns()[width + split.keys].rowtime):
        return None
    return as_over_aggregate(query)


def check_top_n_query(t_env, query: str, named) -> Optional[str]:
    """At sql_query, a ROW_NUMBER() / RANK() / DENSE_RANK() query in STREAMING mode over
    `named` ((name, Table) pairs): the TableException text running it fails with on PyFlink
    (seen: a RANK() or DENSE_RANK() Top-N, no rank end, an unfiltered ranking's window not
    ordered by one ascending time attribute), checked first as Flink's planner does; else
    NotImplementedError naming what is not built, or None when it runs."""
    from pyflink_on_spark.table.table_environment import StreamTableEnvironment
    from pyflink_on_spark.table.top_n_query import rank_top_n_failure
    failure = rank_top_n_failure(query)     # before what split_top_n refuses: seen
    if failure is not None:
        return failure
    _refuse_watermarked_datagen(t_env, query, named)
    updating = _split_updating(query)
    if updating is not None:
        _check_updating(t_env, updating, named)
        return None
    split, per_row, width = _split(t_env, query, [(n, t._description) for n, t in named])
    failure = split.failure(per_row._resolved_columns()[width + split.keys].rowtime)
    if failure is not None:
        return failure
    if not split.filtered:
        raise NotImplementedError(
            "%s() OVER (... ORDER BY <a time attribute>) without a filter of its number (an "
            "over aggregate) in STREAMING mode is not supported by pyflink_on_spark "
            "(docs/table.md)" % split.function)
    if not isinstance(t_env, StreamTableEnvironment):
        raise NotImplementedError(
            "ROW_NUMBER() OVER (...) in STREAMING mode in a TableEnvironment is not supported "
            "by pyflink_on_spark yet: a StreamTableEnvironment runs Flink's Top-N and "
            "deduplication (docs/table.md)")
    return None


def _check_updating(t_env, split, named) -> None:
    """What a Top-N over a grouping subquery needs here: a StreamTableEnvironment's job and
    a grouping subquery whose changelog the keyed aggregate computes."""
    from pyflink_on_spark.table.table_environment import StreamTableEnvironment
    if not isinstance(t_env, StreamTableEnvironment):
        raise NotImplementedError(
            "ROW_NUMBER() OVER (...) in STREAMING mode in a TableEnvironment is not supported "
            "by pyflink_on_spark yet: a StreamTableEnvironment runs Flink's Top-N "
            "(docs/table.md)")
    grouping = t_env._translated(split.grouping, named)
    if not t_env._keyed_changelog_fits(grouping):
        raise NotImplementedError(
            "ROW_NUMBER() OVER (...) over the grouping subquery %s is not supported by "
            "pyflink_on_spark yet: its changelog is not one the keyed aggregate computes "
            "(docs/table.md)" % split.grouping)


def _refuse_watermarked_datagen(t_env, query: str, named) -> None:
    """An unbounded datagen table declared with a WATERMARK: a ranking over it (a
    deduplication ordered by its rowtime among them) was not compared with PyFlink's:
    refused."""
    from pyflink_on_spark.table.over_window_streams import reads_watermarked_datagen
    from pyflink_on_spark.table.sql.tokens import mentions
    for name, table in named:
        if mentions(query, name) and \
                t_env._executor().table_reads_unbounded(table._description) and \
                reads_watermarked_datagen(table._description):
            raise NotImplementedError(
                "ROW_NUMBER() / RANK() OVER (...) over an unbounded datagen table declared "
                "with a WATERMARK is not supported by pyflink_on_spark yet (docs/table.md)")


def top_n_stream(t_env, table):
    """to_changelog_stream of a ROW_NUMBER() query's table that runs (check_top_n_query):
    the keyed function's Rows with their RowKinds, in the job that reads the table (over
    an unbounded table too: its per-row query runs in the unbounded job's micro-batches,
    spark/table_feeds.py, and the keyed state is checkpointed with that job); None for any
    other table."""
    from pyflink_on_spark.common.typeinfo import ExternalTypeInfo, Types
    from pyflink_on_spark.table.columns import column_names
    from pyflink_on_spark.table.table_environment import _type_info
    description = table._description
    if getattr(description, "keyed_changelog", None) is None or \
            getattr(description, "flink_query", None) is None:
        return None
    from pyflink_on_spark.table.sql import UnsupportedSqlError
    from pyflink_on_spark.table.top_n_query import split_top_n, split_updating_top_n
    columns = table._resolved_columns()
    names = column_names(columns)
    output_type = ExternalTypeInfo(Types.ROW_NAMED(
        list(names), [_type_info(c.sql_type) for c in columns]))
    try:
        updating = split_updating_top_n(description.flink_query)
        if updating is None:
            split_top_n(description.flink_query)
    except UnsupportedSqlError:
        return None     # not a ranking (a grouping query's keyed changelog)
    if updating is not None:
        return _keyed_grouping_changes(t_env, updating, description.inputs).process(
            updating_top_n_function(updating, names), output_type=output_type)
    split, per_row, width = _split(t_env, description.flink_query, description.inputs)
    keys = tuple(range(width, width + split.keys))
    return t_env._stream_of(per_row, as_tuples=False) \
        .key_by(lambda row: tuple(getattr(row, "_values", row)[i] for i in keys)) \
        .process(top_n_function(split, per_row, width, names), output_type=output_type)


def top_n_changes(t_env, table):
    """The keyed changelog of a ROW_NUMBER() query's table that runs (check_top_n_query): a
    StreamTable whose rows are the changes."""
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.graph.transformations import SinkTransformation
    from pyflink_on_spark.specs.sinks import CollectSinkSpec
    from pyflink_on_spark.specs.tables import StreamTable
    from pyflink_on_spark.table.columns import column_names
    description = table._description
    query = getattr(description, "flink_query", None)
    if query is None:
        return None
    columns = table._resolved_columns()
    updating = _split_updating(query)
    if updating is not None:
        node = _keyed_grouping_changes(t_env, updating, description.inputs).process(
            updating_top_n_function(updating, column_names(columns), plain=True),
            output_type=Types.PICKLED_BYTE_ARRAY())._transformation
    else:
        split, per_row, width = _split(t_env, query, description.inputs)
        function = top_n_function(split, per_row, width, column_names(columns), plain=True)
        keys = tuple(range(width, width + split.keys))
        node = t_env._stream_of(per_row, as_tuples=False) \
            .key_by(lambda row: tuple(getattr(row, "_values", row)[i] for i in keys)) \
            .process(function, output_type=Types.PICKLED_BYTE_ARRAY())._transformation
    sink = SinkTransformation(name="Collect Sink", input=node, spec=CollectSinkSpec(),
                              input_type=node.output_type)
    sink.parallelism = 1
    return StreamTable((sink,), sink.id, t_env._env._job_settings(), columns, changelog=True)


def top_n_function(split, per_row, width: int, names: Sequence[str],
                   plain: bool = False) -> TopNFunction:
    """The keyed function of a split ROW_NUMBER() query whose per-row query is `per_row`
    (`width` inner select columns, then the keys, then the sort values)."""
    from pyflink_on_spark.table.top_n_query import STAR
    from pyflink_on_spark.table.top_n_rules import (FIRST_ROW, LAST_ROW, TOP_1, TOP_N,
                                                    TopNRules)
    inner = [c.name for c in per_row._resolved_columns()[:width]]
    rank_at = inner.index(split.rank_name)
    sources: List[Optional[int]] = []
    for kind, what in split.items:
        if kind == STAR:
            sources.extend(None if i == rank_at else i for i in range(width))
        elif what[0] == split.rank_name:
            sources.append(None)
        else:
            sources.append(inner.index(what[0]))
    first_sort = width + split.keys
    order = [(first_sort + i, desc, nulls_first)
             for i, (desc, nulls_first) in enumerate(split.order)]
    # seen: Flink drops a constant rank number (rn = N) and emits the rows alone
    rank_number = None in sources and split.start != split.end
    if split.start == split.end == 1:
        rowtime = len(order) == 1 and per_row._resolved_columns()[first_sort].rowtime
        strategy = (LAST_ROW if order[0][1] else FIRST_ROW) if rowtime else TOP_1
        rules = TopNRules(order, 1, 1, rank_number, strategy,
                          rowtime=_RowtimeAt(first_sort) if rowtime else None)
    else:
        rules = TopNRules(order, split.start, split.end, rank_number, TOP_N)
    return TopNFunction(rules, names, sources, split.start, plain)


class _RowtimeAt:
    """A row's rowtime (its value at `index`) in milliseconds: the deduplications' order."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __call__(self, row: tuple) -> int:
        from pyflink_on_spark.table.over_window_streams import _millis
        return _millis(row[self.index])
