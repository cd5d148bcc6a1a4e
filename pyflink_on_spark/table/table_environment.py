"""TableEnvironment and StreamTableEnvironment: tables of DataStreams, pandas frames and SQL
queries, bound to the DataStream environment (its jobs and its Spark session). Builds table
descriptions (specs/tables.py); the Spark layer runs them (spark/table_frames.py) through the
executor's entry point, reached as the DataStream API reaches it."""
from __future__ import annotations

import itertools
from typing import Dict, List

from pyflink_on_spark.specs.tables import (RECORD_ATOMIC, QueryTable, RenamedTable, RowsTable,
                                           RowtimeTable, StreamTable, TableColumn)
from pyflink_on_spark.table.columns import column_names, renamed, stream_columns
from pyflink_on_spark.table.environment_settings import EnvironmentSettings, streaming_of
from pyflink_on_spark.table.table import Table
from pyflink_on_spark.table.table_objects import (
    TABLE, TEMPORARY_TABLE, TEMPORARY_VIEW, VIEW, TableObjects)

__all__ = ['TableEnvironment', 'StreamTableEnvironment']


def _unsupported(method: str, hint: str = "docs/table.md lists what runs"):
    def refuse(self, *args, **kwargs):
        raise NotImplementedError(
            "TableEnvironment.%s is not supported by pyflink_on_spark yet (%s)"
            % (method, hint))
    refuse.__name__ = method
    return refuse


_descriptors = itertools.count(1)


class TableConfig(object):
    """t_env.get_config(): the table options a program sets (kept; none changes what runs
    here)."""

    def __init__(self) -> None:
        from pyflink_on_spark.common.configuration import Configuration
        self._configuration = Configuration()

    def set(self, key: str, value: str) -> 'TableConfig':
        self._configuration.set_string(key, value)
        return self

    def get(self, key: str, default_value=None):
        return self._configuration.get_string(key, default_value)

    def get_configuration(self):
        return self._configuration

    def add_configuration(self, configuration) -> None:
        self._configuration.add_all(configuration)


