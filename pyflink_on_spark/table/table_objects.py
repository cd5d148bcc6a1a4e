"""The tables and views of a table environment by name, as Flink's catalog manager keeps them
(seen on PyFlink 1.20.5): a name may hold a temporary object (create_temporary_view,
register_table, CREATE TEMPORARY VIEW / TABLE, create_temporary_table) and a permanent one
(CREATE VIEW / TABLE) at once; the temporary one is the one read, the permanent one is
read again once the temporary one is dropped. Each kind refuses a second object of its
own, and DROP names the kind it drops, in Flink's words (a ValidationException on PyFlink;
SqlValidationError here)."""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

from pyflink_on_spark.table.sql.errors import SqlValidationError

TEMPORARY_VIEW, TEMPORARY_TABLE, VIEW, TABLE = ("temporary view", "temporary table", "view",
                                                "table")
_PATH = "`default_catalog`.`default_database`.`%s`"
_IDENTIFIER = "default_catalog.default_database.%s"


class TableObjects(object):
    """`visible`: name -> the Table a query reads (the temporary object where there is one);
    the environment's `_views` is this very dict."""

    def __init__(self) -> None:
        self.visible: Dict[str, Any] = {}
        self._kinds: Dict[str, str] = {}                   # the visible object's kind
        self._shadowed: Dict[str, Tuple[str, Any]] = {}    # a permanent one under it

    def create(self, name: str, table: Any, kind: str, if_not_exists: bool = False) -> None:
        temporary = kind in (TEMPORARY_VIEW, TEMPORARY_TABLE)
        held = self._temporary(name) if temporary else self._permanent(name)
        if held is not None:
            if if_not_exists:
                return
            raise SqlValidationError(
                "Temporary table '%s' already exists" % (_PATH % name) if temporary else
                "Could not execute CreateTable in path %s" % (_PATH % name))
        if temporary:
            if name in self.visible:      # a permanent object: read again after the drop
                self._shadowed[name] = (self._kinds[name], self.visible[name])
        elif self._temporary(name) is not None:
            self._shadowed[name] = (kind, table)
            return
        self.visible[name] = table
        self._kinds[name] = kind

    def drop(self, name: str, kind: str, if_exists: bool = False) -> bool:
        """DROP [TEMPORARY] TABLE / VIEW: False when there is nothing to drop and
        `if_exists`; Flink's errors otherwise."""
        if kind in (TEMPORARY_VIEW, TEMPORARY_TABLE):
            if self._temporary(name) == kind:
                self._remove_temporary(name)
                return True
            if if_exists:
                return False
            raise SqlValidationError("Temporary table or view with identifier '%s' does not "
                                     "exist." % (_IDENTIFIER % name))
        if self._kinds.get(name) == "temporary " + kind:
            raise SqlValidationError(
                "Temporary %s with identifier '%s' exists. Drop it first before removing the "
                "permanent %s." % (kind, _PATH % name, kind))
        if self._permanent(name) == kind:
            if name in self._shadowed:
                del self._shadowed[name]
            else:
                del self.visible[name]
                del self._kinds[name]
            return True
        if if_exists:
            return False
        raise SqlValidationError("%s with identifier '%s' does not exist."
                                 % (kind.capitalize(), _IDENTIFIER % name))

    def holds(self, name: str, kind: str) -> bool:
        """Whether an object of `kind`'s namespace (temporary or permanent) has the name."""
        temporary = kind in (TEMPORARY_VIEW, TEMPORARY_TABLE)
        return (self._temporary(name) if temporary else self._permanent(name)) is not None

    def drop_temporary(self, name: str, kind: str) -> bool:
        """drop_temporary_view / drop_temporary_table: whether one of that kind was there."""
        if self._temporary(name) != kind:
            return False
        self._remove_temporary(name)
        return True

    def discard(self, name: str) -> None:
        """An object the shim registered for a moment (from_descriptor's, an insert's
        anonymous table) taken away again."""
        self.visible.pop(name, None)
        self._kinds.pop(name, None)

    def names(self, *kinds: str) -> List[str]:
        """The names holding an object of one of `kinds` (visible or shadowed), sorted."""
        found = {n for n, k in self._kinds.items() if k in kinds}
        found.update(n for n, (k, _) in self._shadowed.items() if k in kinds)
        return sorted(found)

    def _temporary(self, name: str):
        kind = self._kinds.get(name)
        return kind if kind in (TEMPORARY_VIEW, TEMPORARY_TABLE) else None

    def _permanent(self, name: str):
        if name in self._shadowed:
            return self._shadowed[name][0]
        kind = self._kinds.get(name)
        return kind if kind in (VIEW, TABLE) else None

    def _remove_temporary(self, name: str) -> None:
        if name in self._shadowed:
            self._kinds[name], self.visible[name] = self._shadowed.pop(name)
        else:
            del self.visible[name]
            del self._kinds[name]
