"""The command line tells a new user what to do: --version, run without a script, compat
outside the repository root."""
import pytest

from pyflink_on_spark import __version__
from pyflink_on_spark.cli.main import main
from pyflink_on_spark.compat import cli as compat_cli


def test_version(capsys):
    with pytest.raises(SystemExit) as raised:
        main(["--version"])
    assert raised.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_run_without_a_script_says_what_to_pass(capsys):
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert "give the PyFlink job script" in err and "pyflink-on-spark run my_job.py" in err


def test_compat_outside_the_repository_root_finds_the_checkouts_cases(tmp_path, monkeypatch,
                                                                       capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["compat", "--list", "-k", "basic/map_lambda"]) == 0
    assert "basic/map_lambda_p1" in capsys.readouterr().out


def test_compat_without_cases_anywhere_says_what_to_pass(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(compat_cli, "default_cases_dir", lambda: None)
    assert main(["compat", "--list"]) == 2
    assert "pass the cases directory" in capsys.readouterr().err
