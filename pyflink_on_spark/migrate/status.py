"""The status of each PyFlink name, read from the shim's own code so that it cannot drift.

For a PyFlink name `pyflink.X.Y` the shim's counterpart is `pyflink_on_spark.X.Y` (what the
runner's import aliasing resolves it to). Its status:
- **table-api**: pyflink.table names the shim does not provide (the Table API runs tables
  of DataStreams, pandas frames and SQL queries over them: docs/table.md);
- **jvm-only**: py4j internals (get_gateway, `get_java_*`, `_j_*`, pyflink.util.java_utils,
  Java object wrappers) that the shim lacks or refuses, and shim implementations that refuse
  because there is no JVM (where the shim emulates one, e.g. the environment's configuration
  through `env._j_stream_execution_environment`, the use is rated as the shim behaves);
- **unsupported**: the shim has no such name, or its implementation unconditionally raises
  NotImplementedError (found by reading the implementation's syntax tree; the error text,
  which names the nearest alternative, becomes the hint);
- **no-effect**: accepted but without effect on Spark (NO_EFFECT below; a test checks that the
  engine never reads what these setters store);
- **difference**: runs, with a difference documented in docs/compatibility.md (DIFFERENCES
  below; a test checks that every link's section and entry exist);
- **supported** otherwise.
"""
from __future__ import annotations

import ast
import enum
import importlib
import inspect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, List, Optional, Tuple

from pyflink_on_spark.migrate.inventory import load_inventory

SHIM = "pyflink_on_spark"
COMPATIBILITY_DOC = "docs/compatibility.md"


class Status(str, enum.Enum):
    SUPPORTED = "supported"
    DIFFERENCE = "difference"
    NO_EFFECT = "no-effect"
    UNSUPPORTED = "unsupported"
    JVM_ONLY = "jvm-only"
    TABLE_API = "table-api"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def blocking(self) -> bool:
        return self in (Status.UNSUPPORTED, Status.JVM_ONLY, Status.TABLE_API)


_LABELS = {
    Status.SUPPORTED: "supported",
    Status.DIFFERENCE: "supported with a documented difference",
    Status.NO_EFFECT: "accepted, without effect on Spark",
    Status.UNSUPPORTED: "unsupported",
    Status.JVM_ONLY: "JVM-only",
    Status.TABLE_API: "Table API (not supported yet)",
}

# Blocking statuses first: the order reports list them in.
STATUS_ORDER = (Status.UNSUPPORTED, Status.JVM_ONLY, Status.TABLE_API, Status.DIFFERENCE,
                Status.NO_EFFECT, Status.SUPPORTED)


@dataclass(frozen=True)
class ApiStatus:
    status: Status
    detail: str = ""              # why, and the nearest alternative
    link: Optional[str] = None    # docs/compatibility.md#section for differences


_DS = "pyflink.datastream."
_ENV = _DS + "stream_execution_environment.StreamExecutionEnvironment."
_STREAM = _DS + "data_stream."
_EXEC_CONFIG = "pyflink.common.execution_config.ExecutionConfig."

_SLOTS = ("slot sharing groups place tasks in Flink task slots; Spark schedules its own tasks "
          "(a group only ends an operator chain, as in Flink)")
_BUFFER = "network buffer timeouts are Flink's; Spark exchanges whole partitions"
_KRYO = "Kryo registrations configure Flink's Java serializer; the shim pickles Python values"
_RESTART = ("Flink restart strategies do not apply; Spark retries failed tasks "
            "(spark.task.maxFailures)")
_DEPS = "a dependency decision for the person migrating: see the report's decisions"

