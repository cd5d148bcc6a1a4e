"""Unit tests of the compat runner: discovery, compare/diff, report, reference and record.

The "reference python" here is the interpreter running the tests, so nothing needs Flink.
"""
import io
import os
import sys
import textwrap
import types
from pathlib import Path

import pytest

from pyflink_on_spark.compat.cases import (Case, CaseResult, compare, discover_cases,
                                           orphan_expected_files, record)
from pyflink_on_spark.compat.cli import compat_main
from pyflink_on_spark.compat.reference import reference_env, resolve_python, run_reference
from pyflink_on_spark.compat.report import (Reporter, format_report, result_line,
                                            summary_line, unified_diff)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def make_case(tmp_path: Path, name: str, program: str, expected=None) -> Case:
    prog = write(tmp_path / (name + ".py"), program)
    if expected is not None:
        prog.with_suffix(".expected").write_bytes(
            expected.encode() if isinstance(expected, str) else expected)
    return Case(name=name, program=prog, expected=prog.with_suffix(".expected"))


@pytest.fixture
def fake_python(tmp_path):
    """A `bin/python` link to this interpreter, as a venv would have."""
    bin_dir = tmp_path / "fakevenv" / "bin"
    bin_dir.mkdir(parents=True)
    link = bin_dir / "python"
    os.symlink(sys.executable, link)
    return str(link)


# ---------------------------------------------------------------- discovery

def test_discover_finds_programs_recursively_sorted_by_name(tmp_path):
    write(tmp_path / "basic" / "b_case.py", "print(1)\n")
    write(tmp_path / "basic" / "a_case.py", "print(1)\n")
    (tmp_path / "basic" / "a_case.expected").write_text("1\n")
    write(tmp_path / "windows" / "deep" / "tumbling.py", "print(2)\n")
    cases = discover_cases(tmp_path)
    assert [c.name for c in cases] == ["basic/a_case", "basic/b_case", "windows/deep/tumbling"]
    a = cases[0]
    assert a.program == tmp_path / "basic" / "a_case.py"
    assert a.expected == tmp_path / "basic" / "a_case.expected"
    assert a.has_expected and a.read_expected() == b"1\n"
    assert not cases[1].has_expected and cases[1].read_expected() is None


def test_discover_skips_helpers_tests_caches_and_other_files(tmp_path):
    write(tmp_path / "basic" / "real.py", "")
    write(tmp_path / "basic" / "_helper.py", "")
    write(tmp_path / "basic" / "__init__.py", "")
    write(tmp_path / "basic" / "test_runner.py", "")
    write(tmp_path / "basic" / "conftest.py", "")
    write(tmp_path / "basic" / "__pycache__" / "real.py", "")
    write(tmp_path / ".hidden" / "x.py", "")
    write(tmp_path / "basic" / "notes.txt", "")
    write(tmp_path / "basic" / "orphan.expected", "")
    assert [c.name for c in discover_cases(tmp_path)] == ["basic/real"]
    assert orphan_expected_files(tmp_path) == [tmp_path / "basic" / "orphan.expected"]


def test_discover_keyword_filter(tmp_path):
    for n in ["map_lambda", "map_class", "reduce"]:
        write(tmp_path / "basic" / (n + ".py"), "")
    assert [c.name for c in discover_cases(tmp_path, "map")] == ["basic/map_class", "basic/map_lambda"]
    assert [c.name for c in discover_cases(tmp_path, ["class", "red"])] == ["basic/map_class", "basic/reduce"]
    assert [c.name for c in discover_cases(tmp_path, "basic/red")] == ["basic/reduce"]
    assert discover_cases(tmp_path, "nothing") == []


def test_discover_single_program_and_missing_root(tmp_path):
    prog = write(tmp_path / "basic" / "one.py", "")
    cases = discover_cases(prog)
    assert [c.name for c in cases] == ["basic/one"]
    assert cases[0].expected == tmp_path / "basic" / "one.expected"
    with pytest.raises(FileNotFoundError):
        discover_cases(tmp_path / "missing")


# ---------------------------------------------------------------- compare / diff

