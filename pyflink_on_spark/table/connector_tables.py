"""Tables of connectors declared by DDL (execute_sql('CREATE TABLE ...')) or by a
TableDescriptor (create_temporary_table): the datagen connector runs (its rows generated in
the source's Spark tasks by table/sql's datagen_rows); other connectors raise
NotImplementedError naming them (docs/table.md)."""
from __future__ import annotations

import functools
from dataclasses import replace
from typing import Tuple

from pyflink_on_spark.specs.tables import GeneratedTable, TableColumn

# connectors of the DDL that run
RUNNING_CONNECTORS = ("datagen", "filesystem", "print", "blackhole")


def flink_column(name: str, type_text: str) -> TableColumn:
    """A column of Flink's type text ('INT NOT NULL', 'TIMESTAMP_LTZ(3) *ROWTIME*': a
    rowtime attribute)."""
    if not isinstance(type_text, str):      # the translator types every column it returns
        raise NotImplementedError("the type of the column %r is not derived by "
                                  "pyflink_on_spark (docs/table_sql.md)" % name)
    rowtime = type_text.endswith(" *ROWTIME*")
    if rowtime:
        type_text = type_text[:-len(" *ROWTIME*")]
    not_null = type_text.endswith(" NOT NULL")
    return TableColumn(name, type_text[:-len(" NOT NULL")] if not_null else type_text,
                       not not_null, rowtime=rowtime)


def _is_bounded(create_table) -> bool:
    """Seen on PyFlink 1.20.5 (table/sql/datagen.py): a datagen subtask ends at its first
    exhausted sequence or when its share of number-of-rows is out."""
    options = create_table.options
    return "number-of-rows" in options or any(
        options.get("fields.%s.kind" % c.name) == "sequence"
        for c in create_table.physical_columns)


def connector_table(create_table, t_env):
    """The Table of a CREATE TABLE statement (table/sql CreateTable)."""
    from pyflink_on_spark.table.sql import datagen_rows, scan_parallelism, validate_datagen
    from pyflink_on_spark.table.table import Table
    connector = create_table.options.get("connector")
    if connector == "kafka":                    # a source: table/kafka_tables.py
        from pyflink_on_spark.table.kafka_tables import kafka_table
        return kafka_table(create_table, t_env)
    if connector == "upsert-kafka":             # a sink: table/upsert_kafka_tables.py
        from pyflink_on_spark.table.upsert_kafka_tables import upsert_kafka_table
        return upsert_kafka_table(create_table, t_env)
    if connector == "jdbc":                     # a source and a sink: table/jdbc_tables.py
        from pyflink_on_spark.table.jdbc_tables import jdbc_table
        return jdbc_table(create_table, t_env)
    if connector in RUNNING_CONNECTORS[1:]:     # table/table_connectors.py
        from pyflink_on_spark.table import table_connectors
        return table_connectors.connector_table(create_table, t_env)
    if connector not in RUNNING_CONNECTORS:
        raise NotImplementedError(
            "a table of the %r connector is not supported by pyflink_on_spark's Table API "
            "yet (connectors that run: %s, kafka, upsert-kafka and jdbc; docs/table.md)"
            % (connector, ", ".join(RUNNING_CONNECTORS)))
    validate_datagen(create_table)
    physical = tuple(flink_column(c.name, c.data_type) for c in create_table.physical_columns)
    parallelism = scan_parallelism(create_table) or t_env._parallelism()
    rows = functools.partial(datagen_rows, create_table)
    if _is_bounded(create_table):
        table = Table(GeneratedTable(rows, max(parallelism, 1), physical, True), t_env,
                      physical)
    else:       # random fields without number-of-rows: table/datagen_streams.py
        from pyflink_on_spark.table.datagen_streams import unbounded_datagen_table
        table = unbounded_datagen_table(create_table, t_env, physical, max(parallelism, 1))
    computed = [c for c in create_table.columns if not c.is_physical]
    if not computed:
        return _with_rowtime(table, create_table)
    # computed columns: a query over the generated rows, in the declared column order
    items = ", ".join("`%s`" % c.name if c.is_physical else _computed(c)
                      for c in create_table.columns)
    query = t_env._translated("SELECT %s FROM `%s`" % (items, table._name), (table,))
    # print_schema shows a computed column's expression, identifiers quoted (seen on PyFlink
    # 1.20.5: `total` INT AS `amount` * 10)
    expressions = {c.name: _quoted(c.expression) for c in computed}
    columns = tuple(replace(c, expression=expressions.get(c.name))
                    for c in query._resolved_columns())
    table = Table(query._description, t_env, columns)
    return _with_rowtime(table, create_table)