# name (or a class / module prefix of names) -> why it has no effect on Spark
NO_EFFECT: Dict[str, str] = {
    _STREAM + "DataStream.slot_sharing_group": _SLOTS,
    _STREAM + "KeyedStream.slot_sharing_group": _SLOTS,
    _STREAM + "DataStreamSink.slot_sharing_group": _SLOTS,
    _DS + "connectors.cassandra.CassandraSink.slot_sharing_group": _SLOTS,
    _DS + "slot_sharing_group.SlotSharingGroup": _SLOTS,
    _DS + "slot_sharing_group.MemorySize": _SLOTS,
    _ENV + "register_slot_sharing_group": _SLOTS,
    _STREAM + "DataStream.set_buffer_timeout": _BUFFER,
    _STREAM + "KeyedStream.set_buffer_timeout": _BUFFER,
    _ENV + "set_buffer_timeout": _BUFFER,
    _ENV + "add_default_kryo_serializer": _KRYO,
    _ENV + "register_type_with_kryo_serializer": _KRYO,
    _ENV + "register_type": _KRYO,
    _EXEC_CONFIG + "add_default_kryo_serializer": _KRYO,
    _EXEC_CONFIG + "register_type_with_kryo_serializer": _KRYO,
    _EXEC_CONFIG + "register_kryo_type": _KRYO,
    _EXEC_CONFIG + "enable_force_kryo": _KRYO,
    _EXEC_CONFIG + "disable_force_kryo": _KRYO,
    _DS + "connectors.elasticsearch.ElasticsearchSinkBuilderBase."
          "set_connection_request_timeout":
        "the wait for a connection from the Java client's pool; the shim's Elasticsearch sink "
        "keeps one connection per host in each subtask",
    **{_DS + "connectors.rabbitmq.RMQConnectionConfig.Builder." + name:
       "pika does not reconnect by itself: a RabbitMQ connection that breaks fails the job, "
       "which resumes from its checkpoint when run again (docs/connectors.md, RabbitMQ)"
       for name in ("set_automatic_recovery", "set_topology_recovery_enabled",
                    "set_network_recovery_interval")},
    _ENV + "set_restart_strategy": _RESTART,
    _EXEC_CONFIG + "set_restart_strategy": _RESTART,
    "pyflink.common.restart_strategy.RestartStrategies": _RESTART,
    _ENV + "enable_changelog_state_backend":
        "the changelog state backend is Flink's; the shim's state lives in the Spark task",
    _ENV + "add_jars": "Flink jars are not loaded on Spark; " + _DEPS,
    _ENV + "add_classpaths": "Flink jars are not loaded on Spark; " + _DEPS,
}

_DIFFERS = "where-the-shim-differs-from-pyflink-on-purpose"
_NOT_YET = "not-supported-yet-clear-notimplementederror-naming-the-api"

# name -> (section anchor in docs/compatibility.md, the bold title of the entry there)
DIFFERENCES: Dict[str, Tuple[str, str]] = {
    # Python aggregate functions: pandas ones run; general ones in a STREAMING GROUP BY, not
    # in BATCH (as on PyFlink) nor in windows (not built)
    "pyflink.table.udf.udaf": (_NOT_YET, "Table API: general aggregate functions (udaf)."),
    _DS + "state.StateTtlConfig": (_DIFFERS, "TTL"),
    _DS + "state.StateDescriptor.enable_time_to_live": (_DIFFERS, "TTL"),
    _DS + "state.StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp":
        (_DIFFERS, "`ReturnExpiredIfNotCleanedUp`"),
    _DS + "state.MapState.put_all": (_DIFFERS, "`MapState.put_all`"),
    _DS + "state.BroadcastState.put_all": (_DIFFERS, "`BroadcastState.put_all(dict)`"),
    _DS + "window.EventTimeSessionWindows":
        (_DIFFERS, "Session windows, reduce / aggregate, one element bridging two sessions"),
    _DS + "window.ProcessingTimeSessionWindows":
        (_DIFFERS, "Session windows, reduce / aggregate, one element bridging two sessions"),
    _DS + "window.DynamicEventTimeSessionWindows":
        (_DIFFERS, "Session windows, reduce / aggregate, one element bridging two sessions"),
    _DS + "window.DynamicProcessingTimeSessionWindows":
        (_DIFFERS, "Session windows, reduce / aggregate, one element bridging two sessions"),
    _DS + "window.ContinuousEventTimeTrigger":
        (_DIFFERS, "`ContinuousEventTimeTrigger` / `ContinuousProcessingTimeTrigger`"),
    _DS + "window.ContinuousProcessingTimeTrigger":
        (_DIFFERS, "`ContinuousEventTimeTrigger` / `ContinuousProcessingTimeTrigger`"),
    _DS + "execution_mode.RuntimeExecutionMode.BATCH":
        (_DIFFERS, "BATCH keyed process output order"),
    _DS + "connectors.file_system.StreamingFileSink": (_DIFFERS, "StreamingFileSink"),
    _DS + "connectors.file_system.RollingPolicy.default_rolling_policy":
        (_DIFFERS, "FileSink time-based rolling"),
}