def test_compare_identical_passes(tmp_path):
    case = make_case(tmp_path, "basic/x", "", expected="a\nb\n")
    r = compare(case, "a\nb\n")
    assert r.passed and r.diff == "" and r.error == "" and r.actual == b"a\nb\n"
    assert compare(case, b"a\nb\n").passed


def test_compare_mismatch_gives_unified_diff(tmp_path):
    case = make_case(tmp_path, "basic/x", "", expected="1\n2\n3\n")
    r = compare(case, "1\n20\n3\n")
    assert not r.passed
    assert r.diff.splitlines() == [
        "--- basic/x.expected",
        "+++ basic/x (actual)",
        "@@ -1,3 +1,3 @@",
        " 1",
        "-2",
        "+20",
        " 3",
    ]


def test_compare_is_byte_exact(tmp_path):
    case = make_case(tmp_path, "basic/x", "", expected="1\n2\n")
    missing_newline = compare(case, "1\n2")
    assert not missing_newline.passed
    assert "\\ No newline at end of file" in missing_newline.diff
    crlf = compare(case, "1\r\n2\n")
    assert not crlf.passed and crlf.diff
    trailing_space = compare(case, "1 \n2\n")
    assert not trailing_space.passed and "+1 \n" in trailing_space.diff
    assert not compare(case, "1\n2\n\n").passed


def test_compare_without_expected_file_fails_with_hint(tmp_path):
    case = make_case(tmp_path, "basic/new", "")
    r = compare(case, "out\n")
    assert not r.passed and "no expected output" in r.error and "--record" in r.error


def test_unified_diff_of_equal_texts_is_empty():
    assert unified_diff("a\n", b"a\n", "n") == ""


def test_record_writes_bytes_and_reports_change(tmp_path):
    case = make_case(tmp_path, "basic/x", "")
    assert record(case, "héllo\n") is True
    assert case.expected.read_bytes() == "héllo\n".encode()
    assert record(case, "héllo\n") is False
    assert record(case, b"other") is True
    assert case.expected.read_bytes() == b"other"
    assert not list(case.expected.parent.glob("*.tmp"))


# ---------------------------------------------------------------- report

def _result(name, passed, **kw):
    case = Case(name=name, program=Path(name + ".py"), expected=Path(name + ".expected"))
    return CaseResult(case, passed, **kw)


def test_report_lines_details_and_summary():
    results = [
        _result("basic/a", True),
        _result("basic/b", False, diff="--- x\n+++ y\n-1\n+2\n"),
        _result("basic/c", False, error="exited with code 1"),
    ]
    assert result_line(results[0]) == "PASS basic/a"
    assert result_line(results[1]) == "FAIL basic/b"
    assert summary_line(results) == "1 passed, 2 failed"
    text = format_report(results)
    assert text.splitlines() == [
        "PASS basic/a",
        "FAIL basic/b",
        "    --- x",
        "    +++ y",
        "    -1",
        "    +2",
        "FAIL basic/c",
        "    exited with code 1",
        "1 passed, 2 failed",
    ]


def test_summary_of_nothing():
    assert summary_line([]) == "0 passed, 0 failed"


def test_reporter_streams_and_ends_with_summary():
    out = io.StringIO()
    rep = Reporter(stream=out)
    rep.case_done(_result("basic/a", True))
    assert out.getvalue() == "PASS basic/a\n"
    rep.case_done(_result("basic/b", False, error="boom"))
    assert rep.finish(["a note"]) == "1 passed, 1 failed"
    assert out.getvalue().splitlines() == [
        "PASS basic/a", "FAIL basic/b", "    boom", "a note", "1 passed, 1 failed"]
    assert rep.failed == 1


# ---------------------------------------------------------------- reference runs

def test_reference_env_puts_interpreter_bin_first(fake_python):
    env = reference_env(fake_python, {"PATH": "/usr/bin:/bin"})
    assert env["PATH"] == os.path.dirname(fake_python) + os.pathsep + "/usr/bin:/bin"
    assert env["PYTHONUNBUFFERED"] == "1"
    assert resolve_python(fake_python) == fake_python  # the venv link is kept, not resolved


