"""The shim's zip for workers without it (spark/package_shipping.py): what it holds, when it
is rebuilt, and when a session ships it; without Spark."""
import os
import zipfile

import pytest

from pyflink_on_spark.runtime.operators.base import _is_engine_frame
from pyflink_on_spark.spark import package_shipping
from pyflink_on_spark.spark.package_shipping import needs_shipping, package_zip

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


def test_the_zip_holds_pure_python_client_libraries_installed_here(tmp_path):
    """PyMySQL (JdbcSink on jdbc:mysql: / jdbc:mariadb:) reaches a plain PySpark cluster's
    executors in the zip, as the shim does."""
    import pymysql       # the test extra installs it
    assert pymysql.__file__
    names = set(zipfile.ZipFile(package_zip(str(tmp_path))).namelist())
    assert {"pymysql/__init__.py", "pymysql/connections.py", "pymysql/cursors.py"} <= names


def test_the_zip_holds_pika_for_rabbitmq(tmp_path):
    """pika (RMQSink's publisher, in the sink's tasks) reaches plain PySpark executors too."""
    import pika          # the test extra installs it
    assert pika.__file__
    names = set(zipfile.ZipFile(package_zip(str(tmp_path))).namelist())
    assert {"pika/__init__.py", "pika/adapters/blocking_connection.py"} <= names


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
    # this process shipped the first zip: a job of it may still hand it to new executors
    assert os.path.exists(first)
    os.close(package_shipping._held.pop(first))               # as if the process ended
    package_shipping._remove_unused_zips(os.path.dirname(first))
    assert not os.path.exists(first) and os.path.exists(second)   # held: kept
    assert oct(os.stat(cache).st_mode & 0o777) == "0o700"     # code the workers run: ours


