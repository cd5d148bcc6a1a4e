"""User functions keep their source file name when pickled (cloudpickle >= 3.1.3 writes
"<dynamic-code>" instead, for deterministic payloads).

Functions of the job script travel to the workers by value; a user function that raises
there must show the user's own file and line on top of the error (runtime/errors.py), and
with "<dynamic-code>" a traceback names no file and shows no source line. This restores
what cloudpickle wrote before 3.1.3: the code object's own co_filename.
"""
from __future__ import annotations

import types

_DYNAMIC = "<dynamic-code>"


def install() -> None:
    """Makes cloudpickle keep co_filename in every code object it pickles (idempotent)."""
    try:
        from cloudpickle import cloudpickle as implementation
    except ImportError:   # pragma: no cover - cloudpickle is a dependency
        return
    table = getattr(getattr(implementation, "Pickler", None), "_dispatch_table", None)
    reduce_code = getattr(implementation, "_code_reduce", None)
    if table is None or reduce_code is None or \
            getattr(table.get(types.CodeType), "_keeps_filename", False):
        return

    def code_reduce_keeping_filename(code: types.CodeType):
        constructor, args = reduce_code(code)
        if _DYNAMIC in args:
            args = tuple(code.co_filename if type(arg) is str and arg == _DYNAMIC else arg
                         for arg in args)
        return constructor, args

    code_reduce_keeping_filename._keeps_filename = True
    table[types.CodeType] = code_reduce_keeping_filename