def test_resolve_python_errors():
    with pytest.raises(FileNotFoundError):
        resolve_python("/no/such/python")
    with pytest.raises(FileNotFoundError):
        resolve_python("no-such-python-interpreter-xyz")


def test_run_reference_passes_and_uses_path_and_cwd(tmp_path, fake_python):
    bin_dir = os.path.dirname(fake_python)
    program = """\
        import os, shutil
        print("first PATH entry is venv bin:", os.environ["PATH"].split(os.pathsep)[0] == %r)
        print("python on PATH is the venv's:", shutil.which("python") == %r)
        print("cwd is case dir:", os.path.basename(os.getcwd()))
        """ % (bin_dir, fake_python)
    expected = ("first PATH entry is venv bin: True\npython on PATH is the venv's: True\n"
                "cwd is case dir: basic\n")
    case = make_case(tmp_path / "cases", "basic/env", program, expected=expected)
    r = run_reference(case, fake_python, timeout=60)
    assert r.passed, (r.error, r.diff)
    assert r.actual == expected.encode() and r.duration > 0


def test_run_reference_output_order_with_unflushed_prints(tmp_path, fake_python):
    # a child writing straight to the inherited stdout, like Flink's JVM print sink
    program = """\
        import subprocess, sys
        print("before")
        subprocess.run([sys.executable, "-c", "print('from child')"])
        print("after")
        """
    case = make_case(tmp_path, "basic/order", program, expected="before\nfrom child\nafter\n")
    r = run_reference(case, fake_python, timeout=60)
    assert r.passed, r.diff


def test_run_reference_mismatch_and_failure(tmp_path, fake_python):
    case = make_case(tmp_path, "basic/diff", "print('b')\n", expected="a\n")
    r = run_reference(case, fake_python, timeout=60)
    assert not r.passed and "-a" in r.diff and "+b" in r.diff and r.error == ""

    case = make_case(tmp_path, "basic/crash", """\
        print("partial")
        raise RuntimeError("kaputt")
        """, expected="partial\n")
    r = run_reference(case, fake_python, timeout=60)
    assert not r.passed
    assert "exited with code 1" in r.error and "RuntimeError: kaputt" in r.error
    assert r.actual == b"partial\n"


def test_run_reference_timeout(tmp_path, fake_python):
    case = make_case(tmp_path, "basic/slow", """\
        import time
        print("started", flush=True)
        time.sleep(30)
        """, expected="started\n")
    r = run_reference(case, fake_python, timeout=2)
    assert not r.passed and "timed out" in r.error


def test_run_reference_missing_interpreter(tmp_path):
    case = make_case(tmp_path, "basic/x", "print(1)\n", expected="1\n")
    r = run_reference(case, "/no/such/python", timeout=5)
    assert not r.passed and "not found" in r.error


# ---------------------------------------------------------------- CLI

def _cases_dir(tmp_path):
    root = tmp_path / "cases"
    write(root / "basic" / "hello.py", "print('hello')\nprint('world')\n")
    write(root / "basic" / "numbers.py", "for i in range(3):\n    print(i)\n")
    write(root / "other" / "crash.py", "raise SystemExit(3)\n")
    return root


