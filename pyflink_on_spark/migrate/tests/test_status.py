import ast
import inspect
import os
import re

import pytest

from pyflink_on_spark.migrate import status as st
from pyflink_on_spark.migrate.inventory import load_inventory
from pyflink_on_spark.migrate.status import DIFFERENCES, NO_EFFECT, Status, status_of

PACKAGE = os.path.dirname(os.path.dirname(st.__file__))
REPO = os.path.dirname(PACKAGE)


def test_every_pyflink_1_20_name_has_a_status():
    inventory = load_inventory()
    names = inventory.names()
    assert len(names) > 1900                       # the whole listing was parsed
    statuses = st.all_statuses()
    assert set(statuses) == set(names)
    for name, status in statuses.items():
        assert isinstance(status.status, Status), name
        if status.status in (Status.UNSUPPORTED, Status.JVM_ONLY, Status.NO_EFFECT,
                             Status.DIFFERENCE, Status.TABLE_API):
            assert status.detail, "%s is %s without saying why" % (name, status.status)
    # every status the tool knows about occurs on the real API
    seen = {s.status for s in statuses.values()}
    assert seen >= {Status.SUPPORTED, Status.DIFFERENCE, Status.NO_EFFECT, Status.UNSUPPORTED,
                    Status.JVM_ONLY}


@pytest.mark.parametrize("name, expected", [
    ("pyflink.datastream.DataStream.map", Status.SUPPORTED),
    ("pyflink.datastream.data_stream.KeyedStream.process", Status.SUPPORTED),
    ("pyflink.datastream.KeyedStream", Status.SUPPORTED),          # made by key_by
    ("pyflink.datastream.data_stream.DataStream.cache", Status.SUPPORTED),
    ("pyflink.datastream.connectors.kafka.FlinkKafkaConsumer", Status.SUPPORTED),  # streaming
    ("pyflink.datastream.connectors.file_system.FileSourceBuilder.monitor_continuously",
     Status.SUPPORTED),                                            # streaming executor
    ("pyflink.datastream.CustomStateBackend", Status.UNSUPPORTED),
    ("pyflink.common.typeinfo.TypeInformation.get_java_type_info", Status.JVM_ONLY),
    ("pyflink.java_gateway.get_gateway", Status.JVM_ONLY),
    ("pyflink.util.java_utils.get_j_env_configuration", Status.SUPPORTED),  # emulated
    ("pyflink.util.java_utils.get_j_env_configurations", Status.JVM_ONLY),  # no such thing
    ("pyflink.datastream.data_stream.DataStream._j_data_stream", Status.JVM_ONLY),
    ("pyflink.table.StreamTableEnvironment.from_data_stream", Status.SUPPORTED),
    ("pyflink.table.expressions.col", Status.SUPPORTED),
    ("pyflink.table.Table.join", Status.SUPPORTED),
    ("pyflink.table.Table.window", Status.SUPPORTED),              # group windows run
    ("pyflink.table.Table.over_window", Status.SUPPORTED),         # bounded over windows run
    ("pyflink.table.Table.map", Status.SUPPORTED),                 # runs (not a pandas udf)
    ("pyflink.table.Table.aggregate", Status.SUPPORTED),           # a udaf's call runs
    ("pyflink.table.StreamTableEnvironment.from_changelog_stream",
     Status.SUPPORTED),                                            # runs (docs/table.md)
    ("pyflink.table.changelog_mode.ChangelogMode", Status.SUPPORTED),
    ("pyflink.table.ScalarFunction", Status.SUPPORTED),            # Python UDFs run
    ("pyflink.table.udf.udaf", Status.DIFFERENCE),                 # not in windows yet
    ("pyflink.table.ListView", Status.SUPPORTED),                 # udaf accumulators
    ("pyflink.table.ModuleEntry", Status.TABLE_API),
    ("pyflink.table.DataTypes", Status.SUPPORTED),                 # formats take it
    ("pyflink.datastream.DataStream.slot_sharing_group", Status.NO_EFFECT),
    ("pyflink.datastream.slot_sharing_group.SlotSharingGroup.Builder.build", Status.NO_EFFECT),
    ("pyflink.datastream.state.StateTtlConfig.Builder.set_ttl", Status.DIFFERENCE),
    ("pyflink.datastream.RuntimeExecutionMode.BATCH", Status.DIFFERENCE),
    ("pyflink.datastream.RuntimeExecutionMode.STREAMING", Status.SUPPORTED),
    ("pyflink.datastream.DataStream.no_such_method", Status.UNSUPPORTED),
])
def test_status_of_known_names(name, expected):
    assert status_of(name).status == expected


def test_unsupported_statuses_carry_the_shims_own_error_text():
    detail = status_of("pyflink.datastream.CustomStateBackend").detail
    assert detail.startswith("CustomStateBackend wraps a Java StateBackend")
    assert "HashMapStateBackend()" in detail            # the nearest alternative


# -- the derivation from code: what counts as "always raises" --------------------------------
def _helper(api):
    raise NotImplementedError("%s is not supported here" % api)


def _raises_with_message():
    """docstring"""
    raise NotImplementedError("refused: use something else")


def _placeholder():
    raise NotImplementedError


