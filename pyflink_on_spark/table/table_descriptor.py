"""TableDescriptor: a connector table declared in Python (create_temporary_table): the same
as its CREATE TABLE statement (table/connector_tables.py)."""
from __future__ import annotations

from typing import Dict, List, Optional

__all__ = ['TableDescriptor']


class TableDescriptor(object):
    """TableDescriptor.for_connector('datagen').schema(...).option(k, v).build()."""

    class Builder(object):

        def __init__(self, connector: str) -> None:
            self._connector = connector
            self._schema = None
            self._options: Dict[str, str] = {}
            self._format: Optional[str] = None
            self._partition_keys: List[str] = []
            self._comment: Optional[str] = None

        def schema(self, schema) -> 'TableDescriptor.Builder':
            self._schema = schema
            return self

        def option(self, key, value) -> 'TableDescriptor.Builder':
            key = getattr(key, "key", lambda: key)() if not isinstance(key, str) else key
            self._options[key] = str(value).lower() if isinstance(value, bool) else str(value)
            return self

        def format(self, format, format_option=None) -> 'TableDescriptor.Builder':
            if not isinstance(format, str):
                raise NotImplementedError("TableDescriptor.Builder.format(FormatDescriptor) is "
                                          "not supported by pyflink_on_spark yet")
            self._format = format
            return self

        def partitioned_by(self, *partition_keys: str) -> 'TableDescriptor.Builder':
            self._partition_keys = list(partition_keys)
            return self

        def comment(self, comment: str) -> 'TableDescriptor.Builder':
            self._comment = comment
            return self

        def build(self) -> 'TableDescriptor':
            return TableDescriptor(self._connector, self._schema, dict(self._options),
                                   self._format, tuple(self._partition_keys), self._comment)

    def __init__(self, connector: str, schema=None, options=None, format=None,
                 partition_keys=(), comment=None) -> None:
        self._connector = connector
        self._schema = schema
        self._options = dict(options or {})
        self._format = format
        self._partition_keys = tuple(partition_keys)
        self._comment = comment

    @staticmethod
    def for_connector(connector: str) -> 'TableDescriptor.Builder':
        return TableDescriptor.Builder(connector)

    def get_schema(self):
        return self._schema

    def get_options(self) -> Dict[str, str]:
        options = dict(self._options)
        options["connector"] = self._connector
        return options

    def get_partition_keys(self) -> List[str]:
        return list(self._partition_keys)

    def get_comment(self) -> Optional[str]:
        return self._comment
