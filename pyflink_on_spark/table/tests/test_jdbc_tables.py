"""The jdbc table connector (table/jdbc_tables.py): its options and statements as PyFlink
1.20.5 gave them (no Spark), the upsert writer's reduced batches (on SQLite), and tables read
and written against the session's PostgreSQL server (`postgres` fixture)."""
import decimal

import pytest

from pyflink_on_spark.codecs.jdbc.drivers import driver_for
from pyflink_on_spark.codecs.jdbc.upsert_writer import JdbcUpsertWriter
from pyflink_on_spark.specs.tables import TableColumn
from pyflink_on_spark.table.jdbc_tables import (FlinkRejects, JdbcTableSink, ScanRows,
                                                between_splits, checked_options, statements,
                                                _converter)

COLUMNS = (TableColumn("id", "INT"), TableColumn("name", "STRING"))
URL = "jdbc:postgresql://127.0.0.1:5432/db"


def _options(**extra):
    options = {"connector": "jdbc", "url": URL, "table-name": "t"}
    options.update({k.replace("_", "-").replace("--", "."): v for k, v in extra.items()})
    return options


def test_splits_are_flinks_numeric_between_splits():
    # seen on PyFlink 1.20.5 (the server's log): 1..10 in 4 splits, 0..3 in 2
    assert between_splits(1, 10, 4) == ((1, 3), (4, 6), (7, 8), (9, 10))
    assert between_splits(0, 3, 2) == ((0, 1), (2, 3))
    assert between_splits(5, 6, 9) == ((5, 5), (6, 6))       # no more splits than values


def test_scan_reads_the_splits_last_first():
    options = checked_options({**_options(), "scan.partition.column": "id",
                               "scan.partition.num": "3", "scan.partition.lower-bound": "1",
                               "scan.partition.upper-bound": "10"}, COLUMNS)
    scan = ScanRows(options, COLUMNS)
    query = "SELECT id, name FROM t WHERE (id BETWEEN %s AND %s)"
    # seen on PyFlink 1.20.5 (jdbc/table_upsert): ids 8-10, then 5-7, then 1-4
    assert scan.queries(0, 1) == [(query, (8, 10)), (query, (5, 7)), (query, (1, 4))]
    assert scan.queries(1, 2) == [(query, (5, 7))]
    whole = ScanRows(checked_options(_options(), COLUMNS), COLUMNS)
    assert whole.queries(0, 2) == [("SELECT id, name FROM t", ())] and not whole.queries(1, 2)


def test_statements_are_the_postgres_dialects():
    names = ["id", "name", "amount"]
    assert statements("t_up", names, ()) == (
        "INSERT INTO t_up(id, name, amount) VALUES (?, ?, ?)", None)
    assert statements("t_up", names, ("id",)) == (
        "INSERT INTO t_up(id, name, amount) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
        "id=EXCLUDED.id, name=EXCLUDED.name, amount=EXCLUDED.amount",
        "DELETE FROM t_up WHERE id = ?")


def test_sink_options_map_to_the_writer():
    options = checked_options({**_options(), "sink.buffer-flush.max-rows": "7",
                               "sink.buffer-flush.interval": "2 s", "sink.max-retries": "0",
                               "username": "u", "password": "p", "sink.parallelism": "2",
                               "driver": "org.postgresql.Driver"}, COLUMNS)
    assert (options.max_rows, options.interval_ms, options.max_retries) == (7, 2000, 0)
    assert (options.username, options.password, options.parallelism) == ("u", "p", 2)
    defaults = checked_options(_options(), COLUMNS)
    assert (defaults.max_rows, defaults.interval_ms, defaults.max_retries) == (100, 1000, 3)


@pytest.mark.parametrize("extra, text", [
    ({"foo": "bar"}, "Unsupported options found for 'jdbc'.\n\nUnsupported options:\n\nfoo"),
    ({"scan.partition.column": "id"}, "Either all or none of the following options should "
                                      "be provided:\nscan.partition.column"),
    ({"username": "u"}, "Either all or none of the following options should be provided:\n"
                        "username\npassword"),
    ({"sink.buffer-flush.max-rows": "x"}, "Invalid value for option "
                                          "'sink.buffer-flush.max-rows'."),
    ({"sink.buffer-flush.interval": "2x"}, "Invalid value for option "
                                           "'sink.buffer-flush.interval'."),
    ({"sink.max-retries": "-1"}, "The value of 'sink.max-retries' option shouldn't be "
                                 "negative, but is -1."),
    ({"scan.partition.column": "id", "scan.partition.num": "0",
      "scan.partition.lower-bound": "1", "scan.partition.upper-bound": "3"},
     "Batch number must be positive"),
    ({"url": "jdbc:foo://x/y"}, "Could not find any jdbc dialect factory that can handle url "
                                "'jdbc:foo://x/y'"),
    ({"scan.partition.column": "id", "scan.partition.num": "2",
      "scan.partition.lower-bound": "5", "scan.partition.upper-bound": "3"},
     "'scan.partition.lower-bound'='5' must not be larger than "
     "'scan.partition.upper-bound'='3'."),
])
def test_options_flink_rejects_in_its_words(extra, text):
    with pytest.raises(FlinkRejects) as raised:
        checked_options({**_options(), **extra}, COLUMNS)
    assert str(raised.value).startswith(text)


