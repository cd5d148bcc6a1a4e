"""The Java check: a too-old Java is refused, a good one is checked once per binary (each
`java -version` costs a JVM start on every run)."""
import os

import pytest

from pyflink_on_spark.spark import session


def _fake_java(home, version):
    os.makedirs(home / "bin", exist_ok=True)
    java = home / "bin" / "java"
    java.write_text('#!/bin/sh\necho run >> "%s/calls"\necho \'openjdk version "%s"\' >&2\n'
                    % (home, version))
    java.chmod(0o755)
    return java


def test_a_java_older_than_17_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _fake_java(tmp_path / "jdk", "11.0.2")
    with pytest.raises(session.JavaNotFoundError, match="found openjdk version \"11.0.2\""):
        session.check_java()
    with pytest.raises(session.JavaNotFoundError):   # and again: a refusal is not cached
        session.check_java()
    assert (tmp_path / "jdk" / "calls").read_text().count("run") == 2


def test_a_good_java_is_run_once_until_it_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    java = _fake_java(tmp_path / "jdk", "17.0.15")
    session.check_java()
    session.check_java()
    assert (tmp_path / "jdk" / "calls").read_text().count("run") == 1
    java.write_text(java.read_text().replace("17.0.15", "11.0.2"))   # replaced by an old one
    os.utime(java, ns=(1, 1))
    with pytest.raises(session.JavaNotFoundError):
        session.check_java()