def test_a_zip_another_running_process_holds_is_not_removed(tmp_path):
    """Two installations (or versions) of the shim on one machine: each removes only the
    zips no live process holds (a CI run beside a developer's run removed the zip of the
    other's running job: its next executor failed with "Stream ... was not found")."""
    import subprocess
    import sys
    cache = tmp_path / "cache"
    cache.mkdir()
    other = cache / (package_shipping.ZIP_PREFIX + "another-version.zip")
    other.write_bytes(b"PK")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time; fd = os.open(sys.argv[1], "
         "os.O_RDONLY); fcntl.flock(fd, fcntl.LOCK_SH); print('held', flush=True); "
         "time.sleep(60)", str(other)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        package_shipping._remove_unused_zips(str(cache))
        assert other.exists()
    finally:
        holder.kill()
        holder.wait()
    package_shipping._remove_unused_zips(str(cache))
    assert not other.exists()


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


def test_the_local_test_session_ships_nothing_and_probes_nothing(spark, monkeypatch):
    def probe(context):
        raise AssertionError("the executors are this Python: nothing to ask them")
    monkeypatch.setattr(package_shipping, "probe_workers", probe)
    context = spark.sparkContext
    before = list(context._python_includes or ())
    assert package_shipping.ship_package(spark) is None
    assert package_shipping.ship_native_packages(spark, _Job("rocksdb", _kafka_sink())) is None
    assert list(context._python_includes or ()) == before


class _Context:
    master = "spark://127.0.0.1:7077"
    pythonExec = "/opt/executors/bin/python"

    def __init__(self):
        self.archives = []
        self.py_files = []

    def addArchive(self, path):
        self.archives.append(path)

    def addPyFile(self, path):
        self.py_files.append(path)


class _Session:
    def __init__(self):
        self.sparkContext = _Context()


class _Job:
    """A compiled job's shape as ship_native_packages reads it: a state backend, and
    operators' specs."""

    def __init__(self, backend=None, *ops):
        from types import SimpleNamespace
        config = SimpleNamespace(state_backend=backend)
        operators = tuple(SimpleNamespace(op=op) for op in ops)
        self.stages = [SimpleNamespace(source=None, spec=SimpleNamespace(
            config=config, operators=operators))]


def _kafka_sink():
    from pyflink_on_spark.specs.sinks import KafkaSinkSpec
    return KafkaSinkSpec(properties=(("bootstrap.servers", "broker:9092"),),
                         value_serializer=bytes, topic="out")


def _exactly_once_kafka_sink():
    from pyflink_on_spark.specs.sinks import KafkaTransactionalSinkSpec
    return KafkaTransactionalSinkSpec(records=_kafka_sink())


def _workers(monkeypatch, python, platform, **packages):
    """The executors' Python as probe_workers would find it; the list of contexts probed."""
    probed = []

    def probe(context):
        probed.append(context)
        return {"python": python, "platform": platform,
                "packages": {"rocksdict": packages.get("rocksdict"),
                             "confluent-kafka": packages.get("confluent_kafka")}}
    monkeypatch.setattr(package_shipping, "probe_workers", probe)
    return probed


def _drivers(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return package_shipping._driver_python()


def test_rocksdict_goes_as_an_archive_to_workers_of_the_drivers_python_and_platform(
        monkeypatch, tmp_path):
    from importlib import metadata
    python, platform = _drivers(monkeypatch, tmp_path)
    _workers(monkeypatch, python, platform)
    session = _Session()
    path = package_shipping.ship_native_packages(session, _Job("rocksdb"))
    assert session.sparkContext.archives == [path + "#pyflink_on_spark_native-0"]
    names = zipfile.ZipFile(path).namelist()
    assert any(name.startswith("rocksdict/") and name.endswith(".so") for name in names)
    assert metadata.version("rocksdict") in os.path.basename(path)
    # once per context
    assert package_shipping.ship_native_packages(session, _Job("rocksdb")) is None


def test_confluent_kafka_goes_with_its_bundled_librdkafka_for_a_job_with_a_kafka_sink(
        monkeypatch, tmp_path):
    python, platform = _drivers(monkeypatch, tmp_path)
    _workers(monkeypatch, python, platform)
    session = _Session()
    path = package_shipping.ship_native_packages(session, _Job(None, _kafka_sink()))
    assert session.sparkContext.archives == [path + "#pyflink_on_spark_native-0"]
    names = zipfile.ZipFile(path).namelist()
    assert "confluent_kafka/__init__.py" in names
    assert any(n.startswith("confluent_kafka/cimpl") and n.endswith(".so") for n in names)
    # the wheel's librdkafka, where the extension's RPATH ($ORIGIN/../confluent_kafka.libs)
    # finds it
    assert any(n.startswith("confluent_kafka.libs/librdkafka") for n in names), names
    assert not [n for n in names if n.startswith("rocksdict/")]
    # exactly-once sinks need it too; already there
    assert package_shipping.ship_native_packages(
        session, _Job(None, _exactly_once_kafka_sink())) is None


def test_a_later_job_needing_another_package_gets_a_newer_archive_holding_both(
        monkeypatch, tmp_path):
    from pyspark.files import SparkFiles
    python, platform = _drivers(monkeypatch, tmp_path)
    _workers(monkeypatch, python, platform)
    session = _Session()
    package_shipping.ship_native_packages(session, _Job("rocksdb"))
    both = package_shipping.ship_native_packages(session, _Job("rocksdb", _kafka_sink()))
    assert session.sparkContext.archives[1] == both + "#pyflink_on_spark_native-1"
    names = zipfile.ZipFile(both).namelist()
    assert any(n.startswith("rocksdict/") for n in names)
    assert any(n.startswith("confluent_kafka/") for n in names)
    # in a task: the newest archive's directory goes on the path (-10 sorts before -2 as text)
    for name in ("pyflink_on_spark_native-0", "pyflink_on_spark_native-2",
                 "pyflink_on_spark_native-10", "pyflink_on_spark_native-x", "other"):
        (tmp_path / "files" / name).mkdir(parents=True)
    monkeypatch.setattr(SparkFiles, "_is_running_on_worker", True)
    monkeypatch.setattr(SparkFiles, "_root_directory", str(tmp_path / "files"))
    assert package_shipping.native_archive_path() == \
        str(tmp_path / "files" / "pyflink_on_spark_native-10")


def test_workers_that_have_the_package_or_a_job_that_needs_none_get_nothing(monkeypatch):
    from importlib import metadata
    from pyflink_on_spark.datastream.state_backend import HashMapStateBackend
    # rocksdict of the driver's version; confluent-kafka of any version will do
    _workers(monkeypatch, package_shipping._driver_python()[0], "elsewhere",
             rocksdict=metadata.version("rocksdict"), confluent_kafka="1.9.0")
    session = _Session()
    assert package_shipping.ship_native_packages(session, _Job("rocksdb", _kafka_sink())) \
        is None
    assert package_shipping.ship_native_packages(session, _Job(HashMapStateBackend())) is None
    assert session.sparkContext.archives == []


def test_workers_of_another_platform_without_the_packages_fail_the_job_before_it_runs(
        monkeypatch):
    from pyflink_on_spark.datastream.state_backend import EmbeddedRocksDBStateBackend
    python = package_shipping._driver_python()[0]
    _workers(monkeypatch, python, "linux-aarch64", rocksdict="0.1")
    session = _Session()
    with pytest.raises(package_shipping.ExecutorsCannotRunJob) as raised:
        package_shipping.ship_native_packages(
            session, _Job(EmbeddedRocksDBStateBackend(), _kafka_sink()))
    text = str(raised.value)
    where = "/opt/executors/bin/python: Python %s on linux-aarch64" % python
    assert "EmbeddedRocksDBStateBackend needs rocksdict in the executors' Python (%s), " \
        "which has rocksdict 0.1" % where in text
    assert "pip install rocksdict==" in text and "HashMapStateBackend" in text
    assert "KafkaSink / FlinkKafkaProducer needs confluent-kafka in the executors' Python " \
        "(%s), which cannot import it" % where in text
    assert "pip install confluent-kafka==" in text
    assert session.sparkContext.archives == []


def test_a_package_the_driver_lacks_and_the_executors_too_fails_saying_to_install_it(
        monkeypatch):
    real = package_shipping._installed_version
    monkeypatch.setattr(package_shipping, "_installed_version",
                        lambda name: None if name == "confluent-kafka" else real(name))
    _workers(monkeypatch, *package_shipping._driver_python())
    with pytest.raises(package_shipping.ExecutorsCannotRunJob) as raised:
        package_shipping.ship_native_packages(_Session(), _Job(None, _kafka_sink()))
    assert "The driver has none to ship: install it in the executors' Python (pip install " \
        "confluent-kafka)" in str(raised.value)


def test_executors_of_another_minor_python_fail_before_any_task_naming_both_and_the_fix(
        monkeypatch):
    import sys
    python = package_shipping._driver_python()[0]
    other = "3.%d" % (sys.version_info[1] + 1)
    probed = _workers(monkeypatch, other, package_shipping._driver_python()[1])
    session = _Session()
    for _ in range(2):     # every job of the session fails so, from one probe
        with pytest.raises(package_shipping.ExecutorsCannotRunJob) as raised:
            package_shipping.ship_package(session)
        text = str(raised.value)
        assert "The executors' Python (/opt/executors/bin/python) is Python %s, the " \
            "driver's (%s) Python %s" % (other, sys.executable, python) in text
        assert "Name a Python %s on the executors with PYSPARK_PYTHON or --conf " \
            "spark.pyspark.python" % python in text
    assert probed == [session.sparkContext]
    assert session.sparkContext.py_files == []         # nothing shipped


def test_the_executors_python_is_probed_once_per_context_and_python(monkeypatch, tmp_path):
    python, platform = _drivers(monkeypatch, tmp_path)
    probed = _workers(monkeypatch, python, platform)
    monkeypatch.setattr(package_shipping, "package_zip", lambda: "/cache/shim.zip")
    session = _Session()
    assert package_shipping.ship_package(session) == "/cache/shim.zip"
    package_shipping.ship_native_packages(session, _Job("rocksdb", _kafka_sink()))
    assert package_shipping.ship_package(session) is None
    assert probed == [session.sparkContext]
    session.sparkContext.pythonExec = "/opt/other/bin/python"   # another Python: asked anew
    package_shipping.ship_native_packages(session, _Job("rocksdb"))
    assert probed == [session.sparkContext] * 2
    assert session.sparkContext.py_files == ["/cache/shim.zip"]


@pytest.mark.parametrize("through", ["a task", "a local process"])
def test_the_probe_asks_the_executors_python_itself(spark, monkeypatch, through):
    from importlib import metadata
    from pyflink_on_spark.spark import session
    # a cluster's executors are asked through a task (a JVM RDD piped through their Python);
    # a local master's, this machine's, from here
    monkeypatch.setattr(session, "is_local_master", lambda master: through != "a task")
    python, platform = package_shipping._driver_python()
    found = package_shipping.probe_workers(spark.sparkContext)   # the local executors: here
    assert found == {"python": python, "platform": platform, "packages": {
        "rocksdict": metadata.version("rocksdict"),
        "confluent-kafka": metadata.version("confluent-kafka"),
        "cassandra-driver": metadata.version("cassandra-driver"),
        "geomet": metadata.version("geomet"), "Deprecated": metadata.version("Deprecated"),
        "wrapt": metadata.version("wrapt"), "psycopg": metadata.version("psycopg"),
        "psycopg-binary": metadata.version("psycopg-binary"),
        "typing-extensions": metadata.version("typing-extensions")}}
    monkeypatch.setattr(spark.sparkContext, "pythonExec", "/nowhere/bin/python3")
    with pytest.raises(package_shipping.ExecutorsCannotRunJob) as raised:
        package_shipping.probe_workers(spark.sparkContext)
    assert "The executors could not run their Python '/nowhere/bin/python3'" in \
        str(raised.value)
    assert "No such file or directory" in str(raised.value)
