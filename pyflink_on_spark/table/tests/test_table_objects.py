"""Tables and views by name as Flink's catalog manager keeps them (table/table_objects.py),
the rules and texts seen on PyFlink 1.20.5 (cc3213252/pyflink-learn's
create_temporary_view.py registers a view twice: PyFlink fails there, the shim replaced
it). Without Spark: no query runs."""
import pytest

from pyflink_on_spark.table.sql.errors import SqlValidationError

DATAGEN = "CREATE %sTABLE %s (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '1')"


def _t_env():
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_collection([(1, "a")], type_info=Types.TUPLE([Types.LONG(), Types.STRING()]))
    return StreamTableEnvironment.create(env), ds


def test_a_second_object_of_a_namespace_fails_in_flinks_words():
    t_env, ds = _t_env()
    t_env.create_temporary_view("v", ds)
    exists = "Temporary table '`default_catalog`.`default_database`.`v`' already exists"
    for again in (lambda: t_env.create_temporary_view("v", ds),
                  lambda: t_env.register_table("v", t_env.from_data_stream(ds)),
                  lambda: t_env.execute_sql("CREATE TEMPORARY VIEW v AS SELECT 1 AS x"),
                  lambda: t_env.execute_sql(DATAGEN % ("TEMPORARY ", "v"))):
        with pytest.raises(SqlValidationError, match="^" + exists.replace("`", ".")):
            again()
    t_env.execute_sql("CREATE TEMPORARY VIEW IF NOT EXISTS v AS SELECT 1 AS x")   # no-op
    t_env.execute_sql(DATAGEN % ("", "t"))
    for again in ("CREATE VIEW t AS SELECT 1 AS x", DATAGEN % ("", "t")):
        with pytest.raises(SqlValidationError, match="Could not execute CreateTable in path "
                                                     "`default_catalog`.`default_database`.`t`"):
            t_env.execute_sql(again)


def test_a_temporary_object_hides_a_permanent_one_until_it_is_dropped():
    t_env, ds = _t_env()
    t_env.execute_sql("CREATE VIEW s AS SELECT 1 AS x")
    t_env.execute_sql("CREATE TEMPORARY VIEW s AS SELECT 2 AS x, 3 AS y")
    assert [c.name for c in t_env.from_path("s")._resolved_columns()] == ["x", "y"]
    with pytest.raises(SqlValidationError, match="Temporary view with identifier .* exists. "
                                                 "Drop it first before removing the "
                                                 "permanent view."):
        t_env.execute_sql("DROP VIEW s")
    t_env.execute_sql("DROP TEMPORARY VIEW s")
    assert [c.name for c in t_env.from_path("s")._resolved_columns()] == ["x"]
    # a permanent object made under a temporary one waits under it
    t_env.create_temporary_view("w", ds)
    t_env.execute_sql("CREATE VIEW w AS SELECT 1 AS x")
    assert [c.name for c in t_env.from_path("w")._resolved_columns()] == ["f0", "f1"]


def test_drops_name_the_kind_they_drop():
    t_env, ds = _t_env()
    t_env.create_temporary_view("tv", ds)
    t_env.execute_sql(DATAGEN % ("TEMPORARY ", "tt"))
    missing = "Temporary table or view with identifier 'default_catalog.default_database.%s' " \
              "does not exist."
    with pytest.raises(SqlValidationError, match=missing % "tv"):
        t_env.execute_sql("DROP TEMPORARY TABLE tv")
    with pytest.raises(SqlValidationError, match=missing % "tt"):
        t_env.execute_sql("DROP TEMPORARY VIEW tt")
    with pytest.raises(SqlValidationError, match="Temporary table with identifier .* exists"):
        t_env.execute_sql("DROP TABLE tt")
    with pytest.raises(SqlValidationError, match="^Table with identifier "
                                                 "'default_catalog.default_database.tv' does "
                                                 "not exist.$"):
        t_env.execute_sql("DROP TABLE tv")
    with pytest.raises(SqlValidationError, match="^View with identifier "
                                                 "'default_catalog.default_database.no' does "
                                                 "not exist.$"):
        t_env.execute_sql("DROP VIEW no")
    t_env.execute_sql("DROP TABLE IF EXISTS no")
    assert t_env.drop_temporary_table("tv") is False and t_env.drop_temporary_view("tt") is False
    assert t_env.list_tables() == ["tt", "tv"] and t_env.list_temporary_tables() == ["tt", "tv"]
    assert t_env.list_views() == ["tv"] == t_env.list_temporary_views()
    assert t_env.drop_temporary_view("tv") is True and t_env.drop_temporary_table("tt") is True
    assert t_env.list_tables() == []
    with pytest.raises(SqlValidationError, match="^Table `tv` was not found.$"):
        t_env.from_path("tv")


def test_lists_hold_each_kind_as_flinks_do():
    # seen: (['t', 't2', 'v', 'x'], ['t2', 'v'], ['t', 't2', 'x'], ['t2']) for a temporary
    # table t and x, a permanent table t2 under a temporary view t2, a permanent view v
    t_env, ds = _t_env()
    t_env.execute_sql(DATAGEN % ("TEMPORARY ", "t"))
    t_env.execute_sql(DATAGEN % ("TEMPORARY ", "x"))
    t_env.execute_sql(DATAGEN % ("", "t2"))
    t_env.create_temporary_view("t2", ds)
    t_env.execute_sql("CREATE VIEW v AS SELECT 1 AS x")
    assert (t_env.list_tables(), t_env.list_views(), t_env.list_temporary_tables(),
            t_env.list_temporary_views()) == (["t", "t2", "v", "x"], ["t2", "v"],
                                              ["t", "t2", "x"], ["t2"])
