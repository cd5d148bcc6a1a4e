"""Helpers shared by the pyflink.common mirror.

PyFlink's ``JavaObjectWrapper`` wraps a py4j handle. There is no JVM in pyflink_on_spark, so the
wrapper only keeps whatever object it was given (connectors in this package hand it their own
plain-Python description of the Java object).
"""
from typing import Any, NoReturn

__all__ = ['JavaObjectWrapper']


def no_jvm(api: str, why: str = "") -> NoReturn:
    """Raise the error used for every API that only makes sense with a JVM."""
    reason = why or "it returns or needs a Java object"
    raise NotImplementedError(
        "%s is not supported by pyflink_on_spark: %s, and pyflink_on_spark runs without a JVM "
        "(no py4j gateway)." % (api, reason))


class JavaObjectWrapper(object):
    """Holds the object standing in for a Java object (never a py4j handle here)."""

    def __init__(self, j_object: Any):
        self._j_object = j_object

    def get_java_object(self) -> Any:
        return self._j_object
