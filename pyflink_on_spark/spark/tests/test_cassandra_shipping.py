"""A job with a CassandraSink ships cassandra-driver and what it imports (geomet, Deprecated,
the compiled wrapt) to executors whose Python lacks them (spark/package_shipping.py), and
the archive alone is enough to import the driver; without Spark."""
import os
import subprocess
import sys
import zipfile
from types import SimpleNamespace

from pyflink_on_spark.spark import package_shipping
from pyflink_on_spark.specs.sinks import CassandraSinkSpec


class _Context:
    master = "spark://127.0.0.1:7077"
    pythonExec = "/opt/executors/bin/python"

    def __init__(self):
        self.archives = []

    def addArchive(self, path):
        self.archives.append(path)


def _job(*ops):
    config = SimpleNamespace(state_backend=None)
    operators = tuple(SimpleNamespace(op=op) for op in ops)
    return SimpleNamespace(stages=[SimpleNamespace(source=None, spec=SimpleNamespace(
        config=config, operators=operators))])


def test_the_driver_and_its_dependencies_go_to_executors_that_lack_them(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    python, platform = package_shipping._driver_python()
    monkeypatch.setattr(package_shipping, "probe_workers", lambda context: {
        "python": python, "platform": platform,
        "packages": {p.distribution: None for p in package_shipping.NATIVE_PACKAGES}})
    session = SimpleNamespace(sparkContext=_Context())
    sink = CassandraSinkSpec(query="INSERT INTO ks.t (k) VALUES (?)", host="db")
    assert package_shipping.ship_native_packages(session, _job()) is None
    path = package_shipping.ship_native_packages(session, _job(sink))
    assert session.sparkContext.archives == [path + "#pyflink_on_spark_native-0"]
    archive = zipfile.ZipFile(path)
    names = archive.namelist()
    for module in ("cassandra/cluster.py", "geomet/wkt.py", "deprecated/classic.py",
                   "wrapt/__init__.py"):
        assert module in names
    # a Python without site-packages imports the driver from the archive alone
    unpacked = tmp_path / "unpacked"
    archive.extractall(unpacked)
    imported = subprocess.run(
        [sys.executable, "-S", "-c", "import sys; sys.path.insert(0, %r); "
         "import cassandra.cluster, cassandra.query; print(cassandra.cluster.__file__)"
         % str(unpacked)], capture_output=True, text=True)
    assert imported.returncode == 0, imported.stderr[-2000:]
    assert imported.stdout.startswith(str(unpacked) + os.sep)