# A use that is unsupported unless the same module also uses a companion: (trigger, companion,
# the shim's helper that raises, the argument the shim passes it). A test checks that the
# shim really calls the helper with that argument, so the message is the shim's own.
CONDITIONAL: Tuple[Tuple[str, str, str, str], ...] = ()


def conditional_status(helper: str, argument: str) -> ApiStatus:
    func = shim_object(helper)
    text = _raises_unconditionally_with(func, (argument,), 1) if inspect.isfunction(func) \
        else None
    return ApiStatus(Status.UNSUPPORTED, text or argument)


# Modules that exist only to talk to the JVM through py4j.
JVM_MODULES = ("pyflink.java_gateway", "pyflink.util.java_utils", "pyflink.pyflink_gateway_server",
               "pyflink.util.exceptions")
_JVM_NAME = re.compile(r"^(get_java_\w*|_j_\w*|j_\w*|_from_j\w*|_to_j\w*|get_gateway|"
                       r"Java\w*Wrapper|create_java_properties|create_hadoop_configuration)$")
_JVM_TEXT = re.compile(r"JVM|py4j|Java object|Java class|JavaObject", re.I)
_TABLE = "pyflink.table"


def _with_prefixes(name: str, table: Dict[str, Any]) -> Optional[Any]:
    parts = name.split(".")
    for i in range(len(parts), 1, -1):
        hit = table.get(".".join(parts[:i]))
        if hit is not None:
            return hit
    return None


def is_jvm_name(name: str) -> bool:
    if any(name == m or name.startswith(m + ".") for m in JVM_MODULES):
        return True
    return any(_JVM_NAME.match(part) for part in name.split(".")[1:])


# -- the shim's objects and their syntax trees ------------------------------------------------
_MISSING = object()


def shim_object(name: str) -> Any:
    """The shim's counterpart of a pyflink name, or _MISSING."""
    parts = (SHIM + name[len("pyflink"):]).split(".")
    for i in range(len(parts), 0, -1):
        module_name = ".".join(parts[:i])
        try:
            obj = importlib.import_module(module_name)
        except ImportError:
            continue
        except Exception:          # a module that fails to import: its names do not work
            return _MISSING
        for attr in parts[i:]:
            try:
                obj = inspect.getattr_static(obj, attr)
            except AttributeError:
                obj = _lazy_export(obj, attr)
                if obj is _MISSING:
                    return _MISSING
            if isinstance(obj, (staticmethod, classmethod)):
                obj = obj.__func__
        return obj
    return _MISSING


def _lazy_export(module: Any, attr: str) -> Any:
    """A name a package exports lazily (its module __getattr__ imports it when first named,
    as pyflink_on_spark.table does), or _MISSING."""
    if not inspect.ismodule(module) or attr not in getattr(module, "__all__", ()):
        return _MISSING
    try:
        return getattr(module, attr)
    except (AttributeError, ImportError):
        return _MISSING


@lru_cache(maxsize=None)
def _module_tree(filename: str) -> Optional[ast.Module]:
    try:
        with open(filename, encoding="utf-8") as f:
            return ast.parse(f.read(), filename)
    except (OSError, SyntaxError):
        return None


