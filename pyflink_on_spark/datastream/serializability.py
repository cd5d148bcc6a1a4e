"""Fail where a user function is passed in, as PyFlink does, when it cannot be serialized.

PyFlink cloudpickles each function in map()/key_by()/... (data_stream.py,
_create_j_data_stream_python_function_info), so a function holding a lock fails at that
line with cloudpickle's own TypeError ("cannot pickle '_thread.lock' object"). The shim
ships functions to Spark's workers only at execute(): without this check the same mistake
surfaces after Spark has started, far from the user's line and without the function's name.
"""
from __future__ import annotations

import inspect


def describe_function(func) -> str:
    """'the function name (file.py, line N)' or 'the MyMap object' for error messages."""
    target = getattr(func, "_func", func)          # FunctionWrapper around a callable
    name = getattr(target, "__qualname__", None) or type(target).__name__
    if not inspect.isfunction(target) and not inspect.ismethod(target):
        return "the %s object" % type(target).__name__
    try:
        code = target.__code__
        return "the function %s (%s, line %d)" % (name, code.co_filename, code.co_firstlineno)
    except AttributeError:
        return "the function %s" % name


def check_serializable(func, what: str) -> None:
    """Raise the pickling error (same type, PyFlink's message first) naming the function."""
    import cloudpickle
    try:
        cloudpickle.dumps(func)
    except Exception as e:
        message = "%s: %s given as a %s cannot be serialized to run on the workers (does " \
                  "it capture a lock, socket, open connection or other process-local " \
                  "object? create such objects in open() instead)" \
                  % (e, describe_function(func), what)
        try:
            error = type(e)(message)
        except Exception:
            error = TypeError(message)
        raise error from e