def test_a_sink_parallelism_below_one_fails_the_insert():
    sink = JdbcTableSink("c", COLUMNS, checked_options({**_options(), "sink.parallelism": "0"},
                                                       COLUMNS), ())
    # seen on PyFlink 1.20.5 (a TableException when the INSERT is planned)
    with pytest.raises(FlinkRejects, match="^Invalid configured parallelism 0 for table "
                                           "'default_catalog.default_database.c'.$"):
        sink.check_insert(None, "c")


def test_missing_required_options():
    with pytest.raises(FlinkRejects, match="Missing required options are:\n\ntable-name"):
        checked_options({"connector": "jdbc", "url": URL}, COLUMNS)


@pytest.mark.parametrize("extra, named", [
    ({"lookup.cache.max-rows": "10"}, "lookup.cache.max-rows"),
    ({"scan.auto-commit": "false"}, "scan.auto-commit"),
    ({"url": "jdbc:mysql://h:3306/db"}, "jdbc:mysql:"),
    ({"driver": "com.example.Driver"}, "com.example.Driver"),
])
def test_options_without_a_meaning_here_are_refused_by_name(extra, named):
    with pytest.raises(NotImplementedError, match=named.replace(".", r"\.")):
        checked_options({**_options(), **extra}, COLUMNS)


def test_column_types_not_compared_are_refused():
    with pytest.raises(NotImplementedError, match="`tags` ARRAY<STRING>"):
        checked_options(_options(), COLUMNS + (TableColumn("tags", "ARRAY<STRING>"),))
    # seen on PyFlink 1.20.5
    with pytest.raises(FlinkRejects, match=r"^The precision of field 'ts' is out of the "
                                           r"TIMESTAMP precision range \[1, 6\] supported by "
                                           r"PostgreSQL dialect\.$"):
        checked_options(_options(), COLUMNS + (TableColumn("ts", "TIMESTAMP(0)"),))
    with pytest.raises(FlinkRejects, match=r"^The PostgreSQL dialect doesn't support type: "
                                           r"VARBINARY\(10\)\.$"):
        checked_options(_options(), COLUMNS + (TableColumn("b", "VARBINARY(10)"),))


def test_decimals_round_half_up_to_the_scale_and_overflow_to_null():
    convert = _converter("DECIMAL(4, 2)")
    assert convert(decimal.Decimal("1.255")) == decimal.Decimal("1.26")
    assert convert(decimal.Decimal("-1.245")) == decimal.Decimal("-1.25")
    assert convert(decimal.Decimal("123.4")) is None
    assert _converter("INT")(5) == 5


def _writer(tmp_path, batch_size):
    path = tmp_path / "t.db"
    driver = driver_for("jdbc:sqlite:%s" % path)
    connection = driver.connect()
    connection.execute("CREATE TABLE t (id int PRIMARY KEY, name text)")
    connection.commit()
    upsert, delete = statements("t", ["id", "name"], ("id",))
    writer = JdbcUpsertWriter(upsert, delete, (0,), driver, batch_size, 0, 0)
    writer.open()
    return writer, connection


def _rows(connection):
    return connection.execute("SELECT * FROM t ORDER BY id").fetchall()


def test_upsert_writer_keeps_the_last_change_of_each_key(tmp_path):
    writer, connection = _writer(tmp_path, batch_size=4)
    writer.add((1, "a"))
    writer.add((2, "b"))
    writer.add((1, "c"))
    assert writer.pending == 2 and _rows(connection) == []
    writer.add((2, "b"), delete=True)       # the 4th row flushes: 1 upserted, 2 deleted
    assert writer.pending == 0 and _rows(connection) == [(1, "c")]
    writer.add((1, "c"), delete=True)
    writer.add((1, "d"))                    # a retraction then its update: one upsert
    writer.flush()
    assert _rows(connection) == [(1, "d")]
    writer.add((1, "d"), delete=True)
    writer.flush()
    assert _rows(connection) == []
    writer.close()


