"""Find every use of the PyFlink API in Python source, statically (`ast`; never imports or
runs the analysed code).

Values the analyser tracks through names (flow-insensitively, per scope):
- `Mod`: a pyflink module (`import pyflink.datastream as ds`);
- `Api`: a named API object: a class, a function, a static method, an enum member;
- `Inst`: an instance of PyFlink classes (a call's result, typed by PyFlink's return
  annotations in the inventory: `env = StreamExecutionEnvironment.get_execution_environment()`
  makes `env.add_jars` StreamExecutionEnvironment.add_jars);
- `UserClass`: a class of the analysed code deriving from PyFlink classes: its methods that
  override PyFlink's are uses, their parameters are typed from PyFlink's signature (so
  `ctx.timer_service().register_event_time_timer` resolves), `self.x = ...` is remembered;
- `LocalModule`: a module of the analysed package (its own imports are followed).
"""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple, Union

from pyflink_on_spark.migrate.inventory import CLASS_KINDS, Inventory, load_inventory


@dataclass
class Use:
    """One place the analysed code uses a PyFlink name."""
    path: str
    line: int
    col: int
    api: str                  # canonical PyFlink name (pyflink.datastream.data_stream.DataStream.map)
    kind: str                 # import / reference / call / subclass / override / attribute
    args: Tuple[Optional[str], ...] = ()   # constant string/number arguments of a call

    @property
    def location(self) -> str:
        return "%s:%d:%d" % (self.path, self.line, self.col)


@dataclass(frozen=True)
class Mod:
    name: str


@dataclass(frozen=True)
class Api:
    name: str


@dataclass(frozen=True)
class Inst:
    classes: Tuple[str, ...]
    user_class: Optional["UserClass"] = None


@dataclass(eq=False)
class UserClass:
    name: str
    bases: Tuple[str, ...]               # PyFlink classes it derives from (canonical)
    attributes: Dict[str, "Value"] = field(default_factory=dict)   # self.x = ...
    methods: Dict[str, ast.AST] = field(default_factory=dict)


@dataclass(eq=False)
class LocalModule:
    path: str
    scope: "Scope"


@dataclass(eq=False)
class LocalFunction:
    node: ast.AST
    scope: "Scope"                        # the scope it is defined in
    owner: Optional[UserClass] = None
    analysed: bool = False
    returns: Optional["Value"] = None


Value = Union[Mod, Api, Inst, UserClass, LocalModule, LocalFunction, None]


class Scope:
    def __init__(self, parent: Optional["Scope"] = None):
        self.parent = parent
        self.names: Dict[str, Value] = {}

    def lookup(self, name: str) -> Value:
        scope: Optional[Scope] = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None


def _is_pyflink(module: str) -> bool:
    return module == "pyflink" or module.startswith("pyflink.")


# PyFlink 1.20 modules outside the inventory's datastream/common listing.
PYFLINK_OTHER_MODULES = frozenset([
    "pyflink", "pyflink.datastream", "pyflink.common", "pyflink.table", "pyflink.table.types",
    "pyflink.table.expressions", "pyflink.table.udf", "pyflink.table.window",
    "pyflink.table.table_environment", "pyflink.table.environment_settings",
    "pyflink.table.descriptors", "pyflink.table.catalog", "pyflink.table.functions",
    "pyflink.java_gateway", "pyflink.util", "pyflink.util.java_utils",
    "pyflink.util.exceptions", "pyflink.metrics", "pyflink.fn_execution", "pyflink.version",
    "pyflink.datastream.connectors", "pyflink.datastream.formats",
    "pyflink.datastream.stream_execution_environment", "pyflink.datastream.functions",
])

_RETURNS_SELF_PREFIXES = ("set_", "enable_", "disable_")


