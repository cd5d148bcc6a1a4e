"""The import layers of pyflink_on_spark (docs/ARCHITECTURE.md), enforced.

Every module's imports are read with ast, at module level and inside functions ("lazy": run
only when called), and each edge between top-level packages is checked against LAYERS. The
only ways across the layers are the named interfaces: the API reaches the engine through one
lazy import of the executor entry point (pyflink_on_spark.spark.entry), the tools import the
API and that entry point, the Spark executor implements the exchange contract stated in
direct/exchange.py, and the engine reads the API's abstract interfaces (user function,
state, window, timer and metric classes). Tests (``tests/`` folders) may import anything.

A new top-level package must be added to LAYERS (with what it may import) to pass.
"""
from __future__ import annotations

import ast
import pathlib
from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, Iterator, List, Optional

PACKAGE = "pyflink_on_spark"
ROOT = pathlib.Path(__file__).resolve().parents[1]

API = frozenset({"common", "datastream", "table", "metrics", "util"})
TOOLS = frozenset({"cli", "compat", "migrate"})
ENGINE_READS_FROM_API = ("datastream.functions", "datastream.state", "datastream.window",
                         "datastream.output_tag", "datastream.timerservice",
                         "datastream.time_domain", "datastream.state_backend",
                         "metrics.metricbase")

# top-level package (or module) -> the top-level packages it may import, at any level
LAYERS: Dict[str, FrozenSet[str]] = {
    "specs": frozenset(),                          # leaf: standard library only
    "aliasing": frozenset(),                       # leaf: the `pyflink` import alias
    "code_pickling": frozenset(),                  # leaf: cloudpickle keeps file names
    "private_files": frozenset(),                  # leaf: 0700 / 0600 files of the shim's own
    "<root>": frozenset({"code_pickling"}),        # the package's __init__ installs it
    "codecs": frozenset({"common", "table"}),      # pure codecs: value and type classes only
    "graph": frozenset({"specs", "common"}),
    "runtime": frozenset({"specs", "codecs", "common", "table", "private_files"}),
    "direct": frozenset({"runtime", "specs", "graph", "codecs", "common"}),
    "spark": frozenset({"specs", "runtime", "codecs", "common", "graph", "aliasing",
                        "private_files"}),
    **{api: API | {"specs", "graph", "codecs", "aliasing"} for api in API},
    **{tool: API | TOOLS | {"specs", "aliasing", "private_files"} for tool in TOOLS},
    # the pytest plugin for users' jobs: the engine's operator harness, the direct runner
    "testing": API | {"specs", "aliasing", "runtime", "direct"},
}
# the named interfaces: importer packages -> modules they may import beyond LAYERS
INTERFACES: Dict[str, tuple] = {
    **{api: ("spark.entry",) for api in API},                 # lazily only, see LAZY_ONLY
    **{tool: ("spark.entry",) for tool in TOOLS | {"testing"}},
    "runtime": ENGINE_READS_FROM_API,
    "direct": ENGINE_READS_FROM_API,
    "spark": ("direct.exchange",),            # the exchange contract both runners implement
}
LAZY_ONLY = {api: ("spark.entry",) for api in API}   # building a job never loads Spark


@dataclass(frozen=True)
class Edge:
    importer: str      # module name, e.g. pyflink_on_spark.datastream.data_stream
    imported: str      # module name
    lazy: bool         # inside a function (or under `if TYPE_CHECKING:`)
    line: int

    def __str__(self) -> str:
        return "%s:%d imports %s%s" % (self.importer, self.line, self.imported,
                                       " (lazily)" if self.lazy else "")


def _module_exists(name: str) -> bool:
    parts = name.split(".")[1:]
    path = ROOT.joinpath(*parts)
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _resolve_from(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def edges_of_source(source: str, importer: str, is_package: bool = False) -> Iterator[Edge]:
    """The imports of pyflink_on_spark modules in `source` (the text of module `importer`).
    `from pkg import name` counts as an import of pkg.name when that is a module."""
    tree = ast.parse(source)

    def visit(node: ast.AST, lazy: bool) -> Iterator[Edge]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name.split(".")[0] == PACKAGE:
                        yield Edge(importer, alias.name, lazy, child.lineno)
            elif isinstance(child, ast.ImportFrom):
                module = _resolve_from(importer, is_package, child)
                if module.split(".")[0] == PACKAGE:
                    for alias in child.names:
                        sub = module + "." + alias.name
                        target = sub if _module_exists(sub) else module
                        yield Edge(importer, target, lazy, child.lineno)
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                               ast.Lambda)) or _is_type_checking(child)
            yield from visit(child, inner)

    yield from visit(tree, False)


