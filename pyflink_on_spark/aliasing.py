"""Make `import pyflink...` resolve to pyflink_on_spark for this process.

`pyflink.X` becomes the very module object `pyflink_on_spark.X` (not a copy), so classes are
the same whichever name a program imports them by, and pickles name the real module. A neutral
module (standard library only): the CLI installs the alias before a job script runs, and the
Spark task function installs it too, before it unpickles user functions.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

_ALIAS = "pyflink"
_REAL = "pyflink_on_spark"

_UNSUPPORTED = {
    "pyflink.table": "this part of the Table API is not supported by pyflink_on_spark: tables "
                     "of DataStreams, pandas frames and SQL queries over them run on Spark "
                     "SQL (docs/table.md lists what runs)",
}

# Parts of unsupported packages that exist: the data types DataStream formats take, and the
# Table API's modules that run (docs/table.md).
_SUPPORTED_PARTS = ("pyflink.table", "pyflink.table.types", "pyflink.table.expressions",
                    "pyflink.table.expression", "pyflink.table.table_environment",
                    "pyflink.table.environment_settings", "pyflink.table.schema",
                    "pyflink.table.table", "pyflink.table.table_result",
                    "pyflink.table.table_schema", "pyflink.table.table_descriptor",
                    "pyflink.table.window", "pyflink.table.explain_detail",
                    "pyflink.table.udf", "pyflink.table.changelog_mode",
                    "pyflink.table.data_view")


class _PyflinkAliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != _ALIAS and not fullname.startswith(_ALIAS + "."):
            return None
        for prefix, why in _UNSUPPORTED.items():
            if fullname in _SUPPORTED_PARTS:
                break
            if fullname == prefix or fullname.startswith(prefix + "."):
                raise ModuleNotFoundError("No module named %r: %s" % (fullname, why),
                                          name=fullname)
        real = _REAL + fullname[len(_ALIAS):]
        try:
            real_spec = importlib.util.find_spec(real)
        except ModuleNotFoundError:
            real_spec = None
        if real_spec is None:
            raise ModuleNotFoundError(
                "No module named %r: pyflink_on_spark has no counterpart of this PyFlink "
                "module (run `pyflink-on-spark migrate` to list what your job uses)" % fullname,
                name=fullname)
        return importlib.util.spec_from_loader(
            fullname, self, is_package=real_spec.submodule_search_locations is not None)

    def create_module(self, spec):
        return importlib.import_module(_REAL + spec.name[len(_ALIAS):])

    def exec_module(self, module):
        # The real module is already executed; the alias only names it.
        return None


_finder = _PyflinkAliasFinder()


def install_pyflink_alias() -> None:
    """Idempotent. Drops any real pyflink modules already imported in this process."""
    if _finder in sys.meta_path:
        return
    for name in [n for n in sys.modules if n == _ALIAS or n.startswith(_ALIAS + ".")]:
        module = sys.modules[name]
        if not getattr(module, "__name__", "").startswith(_REAL):
            del sys.modules[name]
    sys.meta_path.insert(0, _finder)


def is_installed() -> bool:
    return _finder in sys.meta_path


def pyflink_aliased() -> bool:
    """Whether ``pyflink`` is pyflink_on_spark in this process (then the job's workers alias
    it too before they unpickle user functions)."""
    module = sys.modules.get(_ALIAS)
    return module is not None and getattr(module, "__name__", "") == _REAL