class TableEnvironment(object):
    """TableEnvironment.create(EnvironmentSettings): tables without a DataStream program (from
    pandas, SQL queries); its jobs run on the Spark session every job of this process uses."""

    def __init__(self, env=None, environment_settings=None) -> None:
        if env is None:
            from pyflink_on_spark.datastream.stream_execution_environment import \
                StreamExecutionEnvironment
            env = StreamExecutionEnvironment.get_execution_environment()
        self._env = env
        self._settings = environment_settings
        # tables and views by name, temporary and permanent (table/table_objects.py);
        # _views: the ones a query reads, by name
        self._objects = TableObjects()
        self._views: Dict[str, Table] = self._objects.visible
        self._config = TableConfig()
        self._unnamed_views = 0                    # str(table)'s views: UnnamedTable$<n>
        self._udfs = None                          # table/function_registry.py, when first used

    @staticmethod
    def create(environment_settings) -> 'TableEnvironment':
        from pyflink_on_spark.common.configuration import Configuration
        if isinstance(environment_settings, Configuration):
            environment_settings = EnvironmentSettings.from_configuration(environment_settings)
        return TableEnvironment(None, environment_settings)

    @staticmethod
    def _executor():
        """The executor's entry point (spark/entry.py), imported only when a table's result
        or a query's columns are asked for: creating environments and tables loads no
        Spark."""
        from pyflink_on_spark.spark import entry
        return entry

    def _is_streaming(self) -> bool:
        return streaming_of(self._settings, self._env)

    def _parallelism(self) -> int:
        """The parallelism of the table program's operators: the table config's
        parallelism.default when set (PyFlink's word_count example sets it to 1: its print
        lines have no subtask prefix, seen on PyFlink 1.20.5), else the environment's."""
        configured = self._config.get("parallelism.default", None)
        return int(configured) if configured is not None else self._env.get_parallelism()

    # -- tables ---------------------------------------------------------------------------------

    def from_pandas(self, pdf, schema=None, splits_num: int = 1) -> Table:
        from pyflink_on_spark.table.columns import pandas_columns, row_type_columns
        from pyflink_on_spark.table.types import DataType, RowField, RowType
        if isinstance(schema, (list, tuple)) and schema and \
                all(isinstance(t, DataType) for t in schema):
            # seen on PyFlink 1.20.5: the frame's column names (as text: `0`, `1` for an
            # unnamed frame) with these types, paired as zip pairs them (a type too many
            # is no column)
            schema = RowType([RowField(str(name), data_type)
                              for name, data_type in zip(pdf.columns, schema)])
        if isinstance(schema, RowType):
            columns = row_type_columns(schema)
        elif isinstance(schema, (list, tuple)) and schema and isinstance(schema[0], str):
            columns = pandas_columns(pdf, schema)
        elif schema is None:
            columns = pandas_columns(pdf)
        else:
            raise NotImplementedError(
                "from_pandas with a schema of %r is not supported by pyflink_on_spark yet (a "
                "DataTypes.ROW, a list of names or a list of DataTypes)" % (schema,))
        width = len(columns)
        rows = tuple(tuple(None if _is_missing(v) else _plain(v) for v in row[:width])
                     for row in pdf.itertuples(index=False, name=None))
        return Table(RowsTable(columns, rows), self, columns)

    def from_elements(self, elements, schema=None, verify_schema: bool = True) -> Table:
        from pyflink_on_spark.table.columns import row_type_columns
        from pyflink_on_spark.table.element_schema import (inferred_row_type, row_values,
                                                            verify_value)
        from pyflink_on_spark.table.types import DataType, RowField, RowType
        elements = list(elements)
        if isinstance(schema, RowType):
            if verify_schema:
                for element in elements:
                    verify_value(schema, element)
        elif isinstance(schema, DataType):      # one column, named "value" as on PyFlink
            if verify_schema:
                for element in elements:
                    verify_value(schema, element, "field value")
            schema = RowType([RowField("value", schema)])
            elements = [(element,) for element in elements]
        elif schema is None or isinstance(schema, (list, tuple)):
            schema = inferred_row_type(elements, schema)   # as PyFlink infers it
        else:
            raise TypeError("schema should be RowType, list, tuple or None, but got: %s"
                            % (schema,))
        columns = row_type_columns(schema)
        rows = tuple(row_values(e, len(columns)) for e in elements)
        return Table(RowsTable(columns, rows), self, columns)

    def create_temporary_view(self, view_path: str, table_or_data_stream, *fields_or_schema) \
            -> None:
        table = table_or_data_stream
        if not isinstance(table, Table):
            table = self.from_data_stream(table, *fields_or_schema)
        elif fields_or_schema:
            raise NotImplementedError(
                "create_temporary_view(path, table, fields): pyflink_on_spark takes fields "
                "only with a DataStream")
        self._objects.create(view_path, table, TEMPORARY_VIEW)

    def _register_unnamed(self, table: Table) -> str:
        """A view of `table` under the next UnnamedTable$<n> name (Table.__str__)."""
        name = "UnnamedTable$%d" % self._unnamed_views
        self._unnamed_views += 1
        self._objects.create(name, table, TEMPORARY_VIEW)
        return name

    def register_table(self, name: str, table: Table) -> None:
        self._objects.create(name, table, TEMPORARY_VIEW)

    def from_path(self, path: str) -> Table:
        view = self._views.get(path)
        if view is None:
            from pyflink_on_spark.table.sql.errors import SqlValidationError
            raise SqlValidationError("Table `%s` was not found." % path)   # PyFlink 1.20.5's
        return Table(view._description, self, view._columns)

    # seen on PyFlink 1.20.5: list_tables all names, list_temporary_tables temporary tables
    # and temporary views, list_views both kinds of view
    def list_temporary_views(self) -> List[str]:
        return self._objects.names(TEMPORARY_VIEW)

    def list_views(self) -> List[str]:
        return self._objects.names(TEMPORARY_VIEW, VIEW)

    def list_tables(self) -> List[str]:
        return self._objects.names(TEMPORARY_VIEW, VIEW, TEMPORARY_TABLE, TABLE)

    def list_temporary_tables(self) -> List[str]:
        return self._objects.names(TEMPORARY_TABLE, TEMPORARY_VIEW)

    def drop_temporary_view(self, view_path: str) -> bool:
        return self._objects.drop_temporary(view_path, TEMPORARY_VIEW)

    def drop_temporary_table(self, table_path: str) -> bool:
        return self._objects.drop_temporary(table_path, TEMPORARY_TABLE)

    def _drop(self, name: str) -> None:
        """A table the shim registered for a moment taken away again."""
        self._objects.discard(name)

    def sql_query(self, query: str) -> Table:
        """A Flink SQL query over the temporary views, translated to Spark SQL (table/sql:
        a construct without a faithful mapping raises NotImplementedError naming it)."""
        return self._translated(query, tuple(
            (name, table) for name, table in self._views.items()))

    def _translated_over_views(self, query: str, inputs) -> Table:
        """`query` over a description's inputs ((name, description) pairs), a registered
        view's as its Table: its columns keep the rowtime mark a description may not."""
        return self._translated(query, [
            (name, self._views[name] if name in self._views
             and self._views[name]._description is view
             else Table(view, self, getattr(view, "columns", None)))
            for name, view in inputs])

    def _translated(self, query: str, inputs) -> Table:
        """A query over `inputs`: (name, Table) pairs, or Tables read by their own names."""
        from pyflink_on_spark.table.sql import translate_query
        named = [(i._name, i) if isinstance(i, Table) else i for i in inputs]
        functions = self._functions()
        translated = translate_query(query, {
            name: [(c.name, c.sql_type + ("" if c.nullable else " NOT NULL")
                    + (" *ROWTIME*" if c.rowtime else ""))
                   for c in table._resolved_columns()] for name, table in named},
            functions.signatures(), self._is_streaming())
        top_n = translated.ranking is not None and self._is_streaming()
        if self._is_streaming() and not top_n:
            # a projection / filter of a grouping query's changes (a select, rename or
            # where of its columns, HAVING: table/projected_changelog.py)
            from pyflink_on_spark.table.projected_changelog import inlined_grouping_input
            inlined = inlined_grouping_input(self, query, named,
                                             [n for n, _ in translated.columns])
            if inlined is not None:
                return self._translated(*inlined)
        if top_n:
            # Flink's Top-N / deduplication: a keyed changelog (table/top_n_streams.py)
            from pyflink_on_spark.table.top_n_streams import (check_top_n_query,
                                                              inlined_grouping_view,
                                                              ranking_over_aggregate)
            inlined = inlined_grouping_view(self, query, named)
            if inlined is not None:     # a ranking over a view of a grouping query
                return self._translated(*inlined)
            over_aggregate = ranking_over_aggregate(self, query, named)
            if over_aggregate is not None:      # an unfiltered ranking: Flink's over aggregate
                return self._translated(over_aggregate, inputs)
            top_n_failure = check_top_n_query(self, query, named)
        if translated.over_window and any(self._executor().table_reads_unbounded(
                table._description) for _, table in named):
            # a keyed over aggregate when the table is read (over_window_streams.py)
            from pyflink_on_spark.table.over_window_streams import check_over_query
            check_over_query(query, self._is_streaming(), translated.failure)
        from pyflink_on_spark.table.function_registry import job_parameters
        udfs = functions.specs(translated.sql, job_parameters(self._config, self._env))
        python_failure = None
        if udfs and self._is_streaming() and any(f.kind == "aggregate" for f in udfs):
            from pyflink_on_spark.table.group_aggregates import check_python_aggregate
            python_failure = check_python_aggregate(query, udfs, self._user_aggregates())
        from pyflink_on_spark.table.connector_tables import flink_column
        columns = tuple(flink_column(name, type_text) for name, type_text in
                        translated.columns)
        if translated.materialized:
            from dataclasses import replace
            columns = tuple(replace(c, rowtime=False, materialized=True)
                            if c.name in translated.materialized else c for c in columns)
        # STREAMING OVER windows: rows in the order Flink emits them (by time)
        sql = (translated.emit_ordered_sql or translated.sql) if self._is_streaming() \
            else translated.sql
        description = QueryTable(sql, tuple(
            (name, table._description) for name, table in named), columns,
            self._is_streaming(), flink_query=query, functions=udfs)
        table = self._with_keyed_changelog(Table(description, self, columns))
        if top_n and top_n_failure is None:
            from dataclasses import replace
            from pyflink_on_spark.table.top_n_streams import top_n_changes
            table = Table(replace(description, keyed_changelog=top_n_changes(self, table)),
                          self, columns)
        if top_n and top_n_failure is not None:
            table._failure = top_n_failure
        if translated.failure is not None and self._is_streaming():
            table._failure = translated.failure
        if python_failure is not None:
            table._failure = python_failure
        if not self._is_streaming() and any(f.kind == "aggregate" and f.func_type == "general"
                                            for f in udfs):
            # seen on PyFlink 1.20.5: sql_query accepts it, running it fails ("Cannot
            # generate a valid execution plan for the given query: <plan> non-Pandas
            # UDAFs are not supported in batch mode currently.")
            table._failure = ("org.apache.flink.table.api.TableException: non-Pandas UDAFs "
                              "are not supported in batch mode currently.")
        return table

    def _with_keyed_changelog(self, table: Table) -> Table:
        """The table as it is, unless it calls a Python aggregate function: then the keyed
        aggregate's changelog, as a StreamTableEnvironment's (table/stream_bridge.py)."""
        from pyflink_on_spark.table.stream_bridge import bridged_changelog
        return bridged_changelog(self, table)

    def _user_aggregates(self):
        """The general Python aggregate functions (udaf) by lowercase call name (a pandas
        udaf does not run in the keyed aggregate)."""
        from pyflink_on_spark.table.sql.functions import is_builtin
        return {name: w for name, w in self._functions().aggregate_functions(
            is_builtin).items() if w._func_type != "pandas"}

    def execute_sql(self, stmt: str):
        """SELECT queries, CREATE TABLE of the connectors that run (datagen), CREATE VIEW,
        DROP TABLE / VIEW (table/sql parse_statement: what it does not parse raises
        NotImplementedError naming it)."""
        from pyflink_on_spark.table import sql
        from pyflink_on_spark.table.table_result import ResultKind, TableResult
        statement = sql.parse_statement(stmt)
        if isinstance(statement, sql.Query):
            return TableResult(self.sql_query(statement.sql))
        if isinstance(statement, sql.CreateTable):
            self._create_table(statement)
        elif isinstance(statement, sql.CreateView):
            if statement.column_names:
                raise NotImplementedError("CREATE VIEW with column names is not supported by "
                                          "pyflink_on_spark yet")
            self._objects.create(statement.name, self.sql_query(statement.query),
                                 TEMPORARY_VIEW if statement.temporary else VIEW,
                                 statement.if_not_exists)
        elif isinstance(statement, sql.Insert):
            from pyflink_on_spark.table.table_sinks import insert_statement
            return insert_statement(self, statement)
        elif isinstance(statement, (sql.DropTable, sql.DropView)):
            kind = TABLE if isinstance(statement, sql.DropTable) else VIEW
            self._objects.drop(statement.name,
                               ("temporary " + kind) if statement.temporary else kind,
                               statement.if_exists)
        else:
            raise NotImplementedError(
                "execute_sql(%r): INSERT is not supported by pyflink_on_spark yet "
                "(docs/table.md)" % (stmt.strip().split("\n")[0][:60],))
        return TableResult(None, ResultKind.SUCCESS)

    def _create_table(self, create_table) -> None:
        from pyflink_on_spark.table.connector_tables import connector_table
        kind = TEMPORARY_TABLE if create_table.temporary else TABLE
        if create_table.if_not_exists and self._objects.holds(create_table.name, kind):
            return
        self._objects.create(create_table.name, connector_table(create_table, self), kind)

    def create_temporary_table(self, path: str, descriptor) -> None:
        from pyflink_on_spark.table.connector_tables import descriptor_ddl
        self.execute_sql(descriptor_ddl(path, descriptor))

    def from_descriptor(self, descriptor):
        name = "_pyflink_descriptor_%d" % next(_descriptors)
        self.create_temporary_table(name, descriptor)
        table = self._views[name]
        self._drop(name)
        return table

    def get_config(self) -> TableConfig:
        return self._config

    def get_current_catalog(self) -> str:
        return (self._settings or EnvironmentSettings()).get_built_in_catalog_name()

    def get_current_database(self) -> str:
        return (self._settings or EnvironmentSettings()).get_built_in_database_name()

    from_table_source = _unsupported("from_table_source")
    register_catalog = _unsupported("register_catalog")
    get_catalog = _unsupported("get_catalog")
    load_module = _unsupported("load_module")
    unload_module = _unsupported("unload_module")
    use_modules = _unsupported("use_modules")
    # -- Python user-defined functions (table/udf.py; docs/table.md) -----------------------------

    def _functions(self):
        if self._udfs is None:
            from pyflink_on_spark.table.function_registry import FunctionRegistry
            self._udfs = FunctionRegistry()
        return self._udfs

    def create_temporary_system_function(self, name: str, function) -> None:
        self._functions().register(name, function, True, "create_temporary_system_function")

    def create_temporary_function(self, path: str, function) -> None:
        self._functions().register(path, function, False, "create_temporary_function")

    def drop_temporary_system_function(self, name: str) -> bool:
        return self._functions().drop(name, True)

    def drop_temporary_function(self, path: str) -> bool:
        return self._functions().drop(path, False)

    def list_user_defined_functions(self) -> List[str]:
        return self._functions().names()

    _java_functions = ("Java user-defined functions do not run on pyflink_on_spark: it has no "
                       "JVM of Flink's; write the function in Python (pyflink.table.udf)")
    create_java_temporary_system_function = _unsupported(
        "create_java_temporary_system_function", _java_functions)
    create_java_function = _unsupported("create_java_function", _java_functions)
    drop_function = _unsupported("drop_function")
    create_java_temporary_function = _unsupported("create_java_temporary_function",
                                                  _java_functions)
    create_table = _unsupported("create_table", "connector tables do not run yet")
    register_table_source = _unsupported("register_table_source")
    register_table_sink = _unsupported("register_table_sink")
    scan = _unsupported("scan")
    list_catalogs = _unsupported("list_catalogs")
    list_modules = _unsupported("list_modules")
    list_full_modules = _unsupported("list_full_modules")
    list_databases = _unsupported("list_databases")
    list_functions = _unsupported("list_functions")

    def explain_sql(self, stmt: str, *extra_details) -> str:
        """The shim's plan of a query or INSERT statement as text (table/explain.py)."""
        from pyflink_on_spark.table import sql
        from pyflink_on_spark.table.explain import explain_tables
        statement = sql.parse_statement(stmt)
        if isinstance(statement, sql.Query):
            return explain_tables(self, [("", self.sql_query(statement.sql)._description)],
                                  extra_details)
        if isinstance(statement, sql.Insert):
            return explain_tables(self, [("INSERT INTO %s" % statement.target,
                                          self.sql_query(statement.query)._description)],
                                  extra_details)
        if isinstance(statement, sql.CreateTable):
            from pyflink_on_spark.util.exceptions import TableException
            # seen on PyFlink 1.20.5
            raise TableException("org.apache.flink.table.api.TableException: Unsupported "
                                 "operation: org.apache.flink.table.operations.ddl."
                                 "CreateTableOperation")
        raise NotImplementedError("explain_sql of %r: pyflink_on_spark explains queries and "
                                  "INSERT statements" % (stmt.strip().split("\n")[0][:60],))

    def create_statement_set(self):
        from pyflink_on_spark.table.table_sinks import StatementSet
        return StatementSet(self)

    use_catalog = _unsupported("use_catalog")
    use_database = _unsupported("use_database")
    register_java_function = _unsupported("register_java_function", _java_functions)
    register_function = _unsupported("register_function")
    add_python_file = _unsupported("add_python_file",
                                   "use the StreamExecutionEnvironment's add_python_file")
    set_python_requirements = _unsupported("set_python_requirements")
    add_python_archive = _unsupported("add_python_archive")


