"""The archive written at the start of a test run (spark/tests/class_cache_prime.py): only
when one is wanted; a failed job is reported with its error."""
import os

from pyflink_on_spark.spark.class_cache import CLASS_CACHE_ENV
from pyflink_on_spark.spark.tests import class_cache_prime


def test_no_priming_when_the_cache_is_off_or_map_only(monkeypatch):
    for mode in ("0", "off", "map"):
        monkeypatch.setenv(CLASS_CACHE_ENV, mode)
        assert class_cache_prime.start_priming() is None


def test_no_priming_when_the_archive_is_there(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv(CLASS_CACHE_ENV, raising=False)
    cache = class_cache_prime._plain_cache()
    os.makedirs(cache.directory, mode=0o700)
    with open(cache.archive, "wb") as f:
        f.truncate(2 << 20)
    assert class_cache_prime.start_priming() is None
    assert not os.path.exists(cache.directory + "/" + os.path.basename(cache.archive)[:-4]
                              + ".seen")


def test_a_failed_priming_job_is_reported_with_its_error():
    import subprocess
    import sys
    import tempfile
    errors = tempfile.TemporaryFile()
    proc = subprocess.Popen([sys.executable, "-c", "raise SystemExit('no spark here')"],
                            stderr=errors)
    proc.errors = errors
    message = class_cache_prime.wait_for_priming(proc)
    assert "failed (1)" in message and "no spark here" in message
    assert class_cache_prime.wait_for_priming(None) == ""
