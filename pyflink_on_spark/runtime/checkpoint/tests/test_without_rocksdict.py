"""Checkpointing a job on the HashMap backend needs nothing of RocksDB: a cluster's plain
executors have no rocksdict (the job failed there at its first snapshot)."""
import subprocess
import sys

CODE = """
import sys
sys.modules["rocksdict"] = None          # as in a Python without it: import fails
from pyflink_on_spark.runtime.checkpoint.keyed import is_rocksdb
from pyflink_on_spark.runtime.state.heap import HeapKeyedStateBackend
backend = HeapKeyedStateBackend.__new__(HeapKeyedStateBackend)
assert is_rocksdb(backend) is False
assert "pyflink_on_spark.runtime.state.rocksdb" not in sys.modules
print("ok")
"""


def test_a_heap_backend_is_told_apart_without_importing_the_rocksdb_backend():
    result = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True)
    assert result.stdout.strip() == "ok", result.stderr


def test_a_rocksdb_backend_is_still_recognised():
    from pyflink_on_spark.runtime.checkpoint.keyed import is_rocksdb
    from pyflink_on_spark.runtime.state.rocksdb import RocksDBKeyedStateBackend
    assert is_rocksdb(RocksDBKeyedStateBackend.__new__(RocksDBKeyedStateBackend))
