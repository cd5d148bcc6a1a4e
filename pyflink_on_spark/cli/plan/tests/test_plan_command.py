"""`pyflink-on-spark plan`: the script's jobs are captured at execute() (compiled, never run:
no SparkSession starts) and drawn as text, Mermaid and dot; svg/png need Graphviz."""
import os
import subprocess
import sys

import pytest

from pyflink_on_spark.cli.main import main
from pyflink_on_spark.cli.plan import graphviz
from pyflink_on_spark.cli.plan.command import capture_pictures
from pyflink_on_spark.cli.plan.tests import plan_jobs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))


@pytest.fixture
def script(tmp_path):
    def write(source: str, name: str = "job.py") -> str:
        path = tmp_path / name
        path.write_text(source)
        return str(path)
    return write


def test_the_picture_holds_chains_partitioning_side_outputs_and_keyed_state(script):
    (picture,) = capture_pictures(script(plan_jobs.SIDE_OUTPUT_AND_WINDOW), [])
    assert picture.job_name == "side outputs and windows"
    by_name = {op.name: op for op in picture.operators}
    split, window = by_name["Split odd from even"], by_name["Sum per key"]
    times_ten = by_name["Times ten"]
    # the process function and the filter form one chain, so run in one Spark stage
    assert by_name["Not four"].stage_id == split.stage_id != window.stage_id
    assert by_name["Numbers"].stage_id != split.stage_id     # parallelism 1 -> 2
    assert (window.state, split.state, times_ten.parallelism) == ("keyed", None, 1)
    edges = {(picture.operator(e.source).name, picture.operator(e.target).name): e
             for e in picture.edges}
    assert edges[("Split odd from even", "Not four")].chained
    assert edges[("Numbers", "Split odd from even")].partitioning == "REBALANCE"
    keyed = edges[("Not four", "Sum per key")]
    assert (keyed.partitioning, keyed.chained, keyed.side_tag) == ("HASH", False, None)
    side = edges[("Split odd from even", "Times ten")]
    assert (side.partitioning, side.side_tag) == ("REBALANCE", "odd_numbers")
    window_stage = next(s for s in picture.stages if s.stage_id == window.stage_id)
    assert window_stage.upstream == ((split.stage_id, "HASH"),)
    assert "HashMapStateBackend" in window_stage.state
    assert window_stage.steps[-1] == "mapInArrow: Sum per key"


def test_capturing_starts_no_spark(script):
    # in a fresh process: this pytest session may have started Spark for other tests
    check = ("import sys\n"
             "from pyflink_on_spark.cli.plan.command import capture_pictures\n"
             "capture_pictures(sys.argv[1], [])\n"
             "from pyspark import SparkContext\n"
             "print('active context:', SparkContext._active_spark_context)\n")
    done = subprocess.run([sys.executable, "-c", check,
                           script(plan_jobs.SIDE_OUTPUT_AND_WINDOW)],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    assert done.returncode == 0, done.stderr
    assert "active context: None" in done.stdout


def test_text_picture_on_stdout_and_the_scripts_prints_on_stderr(script, capsys):
    assert main(["plan", script(plan_jobs.SIDE_OUTPUT_AND_WINDOW)]) == 0
    out, err = capsys.readouterr()
    assert "script output is not the picture" in err and "not the picture" not in out
    assert "Job 'side outputs and windows' (STREAMING mode, bounded)" in out
    assert "Split odd from even -> Times ten: REBALANCE side output 'odd_numbers'" in out
    assert "mapInArrow: Sum per key" in out


def test_one_picture_per_job(script, capsys, tmp_path):
    assert main(["plan", "--format", "mermaid", script(plan_jobs.TWO_JOBS)]) == 0
    out = capsys.readouterr().out
    assert out.count("flowchart LR") == 2
    assert "%% job 1 of 2: first job" in out and "%% job 2 of 2: second job" in out
    target = tmp_path / "plan.dot"
    assert main(["plan", "--format", "dot", "-o", str(target),
                 script(plan_jobs.TWO_JOBS)]) == 0
    first, second = (tmp_path / "plan-1.dot").read_text(), (tmp_path / "plan-2.dot").read_text()
    assert first.startswith("digraph plan {") and '"Add one\\np=' in first
    assert '"Positive\\np=' in second and "Add one" not in second


def test_mermaid_draws_side_outputs_dashed_and_shuffles_between_stages(script, capsys):
    assert main(["plan", "--format", "mermaid", script(plan_jobs.SIDE_OUTPUT_AND_WINDOW)]) == 0
    out = capsys.readouterr().out
    assert '-.->|"REBALANCE side output \'odd_numbers\'"|' in out
    assert '==>|"shuffle (HASH)"|' in out
    assert "class n" in out and "stateful" in out


def test_a_script_without_a_job_says_so(script, capsys):
    assert main(["plan", script(plan_jobs.NO_JOB)]) == 2
    assert "defined no job" in capsys.readouterr().err


def test_svg_without_graphviz_gives_the_install_hint(script, capsys, monkeypatch):
    monkeypatch.setattr(graphviz.shutil, "which", lambda name: None)
    assert main(["plan", "--format", "svg", script(plan_jobs.TWO_JOBS)]) == 3
    err = capsys.readouterr().err
    assert "apt-get install graphviz" in err and "--format mermaid" in err


def test_the_open_page_goes_to_the_users_private_temp_directory(script, capsys, tmp_path,
                                                                monkeypatch):
    import stat
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("BROWSER", raising=False)
    job = script(plan_jobs.SIDE_OUTPUT_AND_WINDOW)
    previous = os.umask(0o022)
    try:
        assert main(["plan", "--open", job]) == 0
        page = capsys.readouterr().out.strip().splitlines()[-1]
        assert page == str(tmp_path / ("pyflink-on-spark-plans-%d" % os.getuid()) / "job.html")
        assert stat.S_IMODE(os.stat(os.path.dirname(page)).st_mode) == 0o700
        assert stat.S_IMODE(os.stat(page).st_mode) == 0o600
        # a page the user names keeps the umask's mode, as any file they write
        assert main(["plan", "--open", "-o", str(tmp_path / "mine.html"), job]) == 0
        assert stat.S_IMODE(os.stat(tmp_path / "mine.html").st_mode) == 0o644
    finally:
        os.umask(previous)
    # a page name someone else linked elsewhere is refused, the target untouched
    os.remove(page)
    (tmp_path / "victim").write_text("keep")
    os.symlink(tmp_path / "victim", page)
    assert main(["plan", "--open", job]) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert (tmp_path / "victim").read_text() == "keep"
