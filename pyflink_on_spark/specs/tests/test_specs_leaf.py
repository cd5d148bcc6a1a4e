"""specs is a leaf: its modules import only the standard library and each other."""
import ast
import pathlib
import sys

SPECS = pathlib.Path(__file__).resolve().parents[1]


def _imports(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def test_specs_import_only_the_standard_library_and_specs():
    bad = []
    for path in SPECS.glob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            if name.startswith("pyflink_on_spark.specs") or top in sys.stdlib_module_names:
                continue
            bad.append("%s imports %s" % (path.name, name))
    assert bad == []
