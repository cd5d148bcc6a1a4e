"""Changelogs of grouping queries over unbounded streams (table_environment's keyed path):
an alias of one (an INSERT renames the query's columns to the sink's: PyFlink's
streaming_word_count example) and one calling a Python aggregate function, checked on the
compiled job, without Spark (captured, not run)."""
from pyflink_on_spark.common.types import Row, RowKind


def _compiled(tmp_path, query, alias=()):
    from pyflink_on_spark.common import Duration, Types, WatermarkStrategy
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
    from pyflink_on_spark.spark.entry import capture_jobs
    from pyflink_on_spark.table import DataTypes, StreamTableEnvironment
    from pyflink_on_spark.table.udf import AggregateFunction, udaf

    class Longest(AggregateFunction):
        def create_accumulator(self):
            return [0]

        def accumulate(self, acc, n):
            acc[0] = max(acc[0], n)

        def get_value(self, acc):
            return acc[0]
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    t_env = StreamTableEnvironment.create(env)
    t_env.create_temporary_system_function("longest", udaf(
        Longest(), result_type=DataTypes.INT(), accumulator_type=DataTypes.ARRAY(DataTypes.INT())))
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                 str(tmp_path)) \
        .monitor_continuously(Duration.of_millis(200)).build()
    words = env.from_source(source, WatermarkStrategy.no_watermarks(), "files") \
        .map(lambda w: (w, len(w)), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
    t_env.create_temporary_view("words", t_env.from_data_stream(words))
    table = t_env.sql_query(query)
    if alias:
        table = table.alias(*alias)
    stream = t_env.to_changelog_stream(table)
    with capture_jobs() as jobs:
        with stream.map(str, output_type=Types.STRING()).execute_and_collect("table job"):
            pass
    (captured,) = jobs
    return stream, captured.job


def _keyed_functions(job):
    functions = [getattr(op.op, "function", None) for stage in job.stages
                 for op in stage.spec.operators]
    return [f for f in functions if hasattr(f, "aggregates")]


def test_an_alias_of_a_grouping_query_is_its_changelog_renamed(tmp_path):
    stream, job = _compiled(tmp_path, "SELECT f0, COUNT(*) FROM words GROUP BY f0",
                            alias=("word", "n"))
    # the keyed aggregate of the changelog (Rows), not a refusal
    assert [f.plain for f in _keyed_functions(job)].count(False) == 1
    assert stream.get_type()._type_info.get_field_names() == ["word", "n"]
    change = Row("a", 2)
    change.set_row_kind(RowKind.UPDATE_AFTER)
    renamed = stream._transformation.spec.function.map(change)
    assert renamed.as_dict() == {"word": "a", "n": 2}
    assert renamed.get_row_kind() == RowKind.UPDATE_AFTER


def test_a_python_aggregate_over_an_unbounded_stream_runs_in_bundles(tmp_path):
    _stream, job = _compiled(tmp_path, "SELECT f0, longest(f1) FROM words GROUP BY f0")
    (function,) = [f for f in _keyed_functions(job) if not f.plain]
    assert function.runs_in_bundles