def test_upsert_writer_flushes_each_row_at_batch_size_one(tmp_path):
    writer, connection = _writer(tmp_path, batch_size=1)
    writer.add((3, "x"))
    assert _rows(connection) == [(3, "x")]
    writer.add((3, "x"), delete=True)
    assert _rows(connection) == []
    writer.close()


def test_upsert_writer_error_names_the_failing_record_of_an_upsert_or_a_delete(tmp_path):
    from pyflink_on_spark.codecs.jdbc.writer import JdbcWriteError
    writer, connection = _writer(tmp_path, batch_size=3)
    connection.execute("CREATE TRIGGER no_delete BEFORE DELETE ON t WHEN old.id = 7 "
                       "BEGIN SELECT RAISE(ABORT, 'seven stays'); END")
    connection.execute("INSERT INTO t VALUES (7, 'kept')")
    connection.commit()
    writer.add((1, "a"))
    writer.add((2, "b"))
    with pytest.raises(JdbcWriteError) as error:
        writer.add((7, "kept"), delete=True)
    assert "for the record (7, 'kept')\n" in str(error.value)
    assert "statement: DELETE FROM t WHERE id = ?\n" in str(error.value)
    assert "seven stays" in str(error.value)
    assert _rows(connection) == [(7, "kept")]      # the batch was rolled back as a whole
    writer.close()


# -- against PostgreSQL -----------------------------------------------------------------------

def _sql(url, *statements_, fetch=None):
    import psycopg
    from pyflink_on_spark.codecs.jdbc.drivers import postgresql_settings
    with psycopg.connect(**postgresql_settings(url), autocommit=True) as connection:
        for statement in statements_:
            connection.execute(statement)
        if fetch is not None:
            return connection.execute(fetch).fetchall()


def _t_env(parallelism):
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    return StreamTableEnvironment.create(env)


def test_queries_reading_a_jdbc_table_ship_psycopg():
    """What spark/package_shipping.py ships to executors that lack it for a query, as for a
    JdbcSink: psycopg when the query reads a jdbc table, also through a join, an alias or a
    DataStream made of it, and not for a query that does not read one."""
    from pyflink_on_spark.common.typeinfo import Types
    from pyflink_on_spark.spark.package_shipping import PSYCOPG, table_native_packages
    t_env = _t_env(1)
    t_env.execute_sql("CREATE TABLE j (id INT, name STRING) WITH ('connector' = 'jdbc', "
                      "'url' = '%s', 'table-name' = 't')" % URL)
    t_env.execute_sql("CREATE TABLE g (id INT) WITH ('connector' = 'datagen', "
                      "'number-of-rows' = '3')")

    def needs(table):
        return table_native_packages([table._description])
    assert needs(t_env.sql_query("SELECT id FROM g")) == []
    assert needs(t_env.sql_query("SELECT j.name FROM g JOIN j ON g.id = j.id")) == list(PSYCOPG)
    assert needs(t_env.from_path("j").alias("a", "b")) == list(PSYCOPG)

    def through_a_stream(path):
        return t_env.from_data_stream(t_env.to_data_stream(t_env.from_path(path))
                                      .map(lambda row: row[0], output_type=Types.INT()))
    assert needs(through_a_stream("j")) == list(PSYCOPG)
    assert needs(through_a_stream("g")) == []
    # a DataStream job's stage reading the table (to_data_stream; an INSERT's job), as the
    # job's sinks ask
    from types import SimpleNamespace
    from pyflink_on_spark.spark.package_shipping import native_packages
    from pyflink_on_spark.specs.sources import TableSourceSpec

    def job_needs(path):
        source = TableSourceSpec(t_env.from_path(path)._description, ("id",))
        spec = SimpleNamespace(config=SimpleNamespace(state_backend=None), operators=())
        return native_packages(SimpleNamespace(stages=[SimpleNamespace(
            source=SimpleNamespace(frame=source), spec=spec)]))
    assert job_needs("j") == list(PSYCOPG) and job_needs("g") == []


def test_the_group_key_is_the_upsert_key():
    from pyflink_on_spark.table.jdbc_tables import _group_key
    t_env = _t_env(1)
    t_env.execute_sql("CREATE TABLE g (k STRING, j INT, v INT) WITH ('connector' = "
                      "'datagen', 'number-of-rows' = '3')")
    assert _group_key(t_env.sql_query("SELECT k, SUM(v) FROM g GROUP BY k")) == {0}
    assert _group_key(t_env.sql_query("SELECT COUNT(*), j, k FROM g GROUP BY k, j")) == {1, 2}
    assert _group_key(t_env.sql_query("SELECT SUM(v) FROM g GROUP BY k")) is None
    assert _group_key(t_env.sql_query("SELECT k, v FROM g")) is None


