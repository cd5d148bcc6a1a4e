"""A TableEnvironment's grouping query that calls a Python aggregate function (udaf, or a
udtaf in Table.flat_aggregate) in STREAMING mode: PyFlink 1.20.5 runs it in a
TableEnvironment as in a StreamTableEnvironment (seen: the same changelog in execute().print(),
collect(), to_pandas()). The shim runs it where a StreamTableEnvironment does, in the keyed
aggregate of a DataStream job on the environment's StreamExecutionEnvironment
(StreamTableEnvironment._with_keyed_changelog, table/group_aggregates.py): through a bridge,
a StreamTableEnvironment sharing the TableEnvironment's tables, functions and config."""


def stream_bridge(t_env):
    """`t_env` itself when it is a StreamTableEnvironment, else a StreamTableEnvironment
    sharing its state (the same attribute dict: views, functions, config, environment), so
    that what either registers the other sees."""
    from pyflink_on_spark.table.table_environment import StreamTableEnvironment
    if isinstance(t_env, StreamTableEnvironment):
        return t_env
    bridge = StreamTableEnvironment.__new__(StreamTableEnvironment)
    bridge.__dict__ = t_env.__dict__
    return bridge


def calls_python_aggregate(description) -> bool:
    """Whether a query's table calls a general Python aggregate function (a pandas udaf runs
    in a window aggregate in Spark SQL, not in the keyed aggregate)."""
    return any(f.kind == "aggregate" and f.func_type != "pandas"
               for f in getattr(description, "functions", None) or ())


def bridged_changelog(t_env, table):
    """A TableEnvironment's STREAMING table that calls a Python aggregate function, with
    the keyed aggregate's changelog as its rows (as a StreamTableEnvironment's); any other
    table as it is."""
    from pyflink_on_spark.table.table import Table
    description = table._description
    if not (getattr(description, "streaming", False) and calls_python_aggregate(description)):
        return table
    env = t_env._env
    saved = env._parallelism
    # the job runs at the TableEnvironment's parallelism (its config's parallelism.default)
    env._parallelism = t_env._parallelism()
    try:
        changes = stream_bridge(t_env)._with_keyed_changelog(table)
    finally:
        env._parallelism = saved
    if changes is table:
        return table
    return Table(changes._description, t_env, changes._resolved_columns())
