"""pyflink.common.configuration mirror: a typed key/value store with Flink's conversions.

Values keep the Java type they were set with (str, int for Java Long, float for Double,
bool, bytes); getters convert the way org.apache.flink.configuration.Configuration does,
and to_dict()/str() list keys in the order the Java HashMaps would.
"""
import base64
import copy
from typing import Any, Callable, Dict, List, Optional, Set

from pyflink_on_spark.common._java_text import (
    HashMapModel, default_capacity, expected_size_capacity, java_double_str, java_identity_str,
    java_string_hash, rebucket_order)
from pyflink_on_spark.common.utils import no_jvm

__all__ = ['Configuration']


def _to_string(value: Any) -> str:
    """ConfigurationUtils.convertToString for the value types the Python API can set."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return java_double_str(value)
    if isinstance(value, (bytes, bytearray)):
        # Flink 1.20 writes byte arrays as a YAML binary scalar
        return "!!binary |-\n  " + base64.b64encode(bytes(value)).decode("ascii")
    return str(value)


def _to_long(key: str, value: Any) -> int:
    if type(value) is int:
        return value
    text = _to_string(value).strip()
    try:
        # Long.parseLong: optional sign and decimal digits only
        if not text or not text.lstrip("+-").isdigit() or text.count("+") + text.count("-") > 1:
            raise ValueError
        result = int(text)
    except ValueError:
        raise ValueError('Could not parse value \'%s\' for key \'%s\' as an integer: '
                         'For input string: "%s"' % (text, key, text)) from None
    if not -(2 ** 63) <= result < 2 ** 63:
        raise ValueError('Could not parse value \'%s\' for key \'%s\': out of the range of a '
                         'Java long' % (text, key))
    return result


def _to_boolean(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = _to_string(value)
    if text.lower() == "true":
        return True
    if text.lower() == "false":
        return False
    raise ValueError("Unrecognized option for boolean: %s. Expected either true or false"
                     "(case insensitive)" % text)


def _to_double(key: str, value: Any) -> float:
    if isinstance(value, float):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    text = _to_string(value).strip()
    try:
        return float(text.replace("Infinity", "inf"))
    except ValueError:
        raise ValueError('Could not parse value \'%s\' for key \'%s\' as a float: '
                         'For input string: "%s"' % (text, key, text)) from None


def _value_key(value: Any):
    # Java equality: Long(1), Boolean(true), Double(1.0) and "1" are all different
    if isinstance(value, bytearray):
        value = bytes(value)
    return type(value), value


class Configuration:
    """Lightweight configuration object which stores key/value pairs."""

    def __init__(self, other: 'Configuration' = None, j_configuration: Any = None):
        # set when this object wraps an environment's configuration: called with each key set
        self._on_set: Optional[Callable[[str], None]] = None
        if j_configuration is not None:
            # get_j_env_configuration(env._j_stream_execution_environment) gives a view of the
            # environment's Configuration (pyflink_on_spark.util.java_env): share its storage,
            # and let each key set here take effect as env.configure(...) does
            shared = getattr(j_configuration, "_shared_configuration", None)
            if shared is None:
                no_jvm("Configuration(j_configuration=%s)" % type(j_configuration).__name__,
                       "it wraps a Java Configuration; only an environment's configuration "
                       "(get_j_env_configuration(env._j_stream_execution_environment)) can be "
                       "wrapped")
            self._data = shared._data
            self._map = shared._map
            self._on_set = j_configuration._apply
            return
        self._data: Dict[str, Any] = {}
        if other is not None:
            # new HashMap<>(other.confData): sized for the copy, filled in the other's order
            self._map = HashMapModel(int(len(other._data) / 0.75 + 1.0))
            for key in other._ordered_keys():
                self._put(key, other._data[key])
        else:
            self._map = HashMapModel()

    # -- storage -------------------------------------------------------------------------------

    def _put(self, key: str, value: Any) -> None:
        if key not in self._data:
            self._map.on_insert()
        self._data[key] = value
        if self._on_set is not None:
            self._on_set(key)

    def _ordered_keys(self) -> List[str]:
        """confData's iteration order (java.util.HashMap)."""
        keys = list(self._data)
        return [keys[i] for i in self._map.order([java_string_hash(k) for k in keys])]

    # -- typed getters and setters -------------------------------------------------------------

    def get_string(self, key: str, default_value: Optional[str]) -> Optional[str]:
        if key in self._data:
            return _to_string(self._data[key])
        return default_value

    def set_string(self, key: str, value: str) -> 'Configuration':
        if not isinstance(value, str):
            raise TypeError("Configuration.set_string() expects a str value, got %s"
                            % type(value).__name__)
        self._put(key, value)
        return self

    @staticmethod
    def parse_list_value(value: str, standard_yaml: bool = True) -> List:
        """Split a list option: a YAML flow list ("[a, b]") or "a;b" (both when standard)."""
        if not value:
            return []
        if standard_yaml:
            text = value.strip()
            if text.startswith("[") and text.endswith("]"):
                return [_yaml_scalar(item) for item in _split_flow_list(text[1:-1])]
        return value.split(";")

    def get_integer(self, key: str, default_value: int) -> int:
        if key in self._data:
            return _to_long(key, self._data[key])
        return default_value

    def set_integer(self, key: str, value: int) -> 'Configuration':
        self._put(key, int(value))
        return self

    def get_boolean(self, key: str, default_value: bool) -> bool:
        if key in self._data:
            return _to_boolean(key, self._data[key])
        return default_value

    def set_boolean(self, key: str, value: bool) -> 'Configuration':
        self._put(key, bool(value))
        return self

    def get_float(self, key: str, default_value: float) -> float:
        if key in self._data:
            return _to_double(key, self._data[key])
        return float(default_value)

    def set_float(self, key: str, value: float) -> 'Configuration':
        self._put(key, float(value))
        return self

    def get_bytearray(self, key: str, default_value: bytearray) -> bytearray:
        if key in self._data:
            value = self._data[key]
            if not isinstance(value, (bytes, bytearray)):
                raise ValueError("Configuration cannot evaluate value %s as a byte[] value"
                                 % _to_string(value))
            return bytearray(value)
        return bytearray(default_value)

    def set_bytearray(self, key: str, value: bytearray) -> 'Configuration':
        self._put(key, bytes(value))
        return self

    # -- whole-configuration operations --------------------------------------------------------

    def key_set(self) -> Set[str]:
        return set(self._data)

    def add_all_to_dict(self, target_dict: Dict) -> None:
        """Copy all entries (with their typed values, like Java Properties) into target_dict.

        The entries are the same as PyFlink's; their order is confData's, not the order of
        the java.util.Properties (a ConcurrentHashMap) PyFlink goes through."""
        for key in self._ordered_keys():
            target_dict[key] = self._data[key]

    def add_all(self, other: 'Configuration', prefix: str = None) -> 'Configuration':
        """Add all entries of other, keys prepended with prefix when given."""
        for key in other._ordered_keys():
            self._put(key if prefix is None else prefix + key, other._data[key])
        return self

    def contains_key(self, key: str) -> bool:
        return key in self._data

    def to_dict(self) -> Dict[str, str]:
        """All entries with their values as strings (in Java's toMap() order)."""
        keys = self._ordered_keys()
        # toMap() copies confData into a HashMap sized for the entry count
        capacity = expected_size_capacity(len(keys))
        order = rebucket_order([java_string_hash(k) for k in keys], capacity)
        return {keys[i]: _to_string(self._data[keys[i]]) for i in order}

    def remove_config(self, key: str) -> bool:
        if key in self._data:
            del self._data[key]
            self._map.on_remove()
            return True
        return False

    def __deepcopy__(self, memodict=None):
        return Configuration(other=self)

    def __copy__(self):
        return Configuration(other=self)

    def __hash__(self):
        h = 0
        for key in self._data:
            h ^= java_string_hash(key)
        return h

    def __eq__(self, other):
        if not isinstance(other, Configuration):
            return False
        if self._data.keys() != other._data.keys():
            return False
        return all(_value_key(v) == _value_key(other._data[k]) for k, v in self._data.items())

    def __str__(self):
        # Java builds a fresh HashMap from confData (in confData's order) and prints it; byte
        # arrays print as [B@...
        keys = self._ordered_keys()
        order = rebucket_order([java_string_hash(k) for k in keys], default_capacity(len(keys)))
        parts = []
        for key in [keys[i] for i in order]:
            value = self._data[key]
            if isinstance(value, (bytes, bytearray)):
                text = java_identity_str("[B", value)
            else:
                text = _to_string(value)
            parts.append("%s=%s" % (key, text))
        return "{" + ", ".join(parts) + "}"

    def __repr__(self):
        return "Configuration(%s)" % self.__str__()

    def _copy_data(self) -> Dict[str, Any]:
        """Typed entries, for the engine (values as set, not stringified)."""
        return copy.copy(self._data)


def _split_flow_list(body: str) -> List[str]:
    """Split the inside of a YAML flow sequence on top-level commas (quotes respected)."""
    items, current, quote = [], [], None
    for ch in body:
        if quote:
            current.append(ch)
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            current.append(ch)
        elif ch == ",":
            items.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    last = "".join(current).strip()
    if last or items:
        items.append(last)
    return [item for item in items if item != ""]


def _yaml_scalar(text: str) -> Any:
    """The value a YAML safe loader gives a plain or quoted scalar (the common cases)."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "~", ""):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text
