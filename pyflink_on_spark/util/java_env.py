"""Stand-ins for the Java objects behind a StreamExecutionEnvironment that programs reach
through `env._j_stream_execution_environment`, so that the configuration idiom

    config = Configuration(j_configuration=get_j_env_configuration(
        env._j_stream_execution_environment))
    config.set_integer("python.fn-execution.bundle.size", 1000)

works: on PyFlink the returned object is the environment's live Configuration, and a key set
through it takes effect as if passed to env.configure(...). Here every write goes through
env.configure, so the keys the shim honours take effect the same way and all keys are kept.

One difference: on PyFlink the environment's setters write into that Configuration too
(after env.set_parallelism(5), getString("parallelism.default") is "5", checked on 1.20.5);
here only keys set through a Configuration or env.configure are in it.
"""
from __future__ import annotations

import re
from typing import Any, Dict, Optional, Set

__all__ = ["JavaEnvironmentHandle", "JavaConfigurationView"]


def _snake_case(java_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", java_name).lower()


class JavaConfigurationView(object):
    """The environment's Configuration with Java's method names (setString, getInteger, ...).
    Reads see the environment's configuration; writes go through env.configure."""

    def __init__(self, env: Any):
        self._env = env

    @property
    def _shared_configuration(self):
        """The environment's own Configuration (shared by Configuration(j_configuration=...))."""
        return self._env._configuration

    def _apply(self, key: str) -> None:
        """Make the (already stored) value of `key` take effect, as env.configure does."""
        from pyflink_on_spark.common.configuration import Configuration
        value = self._shared_configuration.to_dict().get(key)
        if value is None:
            return
        single = Configuration()
        single.set_string(key, value)
        self._env.configure(single)

    def _set(self, setter: str, key: str, value: Any) -> 'JavaConfigurationView':
        getattr(self._shared_configuration, setter)(key, value)
        self._apply(key)
        return self

    # -- Java's setters and getters -------------------------------------------------------------
    def setString(self, key: str, value: str) -> 'JavaConfigurationView':
        return self._set("set_string", key, value)

    def getString(self, key: str, default_value: Optional[str] = None) -> Optional[str]:
        return self._shared_configuration.get_string(key, default_value)

    def setInteger(self, key: str, value: int) -> 'JavaConfigurationView':
        return self._set("set_integer", key, value)

    def getInteger(self, key: str, default_value: int) -> int:
        return self._shared_configuration.get_integer(key, default_value)

    setLong = setInteger
    getLong = getInteger

    def setBoolean(self, key: str, value: bool) -> 'JavaConfigurationView':
        return self._set("set_boolean", key, value)

    def getBoolean(self, key: str, default_value: bool) -> bool:
        return self._shared_configuration.get_boolean(key, default_value)

    def setFloat(self, key: str, value: float) -> 'JavaConfigurationView':
        return self._set("set_float", key, value)

    def getFloat(self, key: str, default_value: float) -> float:
        return self._shared_configuration.get_float(key, default_value)

    setDouble = setFloat
    getDouble = getFloat

    def containsKey(self, key: str) -> bool:
        return self._shared_configuration.contains_key(key)

    def keySet(self) -> Set[str]:
        return self._shared_configuration.key_set()

    def toMap(self) -> Dict[str, str]:
        return self._shared_configuration.to_dict()

    def removeKey(self, key: str) -> bool:
        return self._shared_configuration.remove_config(key)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(
            "Configuration.%s (Java) is not available in pyflink_on_spark: there is no JVM. "
            "The environment's configuration offers setString/getString, setInteger/getInteger, "
            "setLong/getLong, setBoolean/getBoolean, setFloat/getFloat, setDouble/getDouble, "
            "containsKey, keySet, toMap and removeKey; or wrap it: "
            "Configuration(j_configuration=...)." % name)

    def __repr__(self) -> str:
        return "JavaConfigurationView(%r)" % (self.toMap(),)


class JavaEnvironmentHandle(object):
    """What `env._j_stream_execution_environment` gives: only the environment's configuration
    is reachable (getConfiguration(), or get_j_env_configuration(handle))."""

    def __init__(self, env: Any):
        self._env = env

    def getConfiguration(self) -> JavaConfigurationView:
        return JavaConfigurationView(self._env)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        python_name = _snake_case(name)
        instead = ("call env.%s(...) instead" % python_name
                   if callable(getattr(type(self._env), python_name, None))
                   else "use the Python API of StreamExecutionEnvironment instead")
        raise NotImplementedError(
            "env._j_stream_execution_environment.%s: there is no Java "
            "StreamExecutionEnvironment in pyflink_on_spark; %s. Configuration keys can be set "
            "with env.configure(Configuration) or through "
            "get_j_env_configuration(env._j_stream_execution_environment)." % (name, instead))