def _function_node(func: Any) -> Optional[ast.AST]:
    code = getattr(inspect.unwrap(func), "__code__", None)
    if code is None:
        return None
    tree = _module_tree(code.co_filename)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            if first == code.co_firstlineno and node.name == code.co_name:
                return node
    return None


def _text_of(node: ast.AST, args: Tuple[Any, ...] = ()) -> str:
    """The message a NotImplementedError(...) argument builds, as far as constants show."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "..." for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        template = _text_of(node.left)
        try:
            return template % args if args else re.sub(r"%[sr]", "...", template)
        except (TypeError, ValueError):
            return re.sub(r"%[sr]", "...", template)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text_of(node.left) + _text_of(node.right)
    return ""


def _argument_value(node: ast.AST, func: Any, owner: Optional[type]) -> Any:
    """A helper call's argument when it is known without running anything: a constant, a
    module-level string, or a class attribute of the class the method is looked up on."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        value = getattr(inspect.unwrap(func), "__globals__", {}).get(node.id)
        return value if isinstance(value, str) else None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id in ("self", "cls") and owner is not None:
        value = getattr(owner, node.attr, None)
        return value if isinstance(value, str) else None
    if isinstance(node, ast.Attribute) and node.attr == "__name__" and owner is not None:
        return owner.__name__        # type(self).__name__ / self.__class__.__name__
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and \
            isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
        parts = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        values = [_argument_value(p, func, owner) for p in parts]
        if all(isinstance(v, str) for v in values):
            try:
                return node.left.value % tuple(values)
            except (TypeError, ValueError):
                return None
    return None


def _raises_unconditionally(func: Any, depth: int = 0, owner: Optional[type] = None
                            ) -> Optional[str]:
    """The error text if `func`'s body always raises NotImplementedError with a message (a
    bare `raise NotImplementedError` is an abstract placeholder that subclasses override)."""
    node = _function_node(func)
    if node is None:
        return None
    body = list(node.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    for stmt in body:
        if isinstance(stmt, ast.Return) or (
                not isinstance(stmt, (ast.Expr, ast.Raise)) and
                any(isinstance(n, ast.Return) for n in ast.walk(stmt))):
            return None          # a path returns before the raise: it is conditional
        if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call) and \
                isinstance(stmt.exc.func, ast.Name) and stmt.exc.func.id == "NotImplementedError":
            if not stmt.exc.args:
                return None
            text = _text_of(stmt.exc.args[0])
            return text if " " in text else None     # "name" alone: a placeholder
        call = stmt.value if isinstance(stmt, (ast.Expr, ast.Return)) else None
        if depth < 2 and isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
            helper = getattr(inspect.unwrap(func), "__globals__", {}).get(call.func.id)
            if inspect.isfunction(helper):
                args = tuple(_argument_value(a, func, owner) for a in call.args)
                if any(a is None for a in args):
                    args = ()
                text = _raises_unconditionally_with(helper, args, depth + 1)
                if text:
                    return text
    return None


def _raises_unconditionally_with(helper: Any, args: Tuple[Any, ...], depth: int) -> Optional[str]:
    node = _function_node(helper)
    if node is None:
        return None
    text = _raises_unconditionally(helper, depth)
    if not text:
        return None
    params = [a.arg for a in node.args.args]
    defaults = node.args.defaults
    env: Dict[str, Any] = {}
    for i, param in enumerate(params):
        if i < len(args):
            env[param] = args[i]
        else:
            default = defaults[i - (len(params) - len(defaults))] \
                if i >= len(params) - len(defaults) else None
            if isinstance(default, ast.Constant):
                env[param] = default.value
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call) and stmt.exc.args:
            formatted = _format_with(stmt.exc.args[0], env)
            return formatted or text
    return text


