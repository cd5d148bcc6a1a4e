import json
import os
import textwrap

from pyflink_on_spark.cli.main import main

CORPUS = os.path.join(os.path.dirname(__file__), "corpus")


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


RUNS = """
    from pyflink.datastream import StreamExecutionEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([1, 2]).map(lambda x: x + 1).print()
    env.execute()
"""
BLOCKED = """
    from pyflink.datastream import CustomStateBackend, StreamExecutionEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_state_backend(CustomStateBackend(None))
    env.from_collection([1, 2]).print()
"""


def test_text_summary_and_verdicts(tmp_path, capsys):
    _write(tmp_path, "good.py", RUNS)
    _write(tmp_path, "bad.py", BLOCKED)
    assert main(["migrate", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Blocking (change these first):" in out
    assert out.index("Blocking") < out.index("Verdict per file:")
    assert "bad.py   blocked by CustomStateBackend" in out
    assert "good.py  runs as is" in out


def test_check_exits_non_zero_only_when_something_blocks(tmp_path, capsys):
    good = _write(tmp_path, "good.py", RUNS)
    bad = _write(tmp_path, "bad.py", BLOCKED)
    assert main(["migrate", "--check", good]) == 0
    assert main(["migrate", "--check", bad]) == 1
    capsys.readouterr()


def test_json_schema(tmp_path, capsys):
    _write(tmp_path, "bad.py", BLOCKED)
    assert main(["migrate", "--format", "json", str(tmp_path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "pyflink-on-spark-migrate/1"
    assert set(data) == {"schema", "pyflink_version", "summary", "files", "uses",
                         "decisions", "errors"}
    assert set(data["summary"]["counts"]) == {"unsupported", "jvm-only", "table-api",
                                              "difference", "no-effect", "supported"}
    use = [u for u in data["uses"] if u["name"] == "CustomStateBackend" and u["line"] == 4][0]
    assert set(use) == {"path", "line", "col", "api", "name", "kind", "status", "detail",
                        "link"}
    assert (use["line"], use["col"], use["status"]) == (4, 23, "unsupported")
    assert data["files"][0]["verdict"] == "blocked"


def test_markdown_report(tmp_path, capsys):
    _write(tmp_path, "bad.py", BLOCKED)
    out_file = tmp_path / "report.md"
    assert main(["migrate", "--format", "markdown", "-o", str(out_file), str(tmp_path)]) == 0
    text = out_file.read_text()
    assert text.startswith("# PyFlink -> Spark migration report")
    assert "| `bad.py` | blocked by CustomStateBackend |" in text
    assert "## Unsupported" in text


def test_rewrite_dry_run_then_in_place(tmp_path, capsys):
    job = _write(tmp_path, "job.py", RUNS)
    before = open(job).read()
    assert main(["migrate", "--rewrite", "--dry-run", job]) == 0
    captured = capsys.readouterr()
    assert "+from pyflink_on_spark.datastream import StreamExecutionEnvironment" in captured.out
    assert "would rewrite 1 file(s)" in captured.err
    assert open(job).read() == before
    assert main(["migrate", "--rewrite", job]) == 0
    assert open(job).read() == before.replace("from pyflink.", "from pyflink_on_spark.")


def test_usage_errors(tmp_path, capsys):
    assert main(["migrate", str(tmp_path / "missing.py")]) == 2
    assert main(["migrate", "--dry-run", str(tmp_path)]) == 2
    assert "no such file" in capsys.readouterr().err


def test_kafka_sources_bounded_or_not_pass_the_check(tmp_path, capsys):
    source = """
        from pyflink.common import WatermarkStrategy
        from pyflink.common.serialization import SimpleStringSchema
        from pyflink.datastream import StreamExecutionEnvironment
        from pyflink.datastream.connectors.kafka import KafkaSource, KafkaOffsetsInitializer
        env = StreamExecutionEnvironment.get_execution_environment()
        builder = KafkaSource.builder().set_bootstrap_servers("b:9092").set_topics("t") \\
            .set_value_only_deserializer(SimpleStringSchema())
        %s
        env.from_source(builder.build(), WatermarkStrategy.no_watermarks(), "k").print()
    """
    unbounded = _write(tmp_path, "unbounded.py", source % "")
    bounded = _write(tmp_path, "bounded.py",
                     source % "builder.set_bounded(KafkaOffsetsInitializer.latest())")
    assert main(["migrate", "--check", bounded]) == 0
    assert main(["migrate", "--check", unbounded]) == 0   # the streaming executor runs it


def test_constructing_a_class_whose_constructor_needs_the_jvm(tmp_path, capsys):
    job = _write(tmp_path, "job.py", """
        from pyflink.datastream import KeyedStream
        def typed(stream: KeyedStream):
            return stream
        KeyedStream(object(), None, None)
    """)
    assert main(["migrate", "--format", "json", job]) == 0
    data = json.loads(capsys.readouterr().out)
    statuses = {(u["line"], u["kind"]): u["status"] for u in data["uses"]}
    assert statuses[(2, "import")] == "supported"          # the type itself is fine
    assert statuses[(5, "call")] == "jvm-only"              # KeyedStream(j_keyed_stream, ...)


def test_the_whole_corpus_is_analysed_without_errors(capsys):
    assert main(["migrate", "--format", "json", CORPUS]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == []
    assert data["summary"]["files"] >= 25


def test_a_call_returning_a_refused_class_blocks(tmp_path, capsys, monkeypatch):
    # a builder's build() returning a class the shim refuses blocks the job even if the
    # program never names that class; here KeyedStream plays the refused class
    from pyflink_on_spark.migrate import report
    from pyflink_on_spark.migrate.status import ApiStatus, Status
    real = report.status_of
    refused = "pyflink.datastream.data_stream.KeyedStream"
    monkeypatch.setattr(report, "status_of", lambda name: ApiStatus(
        Status.UNSUPPORTED, "refused here") if name == refused else real(name))
    job = _write(tmp_path, "job.py", """
        from pyflink.datastream import StreamExecutionEnvironment
        env = StreamExecutionEnvironment.get_execution_environment()
        env.from_collection([1]).key_by(lambda x: x).set_parallelism(2)
    """)
    assert main(["migrate", "--format", "json", job]) == 0
    data = json.loads(capsys.readouterr().out)
    by_name = {u["name"]: u for u in data["uses"]}
    assert by_name["DataStream.key_by"]["status"] == "unsupported"
    assert by_name["DataStream.key_by"]["detail"] == "returns KeyedStream: refused here"
    assert by_name["StreamExecutionEnvironment.from_collection"]["status"] == "supported"