def _is_missing(value) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _plain(value):
    """A numpy scalar as the Python value."""
    item = getattr(value, "item", None)
    return item() if item is not None and not isinstance(value, (str, bytes)) else value


class StreamTableEnvironment(TableEnvironment):
    """StreamTableEnvironment.create(env[, environment_settings]): the bridge between a
    DataStream program and tables."""

    @staticmethod
    def create(stream_execution_environment=None, environment_settings=None) \
            -> 'StreamTableEnvironment':
        if stream_execution_environment is None:
            from pyflink_on_spark.datastream.stream_execution_environment import \
                StreamExecutionEnvironment
            stream_execution_environment = \
                StreamExecutionEnvironment.get_execution_environment()
        return StreamTableEnvironment(stream_execution_environment, environment_settings)

    def from_data_stream(self, data_stream, *fields_or_schema) -> Table:
        """The stream's records as a table: columns as Flink derives them from the stream's
        type (table/columns.py), or renamed by expressions, or typed by a Schema."""
        from pyflink_on_spark.graph.transformations import SinkTransformation
        from pyflink_on_spark.specs.sinks import CollectSinkSpec
        from pyflink_on_spark.table.schema import Schema
        node = data_stream._transformation
        columns, shape = stream_columns(node.output_type)
        schema = None
        if len(fields_or_schema) == 1 and isinstance(fields_or_schema[0], Schema):
            # physical, rowtime metadata and computed columns, a watermark (event time)
            from pyflink_on_spark.table.stream_schema import stream_schema
            schema = stream_schema(columns, shape == RECORD_ATOMIC, fields_or_schema[0])
            columns = schema.stream_columns
            if schema.timestamp_column is not None:
                from pyflink_on_spark.table.stream_schema import record_timestamps
                node = record_timestamps(data_stream)._transformation
        elif fields_or_schema:
            # seen on PyFlink 1.20.5: columns named by expressions are all nullable (a
            # primitive field too), while alias() keeps NOT NULL
            columns = tuple(TableColumn(c.name, c.sql_type, True) for c in renamed(
                columns, [_field_name(f) for f in fields_or_schema]))
        sink = SinkTransformation(name="Collect Sink", input=node, spec=CollectSinkSpec(),
                                  input_type=node.output_type)
        sink.parallelism = 1
        description = StreamTable((sink,), sink.id, self._env._job_settings(), columns, shape,
                                  schema.timestamp_column if schema is not None else None)
        if schema is None:
            table = Table(description, self, columns)
            if not fields_or_schema:
                _keeps_stream_type(table, data_stream)
            return table
        if not schema.computed and schema.projection is None:
            columns = schema.finish(columns)
            table = Table(description, self, columns)
            if schema.timestamp_column is None and schema.watermark is None:
                _keeps_stream_type(table, data_stream)
            return table
        stream = Table(description, self, columns)
        query = self._translated(schema.query(stream._name), (stream,))
        columns = schema.finish(query._resolved_columns())
        description = query._description
        if schema.watermark is not None and schema.watermark[0] in dict(schema.computed):
            description = RowtimeTable(description, schema.watermark[0], columns)
        return Table(description, self, columns)

    def _stream_of(self, table: Table, as_tuples: bool, type_info=None, names=None,
                   changelog: bool = False):
        from pyflink_on_spark.common.typeinfo import ExternalTypeInfo, Types
        from pyflink_on_spark.datastream.data_stream import DataStream
        from pyflink_on_spark.graph.transformations import SourceTransformation
        from pyflink_on_spark.specs.sources import TableSourceSpec
        table._check_runs()
        columns = table._resolved_columns()
        names = tuple(names or column_names(columns))
        window_rows = self._window_rows(table, names)
        if window_rows is None:
            from pyflink_on_spark.table.over_window_streams import over_rows
            window_rows = over_rows(self, table, names)
        if window_rows is not None:
            return window_rows if type_info is None or not as_tuples else window_rows.map(
                tuple, output_type=type_info)
        if type_info is None and not as_tuples:
            # seen on PyFlink 1.20.5: to_data_stream of the very Table from_data_stream gave
            # for a stream of Rows has the stream's own type (RowTypeInfo(k: String, ...),
            # a LIST field's ListTypeInfo); any other table's is ExternalTypeInfo<...>
            type_info = getattr(table, "_stream_type", None)
        if type_info is None:
            type_info = ExternalTypeInfo(Types.ROW_NAMED(
                list(names), [_type_info(c.sql_type) for c in columns]))
        from pyflink_on_spark.table.table_volume import table_bytes
        # the record's timestamp: the rowtime column's, in STREAMING mode only (seen on
        # PyFlink 1.20.5: in BATCH mode to_data_stream's records carry none, a rowtime
        # column, a selected one or window_time alike)
        rowtime = next((i for i, c in enumerate(columns) if c.rowtime), None) \
            if self._is_streaming() else None
        node = SourceTransformation(name="Source: Table Source", output_type=type_info,
                                    source=TableSourceSpec(
                                        table._description, names, as_tuples, changelog,
                                        rowtime,
                                        estimated_bytes=table_bytes(table._description)))
        return DataStream(_env=self._env, _transformation=node)

    def _window_rows(self, table: Table, names):
        """A window aggregate over an unbounded table: its per-row query (a stateless query
        of the table's inputs) stamped with its rowtime and the table's watermarks, keyed by
        the group keys, into the window operator whose state keeps each window's
        accumulators (table/window_aggregates.py): Rows named `names`, +I. None for any
        other table."""
        from pyflink_on_spark.common.typeinfo import ExternalTypeInfo, Types
        from pyflink_on_spark.table.sql import UnsupportedSqlError
        from pyflink_on_spark.table.sql.grouping import AGGREGATE
        from pyflink_on_spark.table.sql.window_grouping import (
            is_window_query, split_window_grouping)
        from pyflink_on_spark.table import window_aggregates as windows
        description = table._description
        query = getattr(description, "flink_query", None)
        if query is None or not is_window_query(query) or \
                not self._executor().table_reads_unbounded(description):
            return None
        try:
            grouping = split_window_grouping(query)
        except UnsupportedSqlError as e:
            raise NotImplementedError(str(e)) from None
        per_row = self._translated_over_views(grouping.per_row, description.inputs)
        per_row_columns = per_row._resolved_columns()
        types = [c.sql_type for c in per_row_columns]
        first = 1 + grouping.keys     # __t, the keys, then the aggregates' arguments
        items = [(kind, windows.Aggregate(what[0], None if what[1] is None else first + what[1],
                                          "BIGINT" if what[1] is None
                                          else types[first + what[1]]))
                 if kind == AGGREGATE else (kind, what) for kind, what in grouping.items]
        columns = table._resolved_columns()
        out_type = ExternalTypeInfo(Types.ROW_NAMED(
            list(names), [_type_info(c.sql_type) for c in columns]))
        keys = grouping.keys
        stream = self._stream_of(per_row, as_tuples=False) \
            .assign_timestamps_and_watermarks(
                windows.table_watermarks(description, grouping.table)) \
            .key_by(lambda row: tuple(row[1 + i] for i in range(keys))) \
            .window(windows.window_assigner(grouping.kind, grouping.size_ms,
                                            grouping.slide_ms)) \
            .aggregate(windows.WindowAccumulators(
                [what for kind, what in items if kind == AGGREGATE]),
                windows.WindowRows(names, items, per_row_columns[0].sql_type.startswith(
                    "TIMESTAMP_LTZ")),
                accumulator_type=Types.PICKLED_BYTE_ARRAY(), output_type=out_type)
        if not any(c.rowtime for c in columns):
            stream = stream.assign_timestamps_and_watermarks(windows.dropped_timestamps())
        return stream

    def _insert_only(self, table: Table, method: str) -> None:
        if table._updates():
            raise NotImplementedError(
                "%s of a table whose rows update (a grouping query in STREAMING mode): use "
                "to_changelog_stream, or BATCH mode (EnvironmentSettings.in_batch_mode()) for "
                "the final rows (docs/table.md)" % method)

    def to_data_stream(self, table: Table, *args):
        if args:
            raise NotImplementedError("to_data_stream(table, target_data_type) is not "
                                      "supported by pyflink_on_spark yet")
        self._insert_only(table, "to_data_stream")
        return self._stream_of(table, as_tuples=False)

    def to_append_stream(self, table: Table, type_info):
        from pyflink_on_spark.common.typeinfo import RowTypeInfo, TupleTypeInfo
        self._insert_only(table, "to_append_stream")
        if not isinstance(type_info, (RowTypeInfo, TupleTypeInfo)):
            raise NotImplementedError("to_append_stream with %s: pyflink_on_spark takes a "
                                      "Types.ROW / ROW_NAMED / TUPLE type" % (type_info,))
        if isinstance(type_info, TupleTypeInfo):
            return self._stream_of(table, True, type_info)
        return self._stream_of(table, False, type_info, type_info.get_field_names())

    def to_changelog_stream(self, table: Table, target_schema=None, changelog_mode=None):
        if target_schema is not None or changelog_mode is not None:
            raise NotImplementedError("to_changelog_stream with a target schema or changelog "
                                      "mode is not supported by pyflink_on_spark yet")
        if isinstance(table._description, RenamedTable) and \
                self._executor().table_updates(table._description.input):
            return self._renamed_changelog(table)
        if table._updates():
            if self._executor().table_reads_unbounded(table._description):
                from pyflink_on_spark.table.top_n_streams import top_n_stream
                ranked = top_n_stream(self, table)      # a Top-N / deduplication's
                return ranked if ranked is not None else self._group_changelog(table)
            if self._keyed_changelog_fits(table):
                # a bounded table too: the groups spread over the keyed subtasks (the
                # Spark changelog of table_changelog.py is computed in one task)
                return self._group_changelog(table)
        return self._stream_of(table, as_tuples=False, changelog=True)

    def _renamed_changelog(self, table: Table):
        """The changelog of an alias of an updating query (an INSERT's columns renamed to
        the sink's: PyFlink's streaming_word_count example; a bounded table's too): its
        input's changelog, each Row under the new names with its kind (seen on PyFlink
        1.20.5: the input's rows in the same order)."""
        from pyflink_on_spark.common.typeinfo import ExternalTypeInfo, Types
        description = table._description
        inner = Table(description.input, self, getattr(description.input, "columns", None))
        columns = table._resolved_columns()
        names = list(column_names(columns))
        return self.to_changelog_stream(inner).map(
            lambda row: _retraction(row, names)[1], output_type=ExternalTypeInfo(
                Types.ROW_NAMED(names, [_type_info(c.sql_type) for c in columns])))

    def _with_keyed_changelog(self, table: Table) -> Table:
        """A grouping query whose changelog the keyed aggregate computes (_group_changelog, at
        the job's parallelism, as to_changelog_stream runs it) with that changelog as the rows
        of execute(), to_pandas() and INSERT (QueryTable.keyed_changelog); else as it is. At
        parallelism 1 the one-task changelog (spark/table_changelog.py) gives the same rows
        in the same order, faster (measured: docs/table.md)."""
        description = table._description
        from pyflink_on_spark.table.changelog_streams import changelog_query, reads_changelog
        retracting = reads_changelog(description)     # from_changelog_stream's rows
        if retracting:
            changes = changelog_query(self, table)     # None: a grouping query's, below
            if changes is not None:
                return changes
        python = any(f.kind == "aggregate" for f in getattr(description, "functions", ()))
        if not (description.streaming and table._updates() and
                self._keyed_changelog_fits(table)):
            return table
        from dataclasses import replace
        from pyflink_on_spark.table.sql.grouping import split_grouping
        grouping = split_grouping(description.flink_query, self._user_aggregates())
        if grouping.projection is not None:
            # a projection of a grouping query's changes (table/projected_changelog.py): the
            # one-task changelog does not take a subquery
            from pyflink_on_spark.table.projected_changelog import projected_changes
            columns = table._resolved_columns()
            changes = projected_changes(self, table, grouping)._description
            return Table(replace(description, keyed_changelog=changes), self, columns)
        if not (self._parallelism() > 1 or python or retracting):
            return table
        columns = table._resolved_columns()
        changes = self._keyed_changes(table, columns, changelog=True)
        return Table(replace(description, keyed_changelog=changes), self, columns)

    def _keyed_changes(self, table: Table, columns, changelog: bool) -> StreamTable:
        """The keyed aggregate's changes of a grouping query (_group_changelog's plain
        tuples) as a table of a stream of those `columns` (`changelog`: a changelog frame)."""
        from pyflink_on_spark.graph.transformations import SinkTransformation
        from pyflink_on_spark.specs.sinks import CollectSinkSpec
        node = self._group_changelog(table, plain=True)._transformation
        sink = SinkTransformation(name="Collect Sink", input=node, spec=CollectSinkSpec(),
                                  input_type=node.output_type)
        sink.parallelism = 1
        return StreamTable((sink,), sink.id, self._env._job_settings(), columns,
                           changelog=changelog)

    def _keyed_changelog_fits(self, table: Table) -> bool:
        """Whether a grouping query's changelog can be the keyed aggregate's
        (_group_changelog) in a STREAMING-mode job: a query of the shape it splits."""
        from pyflink_on_spark.table.sql import UnsupportedSqlError
        from pyflink_on_spark.table.sql.grouping import split_grouping
        query = getattr(table._description, "flink_query", None)
        if query is None or self._env._job_settings().config.runtime_mode == "BATCH":
            return False
        try:
            split_grouping(query, self._user_aggregates())
        except UnsupportedSqlError:
            return False
        return True


    def _group_changelog(self, table: Table, plain: bool = False):
        """The changelog of a grouping query over an unbounded table: its per-row query (a
        stateless query of the table's inputs), keyed by the group keys, into the aggregate
        that keeps each group's accumulators in keyed state (table/group_aggregates.py).
        `plain`: its changes as tuples with their kind (the keyed changelog's records)."""
        from pyflink_on_spark.common.typeinfo import ExternalTypeInfo, Types
        from pyflink_on_spark.table.function_registry import job_parameters
        from pyflink_on_spark.table.group_aggregates import (BUNDLE_SIZE, group_aggregate,
                                                             key_selector)
        from pyflink_on_spark.table.sql.grouping import split_grouping
        description = table._description
        user = self._user_aggregates()
        grouping = split_grouping(description.flink_query, user)
        if grouping.projection is not None:
            from pyflink_on_spark.table.projected_changelog import projected_changelog_stream
            columns = table._resolved_columns()
            return projected_changelog_stream(self, table, grouping, ExternalTypeInfo(
                Types.ROW_NAMED(list(column_names(columns)),
                                [_type_info(c.sql_type) for c in columns])))
        per_row = self._translated(grouping.per_row, [
            (name, Table(view, self, getattr(view, "columns", None)))
            for name, view in description.inputs])
        types = [c.sql_type for c in per_row._resolved_columns()]
        keys = grouping.keys
        columns = table._resolved_columns()
        names = column_names(columns)
        function = group_aggregate(
            names, grouping, types, [c.sql_type for c in columns], user,
            job_parameters(self._config, self._env),
            int(self._config.get("python.fn-execution.bundle.size", None) or BUNDLE_SIZE),
            plain)
        retracting = per_row._updates()    # a changelog's rows (from_changelog_stream)
        if retracting:
            from pyflink_on_spark.table.changelog_streams import retracting_aggregate
            function = retracting_aggregate(function)
        out_type = Types.PICKLED_BYTE_ARRAY() if plain else ExternalTypeInfo(Types.ROW_NAMED(
            list(names), [_type_info(c.sql_type) for c in columns]))
        return self._stream_of(per_row, as_tuples=False, changelog=retracting) \
            .key_by(key_selector(keys)).process(function, output_type=out_type)

    def to_retract_stream(self, table: Table, type_info):
        """(True, row) for each +I / +U change, (False, row) for each -U / -D (seen on PyFlink
        1.20.5: the row named by `type_info`'s fields, keeping its RowKind)."""
        from pyflink_on_spark.common.typeinfo import RowTypeInfo, Types
        if not isinstance(type_info, RowTypeInfo):
            raise NotImplementedError("to_retract_stream with %s: pyflink_on_spark takes a "
                                      "Types.ROW / ROW_NAMED type" % (type_info,))
        names = list(type_info.get_field_names())
        return self.to_changelog_stream(table).map(
            lambda row: _retraction(row, names),
            output_type=Types.TUPLE([Types.BOOLEAN(), type_info]))

    def from_changelog_stream(self, data_stream, schema=None, changelog_mode=None) -> Table:
        """A table of the stream's Rows with their RowKinds (table/changelog_streams.py)."""
        from pyflink_on_spark.table.changelog_streams import changelog_table
        return changelog_table(self, data_stream, schema, changelog_mode)