def _format_with(node: ast.AST, env: Dict[str, Any]) -> str:
    """A `"..." % (a, b)` message with the helper's parameters filled in where they are plain
    names of known string values (a local computed in the helper stays "...")."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        template = _text_of(node.left)
        parts = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        values = tuple(env.get(p.id, "...") if isinstance(p, ast.Name) and
                       isinstance(env.get(p.id), str) else "..." for p in parts)
        try:
            return template % values
        except (TypeError, ValueError):
            return re.sub(r"%[sr]", "...", template)
    return _text_of(node)


def _unsupported_text(name: str, obj: Any) -> Optional[str]:
    if inspect.isclass(obj):
        return _class_unsupported_text(name, obj)
    if inspect.isfunction(obj):
        owner = shim_object(name.rsplit(".", 1)[0])
        return _raises_unconditionally(obj, owner=owner if inspect.isclass(owner) else None)
    return None


def _class_unsupported_text(name: str, cls: type) -> Optional[str]:
    """A class is unsupported when a private hook the engine calls on it (a source's
    `_source_definition`, ...) always raises, or when it is only ever constructed directly
    and its constructor always raises. A class whose constructor raises but that has other
    public members (KeyedStream: made by key_by) stays usable."""
    for klass in cls.__mro__[:-1]:
        for attr, value in vars(klass).items():
            if not attr.startswith("_") or attr.startswith("__") or _JVM_NAME.match(attr):
                continue
            func = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            if inspect.isfunction(func):
                text = _raises_unconditionally(func, owner=cls)
                if text:
                    return text
    init = cls.__dict__.get("__init__")
    if init is None:
        return None
    prefix = name + "."
    members = [n for n in load_inventory().entries
               if n.startswith(prefix) and "." not in n[len(prefix):]
               and not n[len(prefix):].startswith("__")]
    return None if members else _raises_unconditionally(init)


# -- statuses ---------------------------------------------------------------------------------
def _link(anchor: str) -> str:
    return "%s#%s" % (COMPATIBILITY_DOC, anchor)


@lru_cache(maxsize=None)
def status_of(name: str) -> ApiStatus:
    """The status of a PyFlink name (`pyflink.datastream.DataStream.map`, exports allowed)."""
    inventory = load_inventory()
    name = inventory.canonical(name)
    obj = shim_object(name)
    if name == _TABLE or name.startswith(_TABLE + "."):
        if obj is _MISSING:
            return ApiStatus(Status.TABLE_API, "this part of the Table API does not run on "
                                               "pyflink_on_spark yet (docs/table.md lists "
                                               "what runs)")
    jvm = is_jvm_name(name)
    if obj is _MISSING:
        if jvm:
            return ApiStatus(Status.JVM_ONLY, "py4j access to Flink's JVM: there is no Flink "
                                              "JVM on Spark; express the logic in Python")
        return ApiStatus(Status.UNSUPPORTED, "pyflink_on_spark has no %s" % _short(name))
    text = _unsupported_text(name, obj)
    if text:
        if text.startswith("..."):          # the helper was given the class name at run time
            text = _short(name).split(".")[0] + text[3:]
        if jvm or _JVM_TEXT.search(text):
            return ApiStatus(Status.JVM_ONLY, text)
        return ApiStatus(Status.UNSUPPORTED, text)
    why = _with_prefixes(name, NO_EFFECT)
    if why:
        return ApiStatus(Status.NO_EFFECT, why)
    difference = _with_prefixes(name, DIFFERENCES)
    if difference:
        anchor, title = difference
        return ApiStatus(Status.DIFFERENCE, title.strip("`"), _link(anchor))
    return ApiStatus(Status.SUPPORTED)


def _short(name: str) -> str:
    inventory = load_inventory()
    module = inventory.module_of(name)
    return name[len(module) + 1:] if module and name != module else name


def all_statuses() -> Dict[str, ApiStatus]:
    return {name: status_of(name) for name in load_inventory().names()}


def counts() -> Dict[Status, int]:
    out: Dict[Status, int] = {s: 0 for s in Status}
    for st in all_statuses().values():
        out[st.status] += 1
    return out


def names_with(status: Status) -> List[str]:
    return [n for n, s in all_statuses().items() if s.status == status]
