"""INSERT INTO print / blackhole of a table of unbounded streams, and INSERT INTO a kafka table
(table/table_sinks.py StreamInsert): one DataStream job of the inserts' sinks, only theirs.
Checked without Spark: the job handed to the executor."""
from pyflink_on_spark.common.types import Row, RowKind
from pyflink_on_spark.specs.sinks import DiscardSinkSpec, PrintSinkSpec
from pyflink_on_spark.table import table_sinks


def _t_env(parallelism=2):
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.table import StreamTableEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(parallelism)
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql("CREATE TABLE g (a INT, s STRING) WITH ('connector' = 'datagen')")
    t_env.execute_sql("CREATE TABLE p (a BIGINT, s STRING) WITH ('connector' = 'print', "
                      "'print-identifier' = 'out', 'sink.parallelism' = '3')")
    t_env.execute_sql("CREATE TABLE b (a INT) WITH ('connector' = 'blackhole')")
    return t_env


def test_unbounded_inserts_into_print_and_blackhole_are_one_datastream_job(monkeypatch):
    t_env = _t_env()
    env = t_env._env
    pending = env.from_collection([1, 2]).map(lambda x: x)   # the program's own operator
    jobs = []
    monkeypatch.setattr(type(t_env), "_executor", staticmethod(lambda: _Executor(jobs)))
    statements = t_env.create_statement_set()
    statements.add_insert_sql("INSERT INTO p SELECT a, s FROM g")
    statements.add_insert_sql("INSERT INTO b SELECT a FROM g WHERE a > 0")
    result = statements.execute()
    (sinks, settings), = jobs
    assert [type(s.spec) for s in sinks] == [PrintSinkSpec, DiscardSinkSpec]
    assert sinks[0].spec.identifier == "out" and sinks[0].parallelism == 3
    assert settings.config.job_name == ("insert-into_default_catalog.default_database.p,"
                                        "default_catalog.default_database.b")
    assert result.get_table_schema().get_field_names() == [
        "default_catalog.default_database.p", "default_catalog.default_database.b"]
    # the program's pending operator stays its own (not in the inserts' job)
    assert pending._transformation.id in env._operators and len(env._sinks) == 0


def test_a_print_line_is_flinks_with_the_rows_kind():
    line = table_sinks._PrintLine(("BIGINT", "STRING"))
    row = Row(3, "x")
    assert line(row) == "+I[3, x]"
    row.set_row_kind(RowKind.UPDATE_AFTER)
    assert line(row) == "+U[3, x]"


class _Executor:
    """The executor's entry point, with execute_async recording the job instead of running
    it (the other calls: no Spark, a table's kind)."""

    def __init__(self, jobs):
        self.jobs = jobs

    def __getattr__(self, name):
        from pyflink_on_spark.spark import entry
        return getattr(entry, name)

    def execute_async(self, sinks, settings):
        self.jobs.append((sinks, settings))
        return None


def test_an_insert_into_a_kafka_table_of_a_table_environment_is_a_kafka_sink_job(monkeypatch):
    from pyflink_on_spark.specs.sinks import KafkaSinkSpec
    from pyflink_on_spark.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("CREATE TABLE src (id INT, name STRING) WITH ('connector' = 'datagen', "
                      "'number-of-rows' = '3')")
    t_env.execute_sql("CREATE TABLE k (id BIGINT, name STRING) WITH ('connector' = 'kafka', "
                      "'topic' = 't', 'properties.bootstrap.servers' = 'h:9092', "
                      "'format' = 'json')")
    jobs = []
    monkeypatch.setattr(type(t_env), "_executor", staticmethod(lambda: _Executor(jobs)))
    t_env.execute_sql("INSERT INTO k SELECT id, name FROM src")
    (sinks, _settings), = jobs
    spec = sinks[0].spec
    assert isinstance(spec, KafkaSinkSpec) and spec.topic == "t"
    assert spec.value_serializer(Row(1, None)) == b'{"id":1,"name":null}'


def test_attached_inserts_are_sinks_of_the_environments_job_and_descriptors_anonymous():
    import pytest
    from pyflink_on_spark.table import DataTypes, Schema, TableDescriptor
    t_env = _t_env(parallelism=1)
    env = t_env._env
    t_env.execute_sql("CREATE TABLE n (a INT) WITH ('connector' = 'datagen', "
                      "'number-of-rows' = '3')")
    statements = t_env.create_statement_set()
    # a descriptor without a schema takes the table's columns; it leaves no view behind
    statements.add_insert(TableDescriptor.for_connector("print")
                          .option("print-identifier", "d").build(), t_env.from_path("n"))
    statements.add_insert_sql("INSERT INTO b SELECT a FROM n")
    (anonymous, _), = [(i.target.name, i) for i in statements._inserts[:1]]
    assert anonymous.startswith("*anonymous_print$") and anonymous.endswith("*")
    assert [c.name for c in statements._inserts[0].target.columns] == ["a"]
    assert anonymous not in t_env.list_tables()
    statements.attach_as_datastream()
    assert [type(s.spec) for s in env._sinks] == [PrintSinkSpec, DiscardSinkSpec]
    assert env._sinks[0].spec.identifier == "d" and statements._inserts == []
    # a filesystem insert is a Spark job of its own: refused by name when attached
    files = t_env.create_statement_set()
    files.add_insert(TableDescriptor.for_connector("filesystem").format("csv")
                     .option("path", "/tmp/never-written")
                     .schema(Schema.new_builder().column("a", DataTypes.INT()).build())
                     .build(), t_env.from_path("n"))
    with pytest.raises(NotImplementedError, match="attach_as_datastream.*filesystem"):
        files.attach_as_datastream()
