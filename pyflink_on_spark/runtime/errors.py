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


class JobExecutionError(RuntimeError):
    """A job failed. The message starts with the user's own error and traceback."""
