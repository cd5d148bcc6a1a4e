"""Records the public names each PyFlink 1.20 package exports, for test_package_exports.py.

Run it once with real PyFlink's interpreter (it imports pyflink, never pyflink_on_spark):

    /opt/venvs/flink/bin/python pyflink_on_spark/tests/record_pyflink_exports.py

A package's exports are the public names of the imported package that are not modules
(PyFlink adds some with setattr in the package __init__, outside __all__), plus its __all__.
"""
import importlib
import json
import sys
import types
from pathlib import Path

PACKAGES = [
    "pyflink.common",
    "pyflink.datastream",
    "pyflink.datastream.connectors",
    "pyflink.datastream.formats",
    "pyflink.metrics",
    "pyflink.table",
    "pyflink.util",
]

OUT = Path(__file__).parent / "data" / "pyflink_1_20_exports.json"


def exports(package_name: str) -> dict:
    package = importlib.import_module(package_name)
    names = sorted(n for n in dir(package)
                   if not n.startswith("_")
                   and not isinstance(getattr(package, n), types.ModuleType))
    return {"names": names, "all": sorted(getattr(package, "__all__", []))}


def main() -> None:
    import pyflink.version
    if not sys.modules["pyflink"].__name__ == "pyflink" or "pyflink_on_spark" in sys.modules:
        raise SystemExit("run this with real PyFlink's interpreter")
    # import every package first: a package's attributes do not depend on import order then
    for name in PACKAGES:
        importlib.import_module(name)
    data = {"pyflink_version": pyflink.version.__version__,
            "packages": {name: exports(name) for name in PACKAGES}}
    OUT.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
