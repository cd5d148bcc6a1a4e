"""The shim's zip for workers without it (spark/package_shipping.py): what it holds, when it
is rebuilt, and when a session ships it; without Spark."""
import os
import zipfile

import pytest

from pyflink_on_spark.runtime.operators.base import _is_engine_frame
from pyflink_on_spark.spark import package_shipping
from pyflink_on_spark.spark.package_shipping import fingerprint, needs_shipping, package_zip

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_the_zip_holds_every_module_of_the_shim_and_cloudpickle_with_bytecode_but_no_tests(
        tmp_path):
    names = set(zipfile.ZipFile(package_zip(str(tmp_path))).namelist())
    expected = set()
    for directory, dirs, files in os.walk(PACKAGE_DIR):
        dirs[:] = [d for d in dirs if d not in ("tests", "__pycache__")]
        for file in files:
            if file.endswith(".py"):
                relative = os.path.relpath(os.path.join(directory, file),
                                           os.path.dirname(PACKAGE_DIR))
                expected.add(relative.replace(os.sep, "/"))
    assert expected and expected <= names
    assert {name[:-1] for name in names if name.endswith(".pyc")} >= expected
    assert "pyflink_on_spark/migrate/data/pyflink-1.20-api-inventory.txt" in names  # data
    assert "cloudpickle/__init__.py" in names and "cloudpickle/cloudpickle.py" in names
    assert not [name for name in names if "/tests/" in name or "__pycache__" in name]


def test_the_zip_is_built_once_per_content_and_rebuilt_when_a_file_changes(tmp_path,
                                                                            monkeypatch):
    package = tmp_path / "src" / "shippable"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setattr(package_shipping, "SHIPPED_PACKAGES", ("shippable",))
    cache = str(tmp_path / "cache")
    first = package_zip(cache)
    assert package_zip(cache) == first                       # the same content: reused
    os.utime(package / "__init__.py", ns=(1, 10 ** 18))       # the checkout changed
    second = package_zip(cache)
    assert second != first and os.path.exists(second)
    assert not os.path.exists(first)                          # the old zip is not kept
    assert oct(os.stat(cache).st_mode & 0o777) == "0o700"     # code the workers run: ours


@pytest.mark.parametrize("master,python,ships", [
    ("local[*,4]", None, False),                 # the workers run this interpreter
    ("local[2]", "/some/other/python3", True),   # a Python without the shim, perhaps
    ("spark://127.0.0.1:7077", None, True),      # a cluster's executors
    ("yarn", None, True),
    (None, None, True),                          # not known (spark-submit): ship
])
def test_a_classic_session_ships_unless_its_workers_are_this_local_interpreter(
        master, python, ships):
    assert needs_shipping(master, python) is ships


def test_engine_frames_of_the_shipped_bytecode_are_hidden_from_user_tracebacks():
    # the shipped bytecode names its files relative to the zip (where it lands is unknown)
    assert _is_engine_frame("pyflink_on_spark/runtime/operators/base.py")
    assert _is_engine_frame(os.path.join(PACKAGE_DIR, "runtime", "task.py"))
    assert not _is_engine_frame("/home/me/jobs/my_job.py")


def test_the_local_test_session_ships_nothing(spark):
    context = spark.sparkContext
    before = list(context._python_includes or ())
    assert package_shipping.ship_package(spark) is None
    assert list(context._python_includes or ()) == before


class _Context:
    master = "spark://127.0.0.1:7077"
    pythonExec = "/opt/executors/bin/python"

    def __init__(self):
        self.archives = []

    def addArchive(self, path):
        self.archives.append(path)


class _Session:
    def __init__(self):
        self.sparkContext = _Context()


class _RocksJob:
    """A compiled job's shape as ship_native_packages reads it."""

    def __init__(self, backend):
        from types import SimpleNamespace
        config = SimpleNamespace(state_backend=backend)
        self.stages = [SimpleNamespace(spec=SimpleNamespace(config=config))]


def _workers(monkeypatch, python, platform, rocksdict):
    monkeypatch.setattr(package_shipping, "probe_workers", lambda session: {
        "python": python, "platform": platform, "rocksdict": rocksdict})


def test_rocksdict_goes_as_an_archive_to_workers_of_the_drivers_python_and_platform(
        monkeypatch, tmp_path):
    from importlib import metadata
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    python, platform = package_shipping._driver_python()
    _workers(monkeypatch, python, platform, None)
    session = _Session()
    path = package_shipping.ship_native_packages(session, _RocksJob("rocksdb"))
    assert session.sparkContext.archives == [path + "#pyflink_on_spark_native"]
    names = zipfile.ZipFile(path).namelist()
    assert any(name.startswith("rocksdict/") and name.endswith(".so") for name in names)
    assert metadata.version("rocksdict") in os.path.basename(path)
    # once per context
    assert package_shipping.ship_native_packages(session, _RocksJob("rocksdb")) is None


def test_workers_that_have_the_drivers_rocksdict_or_a_job_without_rocksdb_get_nothing(
        monkeypatch):
    from importlib import metadata
    from pyflink_on_spark.datastream.state_backend import HashMapStateBackend
    _workers(monkeypatch, "3.0", "elsewhere", metadata.version("rocksdict"))
    session = _Session()
    assert package_shipping.ship_native_packages(session, _RocksJob("rocksdb")) is None
    assert package_shipping.ship_native_packages(_Session(),
                                                 _RocksJob(HashMapStateBackend())) is None
    assert session.sparkContext.archives == []


def test_workers_of_another_python_without_rocksdict_fail_the_job_before_it_runs(monkeypatch):
    from pyflink_on_spark.datastream.state_backend import EmbeddedRocksDBStateBackend
    _workers(monkeypatch, "3.9", "linux-aarch64", None)
    with pytest.raises(package_shipping.ExecutorsCannotRunJob) as raised:
        package_shipping.ship_native_packages(_Session(),
                                              _RocksJob(EmbeddedRocksDBStateBackend()))
    text = str(raised.value)
    assert "/opt/executors/bin/python: Python 3.9 on linux-aarch64" in text
    assert "pip install rocksdict==" in text and "HashMapStateBackend" in text
