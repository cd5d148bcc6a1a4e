"""Errors raised by user functions, carried from a task to the driver readably."""
from __future__ import annotations

import traceback

MARKER_BEGIN = "<<<PYFLINK_ON_SPARK_USER_ERROR>>>"
MARKER_END = "<<<END_PYFLINK_ON_SPARK_USER_ERROR>>>"


class UserFunctionError(RuntimeError):
    """A user function raised inside a task. The message holds the user's own traceback."""

    def __init__(self, operator_name: str, subtask_index: int, exc: BaseException):
        self.operator_name = operator_name
        self.subtask_index = subtask_index
        self.user_traceback = "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__))
        message = ("%s%s raised in operator '%s' (subtask %d):\n%s%s" % (
            MARKER_BEGIN, type(exc).__name__, operator_name, subtask_index,
            self.user_traceback, MARKER_END))
        super().__init__(message)


def extract_user_error(text: str):
    """The user-error block inside a (Spark/Py4J) error text, or None."""
    begin = text.find(MARKER_BEGIN)
    if begin < 0:
        return None
    end = text.find(MARKER_END, begin)
    return text[begin + len(MARKER_BEGIN):end if end >= 0 else None].rstrip()


from pyflink_on_spark.common._job_errors import JobExecutionError  # noqa: F401 - re-export


def job_error(e: Exception) -> Exception:
    """What a failed run raises to the program, whichever runner ran it: a user function's
    error with the user's own traceback (UserFunctionError's text), a Spark Python worker's
    failure without the JVM's stack, or ``e`` itself."""
    text = str(e)
    user = extract_user_error(text)
    if user is not None:
        return JobExecutionError("Job execution failed: " + user)
    if isinstance(e, JobExecutionError):
        return e
    marker = "An exception was thrown from the Python worker:"
    if marker in text:
        worker = text[text.index(marker) + len(marker):]
        worker = worker.split(" SQLSTATE:")[0].split("\n\tat ")[0].strip()
        shim = _driver_job_error(worker)
        if shim is not None:   # the shim's own error in the task: its message says it all
            return JobExecutionError(shim)
        return JobExecutionError("Job execution failed in a Spark task:\n" + worker)
    shim = _driver_job_error(text)
    if shim is not None:
        return JobExecutionError(shim)
    return e


# a streaming query's foreachBatch (the shim's micro-batch driver code) raised: Spark wraps
# the Python traceback in its own error, twice
_PROXY = "An exception was raised by the Python Proxy. Return Message:"
_TRACEBACK = "Traceback (most recent call last):"


def _driver_job_error(text: str):
    """The message of a JobExecutionError that the shim raised in a task (a task's
    traceback) or in a streaming query's foreachBatch (the micro-batch driver code), e.g. a
    Kafka broker that does not answer: its own message says what to do, without the stack
    of the shim's code. None for other errors."""
    if _PROXY in text:
        raised = text[text.index(_PROXY) + len(_PROXY):].split(" SQLSTATE:")[0]
    elif text.startswith(_TRACEBACK):
        raised = text
    else:
        return None
    lines = raised.rstrip().splitlines()
    name, _, message = (lines[-1] if lines else "").partition(": ")
    if not message or "." not in name:
        return None
    try:
        import importlib
        module, _, cls = name.rpartition(".")
        if issubclass(getattr(importlib.import_module(module), cls), JobExecutionError):
            return message
    except (ImportError, AttributeError, TypeError, ValueError):
        pass
    return None
