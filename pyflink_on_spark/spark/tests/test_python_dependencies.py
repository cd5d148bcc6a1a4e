"""How the job's Python dependencies are put into a shape Spark ships (addPyFile takes .py,
.zip and .egg) and how a worker installs requirements; the end-to-end behaviour is in the
compat cases dependencies/*."""
import os
import zipfile

import pytest

from pyflink_on_spark.spark.python_dependencies import _py_file, install_requirements


def test_a_directory_ships_as_a_zip_of_its_contents_so_they_import(tmp_path):
    deps = tmp_path / "helpers"
    (deps / "inner").mkdir(parents=True)
    (deps / "doubling.py").write_text("X = 1\n")
    (deps / "inner" / "__init__.py").write_text("")
    shipped = _py_file(str(deps))
    assert shipped.endswith(".zip") and os.path.basename(shipped).startswith("helpers-")
    assert sorted(zipfile.ZipFile(shipped).namelist()) == ["doubling.py", "inner/__init__.py"]
    assert _py_file(str(deps)) == shipped   # same contents, same path: Spark accepts it again
    (deps / "doubling.py").write_text("X = 2\n")
    assert _py_file(str(deps)) != shipped


def test_files_spark_takes_as_they_are_wheels_as_zips_others_refused(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("")
    assert _py_file(str(module)) == str(module)
    wheel = tmp_path / "w-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("w/__init__.py", "")
    assert _py_file(str(wheel)).endswith(".zip")
    other = tmp_path / "notes.txt"
    other.write_text("")
    with pytest.raises(ValueError, match="add_python_file"):
        _py_file(str(other))


def _tiny_wheel(directory):
    name = "tinyreq_for_test"
    files = {"%s/__init__.py" % name: "VALUE = 42\n",
             "%s-1.0.dist-info/METADATA" % name:
                 "Metadata-Version: 2.1\nName: tinyreq-for-test\nVersion: 1.0\n",
             "%s-1.0.dist-info/WHEEL" % name:
                 "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\n"
                 "Tag: py3-none-any\n"}
    record = "".join("%s,,\n" % f for f in files) + "%s-1.0.dist-info/RECORD,,\n" % name
    with zipfile.ZipFile(os.path.join(directory, "%s-1.0-py3-none-any.whl" % name), "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
        z.writestr("%s-1.0.dist-info/RECORD" % name, record)


def test_requirements_install_offline_from_the_cache_once(tmp_path):
    (tmp_path / "cache").mkdir()
    _tiny_wheel(str(tmp_path / "cache"))
    (tmp_path / "requirements-x.txt").write_text("tinyreq-for-test==1.0\n")
    target = install_requirements(str(tmp_path), "requirements-x.txt", "cache")
    assert os.path.isfile(os.path.join(target, "tinyreq_for_test", "__init__.py"))
    assert install_requirements(str(tmp_path), "requirements-x.txt", "cache") == target


def test_a_failing_install_says_what_failed(tmp_path):
    (tmp_path / "cache").mkdir()
    (tmp_path / "requirements-y.txt").write_text("no-such-package-anywhere==9\n")
    with pytest.raises(RuntimeError, match="(?s)set_python_requirements.*no-such-package-anywhere==9"):
        install_requirements(str(tmp_path), "requirements-y.txt", "cache")
    assert not os.path.exists(tmp_path / "python-requirements-requirements-y.txt")


def test_shipped_zips_live_in_the_users_own_private_temp_directory(tmp_path, monkeypatch):
    import stat
    import tempfile
    from pyflink_on_spark.private_files import UnsafePathError
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    deps = tmp_path / "helpers"
    deps.mkdir()
    (deps / "m.py").write_text("X = 1\n")
    previous = os.umask(0o022)
    try:
        shipped = _py_file(str(deps))
    finally:
        os.umask(previous)
    directory = tmp_path / "tmp" / ("pyflink-on-spark-shipped-%d" % os.getuid())
    assert os.path.dirname(shipped) == str(directory)
    assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    # a directory of that name someone else made (their zips would go on the workers' path)
    other = os.getuid() + 1
    (tmp_path / "tmp" / ("pyflink-on-spark-shipped-%d" % other)).mkdir(mode=0o777)
    monkeypatch.setattr(os, "getuid", lambda: other)
    with pytest.raises(UnsafePathError, match="pyflink-on-spark-shipped-%d" % other):
        _py_file(str(deps))
