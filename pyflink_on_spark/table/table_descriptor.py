"""TableDescriptor / FormatDescriptor: a connector table declared in Python
(create_temporary_table): the same as its CREATE TABLE statement (table/connector_tables.py).
Options come back in java.util.HashMap's order, as PyFlink 1.20.5 gives them (seen)."""
from __future__ import annotations

from typing import Dict, List, Optional

from pyflink_on_spark.common._java_text import default_capacity, java_string_hash, \
    rebucket_order

__all__ = ['TableDescriptor', 'FormatDescriptor']


def _option_key(key) -> str:
    """An option's key: a string or a ConfigOption."""
    return key if isinstance(key, str) else key._key()


def _in_java_order(options: Dict[str, str]) -> Dict[str, str]:
    """A new java.util.HashMap<String, String> of `options` (given in insertion order), in
    its iteration order."""
    keys = list(options)
    order = rebucket_order([java_string_hash(k) for k in keys], default_capacity(len(keys)))
    return {keys[i]: options[keys[i]] for i in order}


class FormatDescriptor(object):
    """FormatDescriptor.for_format('csv').option('field-delimiter', ';').build(): a format and
    its options, unprefixed; TableDescriptor.Builder.format prefixes them."""

    class Builder(object):

        def __init__(self, format: str) -> None:
            self._format = format
            self._options: Dict[str, str] = {}

        def option(self, key, value) -> 'FormatDescriptor.Builder':
            self._options[_option_key(key)] = str(value)
            return self

        def build(self) -> 'FormatDescriptor':
            return FormatDescriptor(self._format, dict(self._options))

    def __init__(self, format: str, options: Optional[Dict[str, str]] = None) -> None:
        self._format = format
        self._options = dict(options or {})

    @staticmethod
    def for_format(format: str) -> 'FormatDescriptor.Builder':
        return FormatDescriptor.Builder(format)

    def get_format(self) -> str:
        return self._format

    def get_options(self) -> Dict[str, str]:
        return _in_java_order(self._options)

    def __str__(self) -> str:
        return "%s[{%s}]" % (self._format, ", ".join(
            "%s=%s" % item for item in self.get_options().items()))

    def __eq__(self, other) -> bool:
        return isinstance(other, FormatDescriptor) and \
            (self._format, self._options) == (other._format, other._options)

    def __hash__(self) -> int:
        return hash((self._format, tuple(sorted(self._options.items()))))


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
            key = _option_key(key)
            self._options[key] = str(value).lower() if isinstance(value, bool) else str(value)
            return self

        def format(self, format, format_option=None) -> 'TableDescriptor.Builder':
            """'format' = <format> (or <format_option's key> = <format>); a FormatDescriptor's
            options prefixed as Flink does: 'csv.field-delimiter', 'key.json.<option>' for the
            option 'key.format'."""
            name = format if isinstance(format, str) else format.get_format()
            if format_option is None:
                self._format = name
                prefix = name + "."
            else:
                key = _option_key(format_option)
                self._options[key] = name
                prefix = (key[:-len("format")] if key.endswith("format") else key + ".") \
                    + name + "."
            if isinstance(format, FormatDescriptor):
                for option, value in format._options.items():
                    self._options[prefix + option] = value
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
        options = {"connector": self._connector}
        options.update(self._options)
        if self._format is not None:
            options["format"] = self._format
        return _in_java_order(options)

    def get_partition_keys(self) -> List[str]:
        return list(self._partition_keys)

    def get_comment(self) -> Optional[str]:
        return self._comment
