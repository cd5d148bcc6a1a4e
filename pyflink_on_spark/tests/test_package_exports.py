"""Each package of the shim exports exactly the names the same package of real PyFlink 1.20
exports (data/pyflink_1_20_exports.json, recorded by running record_pyflink_exports.py with
real PyFlink's interpreter): `from pyflink.X import Name` works wherever it works on PyFlink.
"""
import importlib
import json
import types
from pathlib import Path

import pytest

RECORDED = json.loads((Path(__file__).parent / "data" / "pyflink_1_20_exports.json").read_text())
PACKAGES = sorted(RECORDED["packages"])

# The Table API does not run on pyflink_on_spark (docs/ARCHITECTURE.md): pyflink.table offers
# DataTypes only, and every other name PyFlink exports there raises an ImportError that says so.
NOT_SUPPORTED = {"pyflink.table"}
# `from __future__ import absolute_import` leaves this in pyflink.table's namespace: not API
NOT_API = {"pyflink.table": {"absolute_import"}}


def _shim_package(name: str):
    return importlib.import_module(name.replace("pyflink", "pyflink_on_spark", 1))


def _public_names(package) -> set:
    return {n for n in dir(package)
            if not n.startswith("_") and not isinstance(getattr(package, n), types.ModuleType)}


def test_the_recording_is_pyflink_1_20():
    assert RECORDED["pyflink_version"].startswith("1.20.")
    assert "pyflink.datastream.connectors" in PACKAGES and "pyflink.metrics" in PACKAGES


@pytest.mark.parametrize("name", [p for p in PACKAGES if p not in NOT_SUPPORTED])
def test_package_exports_exactly_pyflinks_names(name):
    package = _shim_package(name)
    expected = set(RECORDED["packages"][name]["names"])
    actual = _public_names(package)
    assert sorted(expected - actual) == [], "missing"
    assert sorted(actual - expected) == [], "not in PyFlink"
    assert sorted(getattr(package, "__all__", [])) == RECORDED["packages"][name]["all"]


@pytest.mark.parametrize("name", sorted(NOT_SUPPORTED))
def test_unsupported_package_names_fail_with_an_explanation(name):
    package = _shim_package(name)
    recorded = set(RECORDED["packages"][name]["names"]) - NOT_API.get(name, set())
    actual = _public_names(package)
    assert actual <= recorded
    for missing in sorted(recorded - actual):
        with pytest.raises(ImportError, match="not supported by pyflink_on_spark"):
            getattr(package, missing)


def test_connector_classes_import_from_the_connectors_package():
    from pyflink_on_spark.datastream.connectors import (FileSink, FileSource,  # noqa: F401
                                                        FlinkKafkaConsumer, OutputFileConfig,
                                                        StreamFormat)
    from pyflink_on_spark.datastream.connectors.file_system import FileSource as Defined
    assert FileSource is Defined
