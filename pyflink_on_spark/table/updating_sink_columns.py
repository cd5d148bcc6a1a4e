"""The columns of an updating query an upsert sink writes (jdbc, upsert-kafka): its
changelog's values go by position, uncast, so the query is taken as it is below any rename
and each column's type must be the sink table's or widen to it."""
from __future__ import annotations

from typing import Callable, Sequence


def uncast_updating_table(table, columns: Sequence, sink: str, widens: Callable[[str, str],
                                                                                  bool]):
    """`table` below its renames; NotImplementedError naming the columns whose type `widens`
    does not take into the sink table's `columns` (`sink`: "jdbc table t", ...)."""
    from pyflink_on_spark.specs.tables import RenamedTable
    from pyflink_on_spark.table.table import Table
    while isinstance(table._description, RenamedTable):
        inner = table._description.input
        table = Table(inner, table._t_env, getattr(inner, "columns", None))
    narrowed = ["%s %s -> %s" % (c.name, c.sql_type, t.sql_type) for c, t in
                zip(table._resolved_columns(), columns) if not widens(c.sql_type, t.sql_type)]
    if narrowed:
        raise NotImplementedError(
            "INSERT INTO %s of an updating query whose column(s) %s need a cast: not "
            "supported by pyflink_on_spark yet (CAST them in the query)"
            % (sink, ", ".join(narrowed)))
    return table
