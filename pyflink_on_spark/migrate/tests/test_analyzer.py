import textwrap

from pyflink_on_spark.migrate.analyzer import Project


def _uses(tmp_path, source, name="job.py", extra=None):
    for path, text in (extra or {}).items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))
    job = tmp_path / name
    job.parent.mkdir(parents=True, exist_ok=True)
    job.write_text(textwrap.dedent(source))
    project = Project([str(tmp_path)])
    analysis = project.analyse(str(job))
    return [(u.line, u.kind, u.api.split("pyflink.", 1)[1]) for u in analysis.uses], project


def _apis(uses):
    return [api for _line, _kind, api in uses]


def test_from_import_alias_and_call(tmp_path):
    uses, _ = _uses(tmp_path, """
        from pyflink.datastream import StreamExecutionEnvironment as Env
        env = Env.get_execution_environment()
        env.add_jars("file:///x.jar")
    """)
    assert uses == [
        (2, "import", "datastream.stream_execution_environment.StreamExecutionEnvironment"),
        (3, "call", "datastream.stream_execution_environment.StreamExecutionEnvironment"
                    ".get_execution_environment"),
        (4, "call", "datastream.stream_execution_environment.StreamExecutionEnvironment"
                    ".add_jars"),
    ]


def test_module_alias_and_attribute_chain(tmp_path):
    uses, _ = _uses(tmp_path, """
        import pyflink.datastream as ds
        import pyflink.common
        env = ds.StreamExecutionEnvironment.get_execution_environment()
        env.from_collection([1]).key_by(lambda x: x).window(
            ds.window.TumblingEventTimeWindows.of(pyflink.common.Time.seconds(1))).reduce(max)
    """)
    apis = _apis(uses)
    assert "datastream.data_stream.DataStream.key_by" in apis
    assert "datastream.data_stream.KeyedStream.window" in apis
    assert "datastream.window.TumblingEventTimeWindows.of" in apis
    assert "common.time.Time.seconds" in apis
    assert "datastream.data_stream.WindowedStream.reduce" in apis


def test_subclass_overrides_and_typed_parameters(tmp_path):
    uses, _ = _uses(tmp_path, """
        from pyflink.datastream import KeyedProcessFunction

        class Base(KeyedProcessFunction):
            def process_element(self, value, context):
                context.timer_service().register_event_time_timer(1)

        class Child(Base):
            def on_timer(self, ts, c):
                c.timer_service().delete_event_time_timer(ts)
                self._j_function
    """)
    assert (4, "subclass", "datastream.functions.KeyedProcessFunction") in uses
    assert (5, "override", "datastream.functions.KeyedProcessFunction.process_element") in uses
    assert (6, "call", "datastream.timerservice.TimerService.register_event_time_timer") in uses
    assert (9, "override", "datastream.functions.KeyedProcessFunction.on_timer") in uses
    assert (10, "call", "datastream.timerservice.TimerService.delete_event_time_timer") in uses
    assert (11, "attribute", "datastream.functions.KeyedProcessFunction._j_function") in uses


def test_self_attributes_keep_their_origin(tmp_path):
    uses, _ = _uses(tmp_path, """
        from pyflink.datastream import MapFunction, RuntimeContext
        from pyflink.datastream.state import ValueStateDescriptor

        class M(MapFunction):
            def open(self, runtime_context: RuntimeContext):
                self.total = runtime_context.get_state(ValueStateDescriptor("t", None))

            def map(self, value):
                self.total.update(value)
                return value
    """)
    assert (10, "call", "datastream.state.ValueState.update") in uses


def test_star_import_and_functions_defined_before_their_globals(tmp_path):
    uses, _ = _uses(tmp_path, """
        from pyflink.datastream import *

        def run():
            env.set_parallelism(2)

        env = StreamExecutionEnvironment.get_execution_environment()
        run()
    """)
    assert (5, "call", "datastream.stream_execution_environment.StreamExecutionEnvironment"
                       ".set_parallelism") in uses


def test_follows_the_packages_own_imports(tmp_path):
    uses, project = _uses(tmp_path, """
        from pkg.helpers import make_env
        from pkg import helpers
        make_env().add_classpaths("file:///a.jar")
        helpers.make_env().set_parallelism(1)
    """, name="pkg/job.py", extra={
        "pkg/__init__.py": "",
        "pkg/helpers.py": """
            from pyflink.datastream import StreamExecutionEnvironment

            def make_env():
                env = StreamExecutionEnvironment.get_execution_environment()
                return env
        """})
    apis = _apis(uses)
    assert "datastream.stream_execution_environment.StreamExecutionEnvironment" \
           ".add_classpaths" in apis
    assert "datastream.stream_execution_environment.StreamExecutionEnvironment" \
           ".set_parallelism" in apis
    assert any(path.endswith("helpers.py") for path in project.analyses)


def test_string_annotations_and_positions(tmp_path):
    uses, _ = _uses(tmp_path, """
        from pyflink.datastream import ProcessFunction

        def f(ctx: 'ProcessFunction.Context'):
            ctx.timestamp()
    """)
    assert (4, "reference", "datastream.functions.ProcessFunction.Context") in uses
    assert (5, "call", "datastream.functions.ProcessFunction.Context.timestamp") in uses


def test_jvm_and_table_imports_are_uses(tmp_path):
    uses, _ = _uses(tmp_path, """
        from pyflink.java_gateway import get_gateway
        from pyflink.table import StreamTableEnvironment
        import pyflink.util.java_utils as ju
        get_gateway().jvm
        ju.get_j_env_configuration(None)
    """)
    apis = _apis(uses)
    assert "java_gateway.get_gateway" in apis
    assert "table.StreamTableEnvironment" in apis
    assert "util.java_utils.get_j_env_configuration" in apis


def test_syntax_errors_are_reported_not_raised(tmp_path):
    (tmp_path / "bad.py").write_text("def broken(:\n")
    project = Project([str(tmp_path)])
    assert project.analyse(str(tmp_path / "bad.py")) is None
    assert "SyntaxError" in list(project.errors.values())[0]


def test_never_imports_the_analysed_code(tmp_path):
    uses, _ = _uses(tmp_path, """
        raise SystemExit("executed!")
        from pyflink.datastream import DataStream
    """)
    assert uses == [(3, "import", "datastream.data_stream.DataStream")]
