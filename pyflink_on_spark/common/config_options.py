"""pyflink.common.config_options mirror: building typed ConfigOption objects."""
from typing import Any, Generic, Optional, TypeVar

from pyflink_on_spark.common.utils import no_jvm

T = TypeVar('T')

__all__ = ['ConfigOptions', 'ConfigOption']


class _OptionSpec(object):
    """What a Java ConfigOption holds: key, value type name and default (if any)."""

    __slots__ = ('key', 'type_name', 'default', 'has_default')

    def __init__(self, key: str, type_name: Optional[str], default: Any = None,
                 has_default: bool = False):
        self.key = key
        self.type_name = type_name
        self.default = default
        self.has_default = has_default


class ConfigOptions(object):
    """Builds ConfigOption objects, e.g.
    ``ConfigOptions.key("tmp.dir").string_type().default_value("/tmp")``."""

    def __init__(self, j_config_options):
        no_jvm("ConfigOptions(j_config_options)", "use ConfigOptions.key()")

    @staticmethod
    def key(key: str) -> 'ConfigOptions.OptionBuilder':
        """Start building an option with the given key."""
        if key is None:
            raise TypeError("key must not be null")
        return ConfigOptions.OptionBuilder(_OptionSpec(key, None))

    class OptionBuilder(object):
        def __init__(self, j_option_builder):
            self._spec = _as_spec(j_option_builder, "ConfigOptions.OptionBuilder")

        def _typed(self, type_name: str) -> 'ConfigOptions.TypedConfigOptionBuilder':
            return ConfigOptions.TypedConfigOptionBuilder(_OptionSpec(self._spec.key, type_name))

        def boolean_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[bool]':
            return self._typed("Boolean")

        def int_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[int]':
            return self._typed("Integer")

        def long_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[int]':
            return self._typed("Long")

        def float_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[float]':
            return self._typed("Float")

        def double_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[float]':
            return self._typed("Double")

        def string_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[str]':
            return self._typed("String")

    class TypedConfigOptionBuilder(Generic[T]):
        def __init__(self, j_typed_config_option_builder):
            self._spec = _as_spec(j_typed_config_option_builder,
                                  "ConfigOptions.TypedConfigOptionBuilder")

        def default_value(self, value: T) -> 'ConfigOption[T]':
            return ConfigOption(_OptionSpec(self._spec.key, self._spec.type_name, value, True))

        def no_default_value(self) -> 'ConfigOption[str]':
            return ConfigOption(_OptionSpec(self._spec.key, self._spec.type_name))


class ConfigOption(Generic[T]):
    """A configuration parameter: key, value type and optional default. Immutable."""

    def __init__(self, j_config_option):
        self._spec = _as_spec(j_config_option, "ConfigOption")

    def _key(self) -> str:
        return self._spec.key

    def _default_value(self) -> Any:
        return self._spec.default

    def _has_default_value(self) -> bool:
        return self._spec.has_default

    def __eq__(self, other):
        return isinstance(other, ConfigOption) and self._spec.key == other._spec.key \
            and self._spec.default == other._spec.default

    def __hash__(self):
        return hash(self._spec.key)

    def __repr__(self):
        # Java's ConfigOption.toString
        default = self._spec.default
        return "Key: '%s' , default: %s (fallback keys: [])" % (
            self._spec.key, "null" if default is None else default)


def _as_spec(obj, what: str) -> _OptionSpec:
    if isinstance(obj, _OptionSpec):
        return obj
    no_jvm("%s(<Java object>)" % what, "it wraps a Java object; use ConfigOptions.key()")