def test_an_updating_querys_column_needing_a_cast_is_refused_by_name():
    t_env = _t_env(1)
    t_env.execute_sql("CREATE TABLE g (k STRING, v BIGINT) WITH ('connector' = 'datagen', "
                      "'number-of-rows' = '3')")
    t_env.execute_sql("CREATE TABLE s (k STRING, total INT, PRIMARY KEY (k) NOT ENFORCED) "
                      "WITH ('connector' = 'jdbc', 'url' = '%s', 'table-name' = 's')" % URL)
    with pytest.raises(NotImplementedError, match="BIGINT -> INT need a cast"):
        t_env.execute_sql("INSERT INTO s SELECT k, SUM(v) FROM g GROUP BY k")


def test_updating_query_upserts_by_key(spark, postgres):
    """A GROUP BY's changelog at parallelism 2 (keyed to the sink by the primary key), one
    row per flush: each +U an upsert, no -U deleting (a trigger counts deletes: Flink sends
    the sink none); the table ends with the final rows; a jdbc source reads them back."""
    _sql(postgres, "DROP TABLE IF EXISTS jt_src, jt_sums, jt_deletes",
         "CREATE TABLE jt_src (id int, k text, v bigint)",
         "INSERT INTO jt_src SELECT i, 'k' || (i % 3), i FROM generate_series(1, 9) i",
         "CREATE TABLE jt_sums (k text PRIMARY KEY, total bigint, n bigint)",
         "CREATE TABLE jt_deletes (k text)",
         "CREATE OR REPLACE FUNCTION jt_deleted() RETURNS trigger AS $$ BEGIN "
         "INSERT INTO jt_deletes VALUES (OLD.k); RETURN OLD; END $$ LANGUAGE plpgsql",
         "CREATE TRIGGER jt_on_delete AFTER DELETE ON jt_sums FOR EACH ROW "
         "EXECUTE FUNCTION jt_deleted()")
    t_env = _t_env(2)
    t_env.execute_sql("CREATE TABLE src (id INT, k STRING, v BIGINT) WITH ('connector' = "
                      "'jdbc', 'url' = '%s', 'table-name' = 'jt_src')" % postgres)
    t_env.execute_sql("CREATE TABLE sums (k STRING, total BIGINT, n BIGINT, PRIMARY KEY (k) "
                      "NOT ENFORCED) WITH ('connector' = 'jdbc', 'url' = '%s', 'table-name' = "
                      "'jt_sums', 'sink.buffer-flush.max-rows' = '1')" % postgres)
    t_env.execute_sql("INSERT INTO sums SELECT k, SUM(v), COUNT(*) FROM src GROUP BY k").wait()
    assert _sql(postgres, fetch="SELECT * FROM jt_sums ORDER BY k") == [
        ("k0", 18, 3), ("k1", 12, 3), ("k2", 15, 3)]
    assert _sql(postgres, fetch="SELECT COUNT(*) FROM jt_deletes") == [(0,)]
    rows = t_env.sql_query("SELECT * FROM sums").execute().collect()
    assert sorted(tuple(r) for r in rows) == [("k0", 18, 3), ("k1", 12, 3), ("k2", 15, 3)]


def test_refused_tables_fail_when_used(spark, postgres):
    t_env = _t_env(1)
    t_env.execute_sql("CREATE TABLE bad (id INT) WITH ('connector' = 'jdbc', 'url' = '%s', "
                      "'table-name' = 't', 'foo' = 'bar', 'username' = 'u', "
                      "'password' = 'secret')" % postgres)
    t_env.execute_sql("CREATE TABLE cached (id INT) WITH ('connector' = 'jdbc', 'url' = '%s', "
                      "'table-name' = 't', 'lookup.cache.max-rows' = '5')" % postgres)
    with pytest.raises(ValueError, match="Unable to create a sink for writing table "
                                         "'default_catalog.default_database.bad'") as raised:
        t_env.execute_sql("INSERT INTO bad VALUES (1)")
    # the options listed as Flink lists them (seen on PyFlink 1.20.5: the password hidden)
    assert "'password'='******'" in str(raised.value) and "secret" not in str(raised.value)
    with pytest.raises(ValueError, match="Unable to create a source for reading table"):
        list(t_env.execute_sql("SELECT * FROM bad").collect())
    with pytest.raises(NotImplementedError, match="lookup.cache.max-rows"):
        t_env.execute_sql("INSERT INTO cached VALUES (1)")
