"""INSERT INTO a connector table (print, blackhole, filesystem): execute_sql('INSERT INTO t
SELECT ...'), Table.execute_insert('t') and statement sets. A bounded insert runs as one
Spark job when it is executed (spark/table_connectors.py: the rows written by Spark tasks);
its TableResult's wait() returns at once."""
from __future__ import annotations

from typing import List

from pyflink_on_spark.specs.table_connectors import ConnectorTable, TableInsert


def _target(t_env, path: str) -> ConnectorTable:
    table = t_env.from_path(path)
    description = table._description
    if not isinstance(description, ConnectorTable):
        raise NotImplementedError(
            "INSERT INTO %r: pyflink_on_spark inserts into tables of the filesystem, print "
            "and blackhole connectors only (docs/table.md)" % path)
    if description.refusal is not None:
        from pyflink_on_spark.specs.table_connectors import refusal_error
        raise refusal_error(description, sink=True)
    return description


def table_insert(t_env, path: str, table, overwrite: bool = False) -> TableInsert:
    """What inserting `table`'s rows into the table at `path` writes."""
    target = _target(t_env, path)
    if overwrite:
        raise NotImplementedError("INSERT OVERWRITE is not supported by pyflink_on_spark yet")
    columns = table._resolved_columns()
    if len(columns) != len(target.columns):
        raise ValueError(
            "INSERT INTO %r: the query has %d columns, the table %d (%s)"
            % (path, len(columns), len(target.columns),
               ", ".join(c.name for c in target.columns)))
    parallelism = target.parallelism or t_env._env.get_parallelism()
    return TableInsert(table._description, target, max(parallelism, 1))


class _InsertCounts(object):
    """What an INSERT's TableResult describes: seen on PyFlink 1.20.5, one BIGINT column per
    insert named by its target (`default_catalog.default_database.p`; `..._1`, `..._2` for
    two inserts into one table)."""

    def __init__(self, targets: List[str]) -> None:
        from pyflink_on_spark.specs.tables import TableColumn
        names = ["default_catalog.default_database.%s" % t for t in targets]
        seen: dict = {}
        columns = []
        for name in names:
            seen[name] = seen.get(name, 0) + 1
            label = "%s_%d" % (name, seen[name]) if names.count(name) > 1 else name
            columns.append(TableColumn(label, "BIGINT", True))
        self._columns = tuple(columns)

    def get_schema(self):
        from pyflink_on_spark.table.schema import TableSchema
        return TableSchema(columns=self._columns)

    def _rows(self):
        raise NotImplementedError("collect() of an INSERT's TableResult is not supported by "
                                  "pyflink_on_spark")


def run_inserts(t_env, inserts: List[TableInsert]):
    """Runs the inserts one after another: a TableResult as PyFlink's (kind
    SUCCESS_WITH_CONTENT, a JobClient of the job; the job has ended when it is returned)."""
    from pyflink_on_spark.table.table_result import ResultKind, TableResult

    class InsertResult(TableResult):
        def get_job_client(self):
            return job_client

    job_client = t_env._executor().table_inserts(inserts)
    return InsertResult(_InsertCounts([i.target.name for i in inserts]),
                        ResultKind.SUCCESS_WITH_CONTENT)


def insert_statement(t_env, statement):
    """execute_sql of a table/sql Insert statement."""
    if statement.column_names:
        raise NotImplementedError("INSERT INTO %s (columns): a column list is not supported "
                                  "by pyflink_on_spark yet" % statement.target)
    table = t_env.sql_query(statement.query)
    return run_inserts(t_env, [table_insert(t_env, statement.target, table,
                                            statement.overwrite)])


class StatementSet(object):
    """t_env.create_statement_set(): inserts run one after another by execute()."""

    def __init__(self, t_env) -> None:
        self._t_env = t_env
        self._inserts: List[TableInsert] = []

    def add_insert_sql(self, stmt: str) -> 'StatementSet':
        from pyflink_on_spark.table import sql
        statement = sql.parse_statement(stmt)
        if not isinstance(statement, sql.Insert):
            raise NotImplementedError("add_insert_sql takes an INSERT statement only")
        if statement.column_names:
            raise NotImplementedError("INSERT INTO %s (columns): a column list is not "
                                      "supported by pyflink_on_spark yet" % statement.target)
        self._inserts.append(table_insert(self._t_env, statement.target,
                                          self._t_env.sql_query(statement.query),
                                          statement.overwrite))
        return self

    def add_insert(self, target_path: str, table, overwrite: bool = False) -> 'StatementSet':
        self._inserts.append(table_insert(self._t_env, target_path, table, overwrite))
        return self

    def execute(self):
        inserts, self._inserts = self._inserts, []
        return run_inserts(self._t_env, inserts)

    def explain(self, *extra_details):
        raise NotImplementedError("StatementSet.explain is not supported by pyflink_on_spark")
