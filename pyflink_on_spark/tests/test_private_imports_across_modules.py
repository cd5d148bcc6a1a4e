"""No module under runtime/, spark/ or direct/ imports another module's private names (issue
39: the streaming executor imported three private helpers of the bounded one). A name
starting with one underscore is its module's own; what another module needs is made public
where it belongs. Read with ast, as test_layers.py reads imports; a module and the modules
of its own package's __init__ re-exports are not "another module" to each other only when
they are the same file.
"""
from __future__ import annotations

import ast
import pathlib
from typing import Dict, List, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("runtime", "spark", "direct")

# (importing module relative to pyflink_on_spark/, imported name) -> why it is allowed
ALLOWED: Dict[Tuple[str, str], str] = {
    # PyFlink's own pyflink.common.types has the same private function (Row's pickle
    # constructor); the shim mirrors it, and builds rows the way PyFlink's unpickling does
    ("runtime/operators/co_process.py", "_create_row"): "PyFlink's Row constructor",
}


def private_imports(source: str) -> List[Tuple[str, str]]:
    """(module imported from, private name) of every ``from pyflink_on_spark... import _x``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and \
                node.module.startswith("pyflink_on_spark"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((node.module, alias.name))
    return found


def violations() -> List[str]:
    problems = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "tests" in path.relative_to(ROOT).parts:
                continue
            module = path.relative_to(ROOT).as_posix()
            for imported_from, name in private_imports(path.read_text()):
                if (module, name) not in ALLOWED:
                    problems.append("%s imports %s from %s" % (module, name, imported_from))
    return problems


def test_no_module_imports_private_names_of_another():
    problems = violations()
    assert problems == [], "\n".join(problems)


def test_the_walk_finds_a_private_import():
    assert private_imports("from pyflink_on_spark.spark.executor import _driver_rows\n"
                           "from pyflink_on_spark.spark import (\n    a, _b)\n") == [
        ("pyflink_on_spark.spark.executor", "_driver_rows"), ("pyflink_on_spark.spark", "_b")]
    assert private_imports("from pyflink_on_spark.a import __version__\n"
                           "from os import _exit\n") == []


def test_every_allowed_import_is_still_made():
    made = set()
    for module, _ in ALLOWED:
        made.update((module, name) for _, name in private_imports((ROOT / module).read_text()))
    assert set(ALLOWED) <= made