def _retraction(row, names):
    from pyflink_on_spark.common.types import Row, RowKind
    kind = row.get_row_kind()
    named = Row(*row)
    named.set_field_names(names)
    named.set_row_kind(kind)
    return kind in (RowKind.INSERT, RowKind.UPDATE_AFTER), named


def _field_name(field) -> str:
    from pyflink_on_spark.table.expression import Expression
    if isinstance(field, str):
        return field
    if isinstance(field, Expression) and field.name is not None:
        return field.name
    raise NotImplementedError("from_data_stream(ds, %r): pyflink_on_spark takes column "
                              "names (col('a')) only" % (field,))


def _type_info(sql_type: str):
    """The DataStream type of a table column, as PyFlink 1.20.5's to_data_stream gives it
    (seen: VARCHAR(n) / CHAR(n) String, TIMESTAMP(p) LocalDateTime and DATE LocalDate as
    datetime values, DECIMAL BigDecimal, BYTES a byte array, TIMESTAMP_LTZ an Instant)."""
    from pyflink_on_spark.common.typeinfo import LocalTimeTypeInfo, Types
    if sql_type.startswith(("ARRAY<", "MAP<", "ROW<")):
        return _nested_type_info(sql_type)
    base = sql_type.split("(", 1)[0]
    known = {"STRING": Types.STRING, "BOOLEAN": Types.BOOLEAN, "TINYINT": Types.BYTE,
             "SMALLINT": Types.SHORT, "INT": Types.INT, "BIGINT": Types.LONG,
             "FLOAT": Types.FLOAT, "DOUBLE": Types.DOUBLE, "VARCHAR": Types.STRING,
             "CHAR": Types.STRING, "DECIMAL": Types.BIG_DEC,
             "BYTES": lambda: Types.PRIMITIVE_ARRAY(Types.BYTE()),
             "VARBINARY": lambda: Types.PRIMITIVE_ARRAY(Types.BYTE()),
             "BINARY": lambda: Types.PRIMITIVE_ARRAY(Types.BYTE()),
             "TIMESTAMP": lambda: LocalTimeTypeInfo(
                 LocalTimeTypeInfo.TimeType.LOCAL_DATE_TIME),
             "DATE": lambda: LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE),
             "TIMESTAMP_LTZ": Types.INSTANT,
             }.get(base)
    if known is None:
        raise NotImplementedError("a table column of type %s cannot become a DataStream "
                                  "field on pyflink_on_spark yet" % sql_type)
    return known()