def _is_type_checking(node: ast.AST) -> bool:
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "<root>"


def _within(module: str, names: Iterable[str]) -> bool:
    inner = module.split(".", 1)[1] if "." in module else ""
    return any(inner == n or inner.startswith(n + ".") for n in names)


def violation(edge: Edge) -> Optional[str]:
    """Why the edge is forbidden, or None."""
    source, target = _top(edge.importer), _top(edge.imported)
    if source == target or target == "<root>":
        return None
    if source not in LAYERS:
        return ("%s: the package %r is not in the layer table: add it to LAYERS in "
                "pyflink_on_spark/tests/test_layers.py (and docs/ARCHITECTURE.md)"
                % (edge, source))
    if _within(edge.imported, INTERFACES.get(source, ())):
        if _within(edge.imported, LAZY_ONLY.get(source, ())) and not edge.lazy:
            return "%s: %s may import it only inside a function" % (edge, source)
        return None
    if target in LAYERS[source]:
        return None
    return "%s: %s may not import %s" % (edge, source, target)


def product_modules() -> Iterator[pathlib.Path]:
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if "tests" in relative.parts or relative.parts[0] == ".venv":
            continue
        yield path


def _module_name(path: pathlib.Path) -> str:
    parts = (PACKAGE,) + path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def all_edges() -> List[Edge]:
    edges = []
    for path in product_modules():
        edges.extend(edges_of_source(path.read_text(), _module_name(path),
                                     path.name == "__init__.py"))
    return edges


# ---- the architecture holds ----

def test_no_module_imports_across_a_layer_except_through_the_named_interfaces():
    edges = all_edges()
    assert len(edges) > 100            # the walk found the code base
    problems = [v for v in map(violation, edges) if v is not None]
    assert problems == [], "\n".join(problems)


def test_the_api_reaches_the_executor_only_through_its_entry_point():
    into_spark = {(e.importer, e.imported) for e in all_edges()
                  if _top(e.importer) in API and _top(e.imported) == "spark"}
    assert {imported for _, imported in into_spark} == {PACKAGE + ".spark.entry"}


# ---- the rule catches what it must (synthetic modules) ----

def _problems(source: str, importer: str) -> List[str]:
    return [v for v in map(violation, edges_of_source(source, importer)) if v is not None]


def test_a_forbidden_import_is_reported_with_module_and_line():
    source = "import os\n\nfrom pyflink_on_spark.runtime.task import StreamTask\n"
    (problem,) = _problems(source, "pyflink_on_spark.datastream.fake")
    assert "pyflink_on_spark.datastream.fake:3 imports pyflink_on_spark.runtime.task" in problem
    assert "datastream may not import runtime" in problem


def test_lazy_imports_count_too():
    source = ("def execute():\n"
              "    from pyflink_on_spark.spark.executor import execute_job\n")
    (problem,) = _problems(source, "pyflink_on_spark.datastream.fake")
    assert "(lazily)" in problem and "may not import spark" in problem


def test_the_entry_point_is_allowed_only_lazily_from_the_api():
    lazy = "def run():\n    from pyflink_on_spark.spark import entry\n"
    assert _problems(lazy, "pyflink_on_spark.datastream.fake") == []
    eager = "from pyflink_on_spark.spark import entry\n"
    (problem,) = _problems(eager, "pyflink_on_spark.datastream.fake")
    assert "only inside a function" in problem
    assert _problems(eager, "pyflink_on_spark.cli.fake") == []


def test_leaves_import_nothing_of_the_package():
    assert _problems("from pyflink_on_spark.common.typeinfo import Types\n",
                     "pyflink_on_spark.specs.fake") != []
    assert _problems("from pyflink_on_spark.runtime.operators.base import Operator\n",
                     "pyflink_on_spark.codecs.fake") != []
    assert _problems("from pyflink_on_spark.spark.session import get_session\n",
                     "pyflink_on_spark.graph.fake") != []


def test_the_engine_reads_only_the_apis_interfaces():
    assert _problems("from pyflink_on_spark.datastream.functions import MapFunction\n",
                     "pyflink_on_spark.runtime.fake") == []
    assert _problems("from pyflink_on_spark.datastream.data_stream import DataStream\n",
                     "pyflink_on_spark.runtime.fake") != []


def test_relative_imports_and_unknown_packages():
    (problem,) = _problems("from ..runtime import task\n", "pyflink_on_spark.graph.fake")
    assert "pyflink_on_spark.runtime.task" in problem
    (problem,) = _problems("from pyflink_on_spark.runtime import task\n",
                           "pyflink_on_spark.newthing.fake")
    assert "not in the layer table" in problem