class ModuleAnalysis(ast.NodeVisitor):
    """Analyses one file; `project` resolves and analyses the local modules it imports."""

    def __init__(self, path: str, tree: ast.Module, project: "Project"):
        self.path = path
        self.tree = tree
        self.project = project
        self.inventory: Inventory = project.inventory
        self.scope = Scope()
        self.module_scope = self.scope
        self.uses: List[Use] = []
        self.local_imports: List[str] = []
        self._functions: List[LocalFunction] = []
        self._current_class: Optional[UserClass] = None

    # -- recording ------------------------------------------------------------------------
    def _record(self, node: ast.AST, api: str, kind: str, args: Sequence[ast.AST] = ()) -> Use:
        line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
        if isinstance(node, ast.Attribute) and node.end_lineno is not None and \
                node.end_col_offset is not None and node.end_col_offset >= len(node.attr):
            # the attribute's own name, not the start of the chain it ends
            line, col = node.end_lineno, node.end_col_offset - len(node.attr)
        use = Use(self.project.display_path(self.path), line, col + 1, api, kind,
                  tuple(_constant(a) for a in args))
        self.uses.append(use)
        return use

    # -- driver ---------------------------------------------------------------------------
    def run(self) -> None:
        self._body(self.tree.body)
        self._finish_functions()

    def _finish_functions(self) -> None:
        # function bodies run after their scope's names are all bound (flow-insensitive)
        while True:
            pending = [f for f in self._functions if not f.analysed]
            if not pending:
                return
            for function in pending:
                self._analyse_function(function)

    def _body(self, statements: Sequence[ast.stmt]) -> None:
        for stmt in statements:
            self.visit(stmt)

    # -- imports --------------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if _is_pyflink(alias.name):
                self._record(node, alias.name, "import")
                if alias.asname:
                    self.scope.names[alias.asname] = Mod(alias.name)
                else:
                    self.scope.names[alias.name.split(".")[0]] = Mod("pyflink")
                continue
            local = self.project.local_module(alias.name, self.path, 0)
            if local is not None:
                self.local_imports.append(local.path)
                if alias.asname:
                    self.scope.names[alias.asname] = local
                elif "." not in alias.name:
                    self.scope.names[alias.name] = local

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level == 0 and _is_pyflink(module):
            for alias in node.names:
                if alias.name == "*":
                    self._star_import(node, module)
                    continue
                full = module + "." + alias.name
                value = self._named(full)
                self._record(node, self._canonical(full), "import")
                self.scope.names[alias.asname or alias.name] = value
            return
        local = self.project.local_module(module, self.path, node.level)
        if local is not None:
            self.local_imports.append(local.path)
        for alias in node.names:
            bound = alias.asname or alias.name
            if local is not None:
                if alias.name == "*":
                    self.scope.names.update(local.scope.names)
                    continue
                if alias.name in local.scope.names:
                    self.scope.names[bound] = local.scope.names[alias.name]
                    continue
            # `from package import module`
            sub = self.project.local_module((module + "." if module else "") + alias.name,
                                            self.path, node.level)
            if sub is not None:
                self.local_imports.append(sub.path)
                self.scope.names[bound] = sub

    def _star_import(self, node: ast.AST, module: str) -> None:
        prefix = module + "."
        for name in self.inventory.entries:
            if name.startswith(prefix) and "." not in name[len(prefix):]:
                self.scope.names[name[len(prefix):]] = self._named(name)
        self._record(node, module, "import")

    def _canonical(self, name: str) -> str:
        return self.inventory.canonical(name)

    def _named(self, full: str) -> Value:
        if full in self.inventory.modules or full in PYFLINK_OTHER_MODULES:
            return Mod(full)
        return Api(self._canonical(full))

    # -- statements -----------------------------------------------------------------------
    def visit_Assign(self, node: ast.Assign) -> None:
        value = self.eval(node.value)
        for target in node.targets:
            self._bind(target, value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        annotated = self._annotation(node.annotation)
        value = self.eval(node.value) if node.value is not None else None
        self._bind(node.target, value if value is not None else annotated)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.eval(node.value)

    def _bind(self, target: ast.AST, value: Value) -> None:
        if isinstance(target, ast.Name):
            self.scope.names[target.id] = value
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
                target.value.id == "self" and self._current_class is not None:
            self._current_class.attributes[target.attr] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._bind(element, None)
        else:
            self.eval(target)

    def visit_For(self, node: ast.For) -> None:
        self.eval(node.iter)
        self._bind(node.target, None)
        self._body(node.body)
        self._body(node.orelse)

    visit_AsyncFor = visit_For

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            value = self.eval(item.context_expr)
            if item.optional_vars is not None:
                self._bind(item.optional_vars, value)
        self._body(node.body)

    visit_AsyncWith = visit_With

    def visit_Expr(self, node: ast.Expr) -> None:
        self.eval(node.value)

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            value = self.eval(node.value)
            function = self.scope.names.get("<function>")
            if isinstance(function, LocalFunction) and function.returns is None:
                function.returns = value

    def generic_visit(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.visit(child)
            elif isinstance(child, ast.expr):
                self.eval(child)
            else:
                self.generic_visit(child)

    # -- functions and classes ------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for decorator in node.decorator_list:
            self.eval(decorator)
        function = LocalFunction(node, self.scope, self._current_class)
        self._functions.append(function)
        if self._current_class is not None:
            self._current_class.methods[node.name] = node
        else:
            self.scope.names[node.name] = function

    visit_AsyncFunctionDef = visit_FunctionDef

    def _analyse_function(self, function: LocalFunction) -> None:
        if function.analysed:
            return
        function.analysed = True
        node = function.node
        outer_scope, outer_class = self.scope, self._current_class
        self.scope = Scope(function.scope)
        self.scope.names["<function>"] = function
        self._current_class = function.owner
        try:
            params = node.args.posonlyargs + node.args.args
            types: List[Tuple[str, ...]] = []
            if function.owner is not None:
                for base in function.owner.bases:
                    member = self.inventory.member(base, node.name)
                    if member is not None:
                        types = self.inventory.param_types(member)
                        break
            for i, arg in enumerate(params + node.args.kwonlyargs):
                value: Value = None
                if arg.annotation is not None:
                    value = self._annotation(arg.annotation)
                if value is None and i < len(types) and i < len(params) and types[i]:
                    value = Inst(types[i])
                if i == 0 and function.owner is not None and arg.arg == "self":
                    value = Inst(function.owner.bases, function.owner)
                self.scope.names[arg.arg] = value
            for default in node.args.defaults + [d for d in node.args.kw_defaults if d]:
                self.eval(default)
            self._body(node.body)
            nested = [f for f in self._functions if not f.analysed and f.scope is self.scope]
            for inner in nested:
                self._analyse_function(inner)
        finally:
            self.scope, self._current_class = outer_scope, outer_class

    def _annotation(self, node: ast.AST) -> Value:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                parsed = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return None
            for inner in ast.walk(parsed):          # report the string's own position
                if hasattr(inner, "lineno"):
                    inner.lineno, inner.col_offset = node.lineno, node.col_offset
                    inner.end_lineno, inner.end_col_offset = None, None
            node = parsed
        value = self.eval(node)
        if isinstance(value, Api) and self.inventory.is_class(value.name):
            return Inst((value.name,))
        if isinstance(value, UserClass):
            return Inst(value.bases, value)
        return None

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        pyflink_bases: List[str] = []
        for base in node.bases:
            value = self.eval(base, kind="subclass")
            if isinstance(value, Api) and self.inventory.is_class(value.name):
                pyflink_bases.append(value.name)
            elif isinstance(value, UserClass):
                pyflink_bases += [b for b in value.bases if b not in pyflink_bases]
        for keyword in node.keywords:
            self.eval(keyword.value)
        for decorator in node.decorator_list:
            self.eval(decorator)
        user_class = UserClass(node.name, tuple(pyflink_bases))
        outer = self._current_class
        self._current_class = user_class
        try:
            for stmt in node.body:
                self.visit(stmt)
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and pyflink_bases:
                    for base in pyflink_bases:
                        member = self.inventory.member(base, stmt.name)
                        if member is not None and not stmt.name.startswith("__"):
                            self._record(stmt, member, "override")
                            break
        finally:
            self._current_class = outer
        self.scope.names[node.name] = user_class if pyflink_bases else None

    # -- expressions ----------------------------------------------------------------------
    def eval(self, node: Optional[ast.AST], kind: str = "reference") -> Value:
        if node is None:
            return None
        if isinstance(node, ast.Name):
            value = self.scope.lookup(node.id)
            if isinstance(value, Api) and kind == "subclass":
                self._record(node, value.name, "subclass")
            return value
        if isinstance(node, ast.Attribute):
            return self._attribute(node, kind)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Lambda):
            self.eval(node.body)
            return None
        if isinstance(node, ast.NamedExpr):
            value = self.eval(node.value)
            self._bind(node.target, value)
            return value
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.eval(child)
            elif isinstance(child, ast.comprehension):
                self.eval(child.iter)
                for condition in child.ifs:
                    self.eval(condition)
        return None

    def _attribute(self, node: ast.Attribute, kind: str) -> Value:
        base = self.eval(node.value)
        attr = node.attr
        if isinstance(base, Mod):
            full = base.name + "." + attr
            value = self._named(full)
            if isinstance(value, Api):
                self._record(node, value.name, kind if kind == "subclass" else "reference")
            return value
        if isinstance(base, LocalModule):
            return base.scope.names.get(attr)
        if isinstance(base, Api):
            entry = self.inventory.get(base.name)
            if entry is not None and entry.kind in CLASS_KINDS:
                member = self.inventory.member(base.name, attr)
                if member is not None:
                    self._record(node, member, kind if kind == "subclass" else "reference")
                    return Api(member)
            return None
        if isinstance(base, Inst):
            if base.user_class is not None and attr in base.user_class.attributes:
                return base.user_class.attributes[attr]
            if base.user_class is not None and attr in base.user_class.methods:
                return None
            for cls in base.classes:
                member = self.inventory.member(cls, attr)
                if member is not None:
                    self._record(node, member, "attribute")
                    return Api(member)
            if attr.startswith("_j_") or attr.startswith("_j") and attr[2:3].isupper():
                self._record(node, base.classes[0] + "." + attr, "attribute")
            return None
        if isinstance(base, UserClass):
            return None
        return None

    def _call(self, node: ast.Call) -> Value:
        start = len(self.uses)
        func = self.eval(node.func)
        func_use = self.uses[-1] if len(self.uses) > start else None
        if isinstance(func, Api) and isinstance(node.func, ast.Name):
            func_use = self._record(node.func, func.name, "call")
        for arg in node.args:
            self.eval(arg.value if isinstance(arg, ast.Starred) else arg)
        for keyword in node.keywords:
            self.eval(keyword.value)
        if isinstance(func, Api):
            entry = self.inventory.get(func.name)
            # the reference recorded by eval(func) becomes a call with its arguments
            if func_use is not None and func_use.api == func.name:
                func_use.kind = "call"
                func_use.args = tuple(_constant(a) for a in node.args)
            if entry is not None and entry.kind in CLASS_KINDS:
                return Inst((entry.name,))
            returned = self.inventory.returns(func.name)
            if returned:
                return Inst(returned)
            if entry is not None and entry.kind == "method":
                short = func.name.rsplit(".", 1)[1]
                owner = func.name.rsplit(".", 1)[0]
                if short.startswith(_RETURNS_SELF_PREFIXES) and self.inventory.is_class(owner):
                    return Inst((owner,))
            return None
        if isinstance(func, UserClass):
            return Inst(func.bases, func)
        if isinstance(func, LocalFunction):
            if not func.analysed:
                self._analyse_function(func)
            return func.returns
        return None


def _constant(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, bool)):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{...}" for v in node.values)
    return None