def _named_placeholder():
    raise NotImplementedError("name_only")


def _conditional(x=None):
    if x is None:
        return 1
    raise NotImplementedError("only with x")


def _through_helper():
    _helper("my_api")


def test_raises_unconditionally_reads_the_syntax_tree():
    assert st._raises_unconditionally(_raises_with_message) == "refused: use something else"
    assert st._raises_unconditionally(_placeholder) is None          # abstract placeholder
    assert st._raises_unconditionally(_named_placeholder) is None
    assert st._raises_unconditionally(_conditional) is None
    assert st._raises_unconditionally(_through_helper) == "my_api is not supported here"


# -- the tables cannot drift from the code or the docs ---------------------------------------
def _heading_slugs(markdown: str):
    slugs = set()
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            slugs.add(re.sub(r"[^a-z0-9 _-]", "", title).replace(" ", "-"))
    return slugs


def test_every_difference_links_an_existing_entry_of_compatibility_md():
    with open(os.path.join(REPO, "docs", "compatibility.md"), encoding="utf-8") as f:
        doc = f.read()
    slugs = _heading_slugs(doc)
    inventory = load_inventory()
    for name, (anchor, title) in DIFFERENCES.items():
        assert inventory.get(name) is not None or _table_name(name), name
        assert anchor in slugs, anchor
        assert "**%s**" % title in doc, title


def test_table_names_exist_in_pyflink_and_in_the_shim():
    inventory = load_inventory()
    for name in list(NO_EFFECT) + list(DIFFERENCES):
        assert inventory.get(name) is not None or _table_name(name), name
        assert st.shim_object(name) is not st._MISSING, name


def _table_name(name: str) -> bool:
    """The inventory lists no pyflink.table names (its generator covers the DataStream
    packages); the shim's object must exist all the same (checked above)."""
    return name.startswith("pyflink.table.")


def _stored_attributes(function_node):
    stored = set()
    for node in ast.walk(function_node):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        stored |= {t.attr for t in targets if isinstance(t, ast.Attribute)}
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Attribute) and \
                node.func.attr in ("append", "extend", "update", "add"):
            stored.add(node.func.value.attr)
    return stored


def _is_getter(function_node, attr):
    """get_*/is_* methods hand the stored value back to the user: not an effect."""
    return function_node.name.startswith(("get_", "is_")) and \
        not _stored_attributes(function_node)


# A slot sharing group ends an operator chain (as in Flink): the one place a no-effect
# setting is read, changing where Spark stages split but never a result.
CHAIN_ONLY = {("slot_sharing_group", os.path.join("graph", "compile.py")),
              # get_execution_plan() chains Python operators as PyFlink's plan does
              ("slot_sharing_group", os.path.join("graph", "flink_plan.py")),
              # execute() reads the jars only to fail on a missing file as PyFlink's upload does
              ("_jars", os.path.join("datastream", "stream_execution_environment.py"))}


def test_no_effect_settings_are_never_read_except_by_their_getters():
    loads = {}
    for root, _dirs, files in os.walk(PACKAGE):
        if os.sep + "tests" in root or os.sep + "migrate" in root:
            continue
        for file in files:
            if not file.endswith(".py"):
                continue
            path = os.path.join(root, file)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for func in ast.walk(tree):
                if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for node in ast.walk(func):
                    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                            and not _is_getter(func, node.attr):
                        loads.setdefault(node.attr, set()).add(
                            (os.path.relpath(path, PACKAGE), func.name))
    setters = set()
    for name in NO_EFFECT:
        func = st.shim_object(name)
        if inspect.isfunction(func):
            setters.add((os.path.relpath(inspect.getsourcefile(func), PACKAGE), func.__name__))
    checked = 0
    for name in NO_EFFECT:
        setter = st.shim_object(name)
        if not inspect.isfunction(setter):
            continue
        node = st._function_node(setter)
        for attr in _stored_attributes(node):
            readers = {(path, fn) for path, fn in loads.get(attr, set())
                       if (path, fn) not in setters and (attr, path) not in CHAIN_ONLY}
            assert not readers, "%s is listed as without effect, but %s is read by %s" % (
                name, attr, sorted(readers))
            checked += 1
    assert checked >= 15


def test_conditional_rules_name_what_the_shim_really_checks():
    for _trigger, _companion, helper, argument in st.CONDITIONAL:
        module = helper.rsplit(".", 1)[0]
        source_file = inspect.getsourcefile(st.shim_object(module))
        with open(source_file, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == helper.rsplit(".", 1)[1]
                 and n.args and isinstance(n.args[0], ast.Constant)
                 and n.args[0].value == argument]
        assert calls, "%s(%r) is no longer called by the shim" % (helper, argument)
        status = st.conditional_status(helper, argument)
        assert status.status == Status.UNSUPPORTED
        assert status.detail.startswith(argument)


class _Hooked:
    _route = "use the Spark route"

    def _hook(self):
        _helper_two(type(self).__name__, self._route)


def _helper_two(what, route):
    raise NotImplementedError("%s is refused. %s" % (what, route))


def test_helper_arguments_are_read_from_the_class_and_module():
    assert st._raises_unconditionally(_Hooked._hook, owner=_Hooked) == \
        "_Hooked is refused. use the Spark route"