def _keeps_stream_type(table: Table, data_stream) -> None:
    """Marks the Table from_data_stream gives for a stream of Rows (named or not) with the
    stream's type, which to_data_stream of it keeps (_stream_of)."""
    from pyflink_on_spark.common.typeinfo import RowTypeInfo
    if isinstance(data_stream.get_type(), RowTypeInfo):
        table._stream_type = data_stream.get_type()


def _nested_type_info(sql_type: str):
    """An ARRAY / MAP / ROW column's DataStream type, as PyFlink 1.20.5's to_data_stream of a
    query gives it (seen: ObjectArrayTypeInfo<Integer> for an ARRAY<INT> of a LIST, BASIC_ARRAY
    or PRIMITIVE_ARRAY field, MapTypeInfo<Integer, Double>, RowTypeInfo(p: Integer, ...))."""
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.table import types as dt
    from pyflink_on_spark.table.sql.flink_types import flink_type_string, parse_type

    def info(data_type):
        if isinstance(data_type, dt.ArrayType):
            return Types.OBJECT_ARRAY(info(data_type.element_type))
        if isinstance(data_type, dt.MapType):
            return Types.MAP(info(data_type.key_type), info(data_type.value_type))
        if isinstance(data_type, dt.RowType):
            return Types.ROW_NAMED([f.name for f in data_type.fields],
                                   [info(f.data_type) for f in data_type.fields])
        return _type_info(flink_type_string(data_type.nullable()))
    return info(parse_type(sql_type))