def test_cli_record_then_check_against_reference(tmp_path, fake_python, capsys):
    root = _cases_dir(tmp_path)
    rc = compat_main([str(root), "--reference", fake_python, "--record", "-k", "basic"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    assert out[:2] == ["PASS basic/hello", "    recorded %s" % (root / "basic" / "hello.expected")]
    assert out[-1] == "2 passed, 0 failed"
    assert (root / "basic" / "hello.expected").read_text() == "hello\nworld\n"
    assert (root / "basic" / "numbers.expected").read_text() == "0\n1\n2\n"
    assert not (root / "other" / "crash.expected").exists()

    rc = compat_main([str(root), "--reference", fake_python, "-k", "basic", "-j", "2"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 0
    # a PASS of a reference run is the reference's: the report says the shim was not run
    assert out == ["PASS basic/hello", "PASS basic/numbers",
                   "these cases ran on %s only; check the shim against them with: "
                   "pyflink-on-spark compat %s -k basic" % (fake_python, root),
                   "2 passed, 0 failed"]

    (root / "basic" / "numbers.expected").write_text("0\n1\n")
    rc = compat_main([str(root), "--reference", fake_python])
    out = capsys.readouterr().out.splitlines()
    assert rc == 1
    assert "FAIL basic/numbers" in out and "    +2" in out and "FAIL other/crash" in out
    assert out[-1] == "1 passed, 2 failed"


def test_cli_record_does_not_record_failed_runs(tmp_path, fake_python, capsys):
    root = _cases_dir(tmp_path)
    rc = compat_main([str(root), "--reference", fake_python, "--record"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 1
    assert "FAIL other/crash" in out
    assert out[-1] == "2 passed, 1 failed"
    assert not (root / "other" / "crash.expected").exists()


def test_cli_usage_errors(tmp_path, fake_python, capsys):
    root = _cases_dir(tmp_path)
    assert compat_main([str(root), "--record"]) == 2
    assert "--record requires --reference" in capsys.readouterr().err
    assert compat_main([str(tmp_path / "missing"), "--reference", fake_python]) == 2
    assert compat_main([str(root), "--reference", "/no/such/python"]) == 2
    rc = compat_main([str(root), "--reference", fake_python, "-k", "zzz"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 1 and out[-1] == "0 passed, 0 failed"


def test_cli_list(tmp_path, capsys):
    root = _cases_dir(tmp_path)
    (root / "basic" / "hello.expected").write_text("hello\nworld\n")
    assert compat_main([str(root), "--list"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "basic/hello", "basic/numbers  (no expected output)", "other/crash  (no expected output)"]


def test_cli_shim_mode_uses_script_runner(tmp_path, capsys, monkeypatch):
    root = _cases_dir(tmp_path)
    (root / "basic" / "hello.expected").write_text("hello\nworld\n")
    (root / "basic" / "numbers.expected").write_text("0\n1\n2\n")
    calls = []

    def fake_run_script_captured(path, argv):
        calls.append((path, argv))
        if path.endswith("crash.py"):
            return "partial\n", RuntimeError("shim blew up")
        if path.endswith("numbers.py"):
            return "0\n1\n3\n", None
        return "hello\nworld\n", None

    fake = types.ModuleType("pyflink_on_spark.cli.script_runner")
    fake.run_script_captured = fake_run_script_captured
    monkeypatch.setitem(sys.modules, "pyflink_on_spark.cli.script_runner", fake)
    rc = compat_main([str(root)])
    out = capsys.readouterr().out.splitlines()
    assert rc == 1
    assert [p for p, _ in calls] == [str(root / "basic" / "hello.py"),
                                     str(root / "basic" / "numbers.py"),
                                     str(root / "other" / "crash.py")]
    assert all(argv == [] for _, argv in calls)
    assert out[0] == "PASS basic/hello"
    assert "FAIL basic/numbers" in out and "    -2" in out and "    +3" in out
    i = out.index("FAIL other/crash")
    assert "raised:" in out[i + 1] and any("RuntimeError: shim blew up" in l for l in out)
    assert out[-1] == "1 passed, 2 failed"


def test_the_directories_a_case_makes_in_the_temp_directory_are_removed_after_it(tmp_path):
    from pyflink_on_spark.compat.shim import run_shim
    import tempfile
    made_by_test = tempfile.mkdtemp(dir=str(tmp_path))   # not the case's: left alone
    case = make_case(tmp_path, "makes_dirs", """
        import os, tempfile
        out = tempfile.mkdtemp()
        with open(os.path.join(out, "part-0"), "w") as f:
            f.write("x")
        print(out)
    """)
    result = run_shim(case)
    assert not result.crashed, result.error
    case_dir = result.actual.decode().strip()
    assert case_dir.startswith(tempfile.gettempdir())
    assert not os.path.exists(case_dir)
    assert os.path.isdir(made_by_test)
    assert tempfile.mkdtemp.__module__ == "tempfile"   # restored
