"""The error a failed job raises to the program (JobExecutionError): defined here, below the
engine and the codecs, so that connector codecs raise it too (a Kafka broker that does not
answer); runtime/errors.py re-exports it and turns a task's failure into it."""
from __future__ import annotations

try:   # py4j comes with PySpark; PyFlink raises a failed job's error as Py4JJavaError
    from py4j.protocol import Py4JJavaError as _Py4JJavaError
except ImportError:   # pragma: no cover - no PySpark: nothing to be compatible with
    class _Py4JJavaError(Exception):
        pass


class JobExecutionError(RuntimeError, _Py4JJavaError):
    """A job failed. The message starts with the user's own error and traceback.

    Also a py4j ``Py4JJavaError``, as a failed ``execute()`` is on PyFlink (its Java client
    throws through Py4J): programs and tests that wrap ``env.execute()`` in ``except
    Py4JJavaError`` catch it here too. There is no Java exception behind it
    (``java_exception`` is None); ``str()`` gives the message."""

    def __init__(self, message: str = "") -> None:
        RuntimeError.__init__(self, message)
        self.errmsg = message
        self.java_exception = None
        self._java_exception = None
        self.exception_cmd = None

    def __str__(self) -> str:
        return RuntimeError.__str__(self)

    def __repr__(self) -> str:
        return "%s(%r)" % (type(self).__name__, str(self))

    def __reduce__(self):
        return type(self), (str(self),)
