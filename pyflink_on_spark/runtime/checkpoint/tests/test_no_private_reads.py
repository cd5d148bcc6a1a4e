"""Checkpointing is the operators' own (issue 39): the code of runtime/checkpoint/ reaches
other objects only through their public interface. Its source is read with ast:

* no attribute starting with an underscore is read or written on anything but ``self`` /
  ``cls`` (module-private functions and names used by their bare name are fine), neither
  by ``getattr`` / ``setattr`` / ``hasattr`` with the name as a string, nor are closures'
  cells or functions' globals looked into;
* no operator is recognised by a string kind (no ``_kind``, no "file_sink", "timestamps",
  ...) or by its class (runtime/checkpoint imports no operator module).
"""
from __future__ import annotations

import ast
import pathlib
from typing import Iterator, List

import pytest

CHECKPOINT = pathlib.Path(__file__).resolve().parents[1]
OWN = {"self", "cls"}
# what only a look into another object's implementation reads
INTROSPECTION = {"__closure__", "__code__", "__globals__", "__defaults__", "__kwdefaults__",
                 "__dict__", "cell_contents"}
OPERATOR_KINDS = {"file_sink", "timestamps", "jdbc_sink", "kafka_transactions", "kafka_sink"}
ATTRIBUTE_FUNCTIONS = {"getattr", "setattr", "hasattr", "delattr"}


def sources() -> List[pathlib.Path]:
    return sorted(p for p in CHECKPOINT.rglob("*.py") if "tests" not in p.relative_to(
        CHECKPOINT).parts)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _owner(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else ast.unparse(node)


def violations(source: str, where: str = "<source>") -> Iterator[str]:
    """What in `source` reaches into other objects or tells operators apart by kind."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        line = "%s:%d" % (where, getattr(node, "lineno", 0))
        if isinstance(node, ast.Attribute):
            if (_private(node.attr) and _owner(node.value) not in OWN) or \
                    node.attr in INTROSPECTION:
                yield "%s: %s.%s" % (line, _owner(node.value), node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ATTRIBUTE_FUNCTIONS and len(node.args) >= 2:
            target, name = node.args[0], node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and \
                    (_private(name.value) or name.value in INTROSPECTION) and \
                    _owner(target) not in OWN:
                yield "%s: %s(%s, %r)" % (line, node.func.id, _owner(target), name.value)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "_kind":
            yield "%s: def _kind (operators told apart by a string kind)" % line
        elif isinstance(node, ast.Name) and node.id == "_kind":
            yield "%s: _kind (operators told apart by a string kind)" % line
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                node.value in OPERATOR_KINDS:
            yield "%s: %r (an operator's string kind)" % (line, node.value)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "pyflink_on_spark.runtime.operators"):
            yield "%s: imports %s (operators recognised by class)" % (line, node.module)
        elif isinstance(node, ast.Import) and any(
                a.name.startswith("pyflink_on_spark.runtime.operators") for a in node.names):
            yield "%s: imports runtime.operators (operators recognised by class)" % line


def test_checkpoint_code_reads_no_private_attribute_of_other_objects():
    found = [v for path in sources()
             for v in violations(path.read_text(), str(path.relative_to(CHECKPOINT)))]
    assert found == []


def test_the_walk_sees_the_checkpoint_modules():
    names = {p.name for p in sources()}
    assert {"micro_batch.py", "operators.py", "keyed.py", "store.py"} <= names


@pytest.mark.parametrize("code", [
    "operator._generator._max_timestamp",
    "backend._raw.items()",
    "collector._select.__closure__",
    "task._input_methods[edge] = method",
    "getattr(backend, '_checkpoint_sst', {})",
    "cell.cell_contents",
    "def _kind(op):\n    return 'other'",
    "if _kind(op) == 'file_sink': pass",
    "from pyflink_on_spark.runtime.operators.file_sink import FileSinkOperator",
])
def test_the_walk_finds_reads_into_other_objects(code):
    assert list(violations(code))


@pytest.mark.parametrize("code", [
    "self._marks[index] = mark",
    "cls._instance",
    "_file_name(name)",
    "op.snapshot_state(context)",
    "getattr(self, '_x', None)",
    "a.__class__",
])
def test_the_walk_allows_own_and_public_access(code):
    assert list(violations(code)) == []