class Project:
    """The files under analysis and the local modules they import (analysed once each)."""

    def __init__(self, roots: Sequence[str], inventory: Optional[Inventory] = None):
        self.inventory = inventory or load_inventory()
        self.roots = [os.path.abspath(r) for r in roots]
        self.analyses: Dict[str, ModuleAnalysis] = {}
        self.errors: Dict[str, str] = {}
        self._in_progress: set = set()
        self._base = os.path.commonpath(
            [r if os.path.isdir(r) else os.path.dirname(r) for r in self.roots]) \
            if self.roots else os.getcwd()

    def display_path(self, path: str) -> str:
        rel = os.path.relpath(path, self._base)
        return rel if not rel.startswith("..") else path

    def analyse(self, path: str) -> Optional[ModuleAnalysis]:
        path = os.path.abspath(path)
        if path in self.analyses:
            return self.analyses[path]
        if path in self._in_progress:
            return None                               # an import cycle: already under way
        self._in_progress.add(path)
        try:
            with open(path, "rb") as f:
                source = f.read()
            tree = ast.parse(source, path)
        except (OSError, SyntaxError, ValueError) as e:
            self.errors[path] = "%s: %s" % (type(e).__name__, e)
            return None
        analysis = ModuleAnalysis(path, tree, self)
        analysis.run()
        self._in_progress.discard(path)
        self.analyses[path] = analysis
        return analysis

    def local_module(self, dotted: str, importer: str, level: int) -> Optional[LocalModule]:
        """The analysed package's own module `dotted` (relative to the importer's directory
        and its package parents, or to a root), or None for third-party/stdlib modules."""
        if not dotted and level == 0:
            return None
        here = os.path.dirname(os.path.abspath(importer))
        bases: List[str] = []
        if level > 0:
            base = here
            for _ in range(level - 1):
                base = os.path.dirname(base)
            bases = [base]
        else:
            bases = [here]
            parent = here
            while os.path.isfile(os.path.join(parent, "__init__.py")):
                parent = os.path.dirname(parent)
                bases.append(parent)
            bases += [r if os.path.isdir(r) else os.path.dirname(r) for r in self.roots]
        parts = dotted.split(".") if dotted else []
        for base in bases:
            candidate = os.path.join(base, *parts)
            for path in (candidate + ".py", os.path.join(candidate, "__init__.py")):
                if parts and os.path.isfile(path) or (not parts and path.endswith("__init__.py")
                                                      and os.path.isfile(path)):
                    if os.path.abspath(path) == os.path.abspath(importer):
                        continue
                    analysis = self.analyse(path)
                    if analysis is None:
                        return None
                    return LocalModule(analysis.path, analysis.module_scope)
        return None


def python_files(paths: Sequence[str]) -> List[str]:
    """The .py files named or found under the given paths (sorted, hidden and virtualenv
    directories skipped)."""
    found: List[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in
                                 ("__pycache__", "venv", ".venv", "node_modules", "site-packages"))
                found += [os.path.join(root, f) for f in sorted(files) if f.endswith(".py")]
        else:
            found.append(path)
    return found