def _with_rowtime(table, create_table):
    """A datagen table's watermarked column as the time attribute it is on PyFlink (seen on
    PyFlink 1.20.5: `ts` TIMESTAMP_LTZ(3) *ROWTIME* and the WATERMARK line in print_schema),
    which OVER windows and window aggregates are ordered by. A bounded table's rows are all
    there at once, so none is late (docs/table.md). An unbounded one's rows come as they
    are generated: its watermarks are generated from the expression over the rows'
    rowtimes, the rows stamped with them (a RowtimeTable, as for from_data_stream's Schema
    watermark: Flink's datagen source takes no watermark, its planner puts a watermark
    assigner after it). Seen on PyFlink 1.20.5: TUMBLE windows of such a table fire as the
    generated time passes them, and to_data_stream's records carry the rowtime."""
    from pyflink_on_spark.specs.tables import RowtimeTable
    from pyflink_on_spark.table.table import Table
    from pyflink_on_spark.table.window_aggregates import sql_watermark_delay
    watermark = create_table.watermark
    if watermark is None:
        return table
    expression = _quoted(watermark.expression)
    columns = tuple(replace(c, rowtime=True, watermark=expression)
                    if c.name == watermark.column else c for c in table._resolved_columns())
    if _is_bounded(create_table):
        return Table(table._description, table._t_env, columns)
    sql_watermark_delay(expression)     # a form the shim generates, else NotImplementedError
    if expression.split()[0] != "`%s`" % watermark.column:
        raise NotImplementedError(
            "WATERMARK FOR %s AS %s of the unbounded datagen table %s: pyflink_on_spark "
            "generates the watermarks `%s` and `%s - INTERVAL 'n' SECOND` (or MILLISECOND, "
            "MINUTE, HOUR, DAY) of such a table (docs/table.md)"
            % (watermark.column, watermark.expression, create_table.name,
               watermark.column, watermark.column))
    return Table(RowtimeTable(table._description, watermark.column, columns), table._t_env,
                 columns)


def _quoted(expression: str) -> str:
    """A computed column's expression with its identifiers in backquotes."""
    import sqlglot
    return sqlglot.parse_one(expression, read="spark").sql(dialect="spark", identify=True)


def _computed(column) -> str:
    if column.metadata is not None:
        raise NotImplementedError("metadata column %r: not supported by pyflink_on_spark"
                                  % column.name)
    return "%s AS `%s`" % (column.expression, column.name)


def descriptor_ddl(path: str, descriptor) -> str:
    """A TableDescriptor as the CREATE TEMPORARY TABLE statement it stands for."""
    schema = descriptor._schema
    if schema is None:
        raise NotImplementedError("a TableDescriptor without a schema is not supported by "
                                  "pyflink_on_spark")
    lines = schema._ddl_lines()
    options = dict(descriptor._options)
    options["connector"] = descriptor._connector
    if descriptor._format is not None:
        options["format"] = descriptor._format
    with_clause = ", ".join("'%s' = '%s'" % (k.replace("'", "''"), str(v).replace("'", "''"))
                            for k, v in options.items())
    return "CREATE TEMPORARY TABLE `%s` (%s) WITH (%s)" % (path, ", ".join(lines),
                                                           with_clause)


def columns_text(columns: Tuple[TableColumn, ...]):
    return [(c.name, c.sql_type + ("" if c.nullable else " NOT NULL")) for c in columns]
