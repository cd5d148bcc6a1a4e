"""Whether a BATCH reduce function is associative, proved from its bytecode.

A BATCH reduce folds each key's records in order: f(...f(f(r1, r2), r3)..., rn). Upstream
subtask 0 may send the fold of its records instead of them (graph/compile.py _leading_fold),
because the reduce reads its rows first. Any other subtask may send the fold of its own
records only when f is associative: then f(fold of the rows before, fold of mine) is what
the reduce would have made of my records one by one, for any records. Nothing promises
that of a user's function, so it is proved, not assumed, for the few shapes reduces mostly
have (a word count's `lambda a, b: (a[0], a[1] + b[1])`, a running max, keep the last):

- the function is plain straight-line code over its two arguments: no globals but the
  builtins min and max, no closure, no `self`, no defaults, no branches, no stores;
- a record (a declared scalar type) comes back as `a`, `b`, or `a OP b` / `b OP a`;
- a tuple (a declared TUPLE type of n fields) comes back as a tuple of n fields, field i
  being `a[i]`, `b[i]`, or `a[i] OP b[i]` / `b[i] OP a[i]`; then each field is folded on
  its own, and a tuple of associative folds is associative;
- OP is one that is associative over the field's declared type: + * | & ^ min max over
  BYTE, SHORT, INT and LONG (which the exit makes Python ints: exact, unbounded), + (a
  concatenation), min and max over STRING. Not over FLOAT or DOUBLE: a float sum depends on
  its order in the last bits, and min and max are not associative with a NaN. A field
  taken whole (`a[i]`, `b[i]`) may be of any type: keep-first and keep-last are associative.

Anything else is not proved (False), and the records travel as they did.
"""
from __future__ import annotations

import builtins
import dis
import inspect
import types
from typing import Any, Optional

from pyflink_on_spark.common.typeinfo import BasicType, BasicTypeInfo, TupleTypeInfo

_INTEGRAL = frozenset((BasicType.BYTE, BasicType.SHORT, BasicType.INT, BasicType.LONG))
_INTEGRAL_OPS = frozenset(("+", "*", "|", "&", "^", "min", "max"))
_STRING_OPS = frozenset(("+", "min", "max"))

# the binary operators by name before Python 3.11 (BINARY_OP's argrepr from 3.11 on)
_OLD_BINARY_OPS = {"BINARY_ADD": "+", "BINARY_MULTIPLY": "*", "BINARY_OR": "|",
                   "BINARY_AND": "&", "BINARY_XOR": "^"}
_LOAD_ARG = frozenset(("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW"))
_LOAD_ARGS = frozenset(("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW"))
_SKIPPED = frozenset(("RESUME", "NOP", "CACHE", "PRECALL", "PUSH_NULL", "NOT_TAKEN"))
_CALLABLE_BUILTINS = {"min": builtins.min, "max": builtins.max}
_NO_PLAIN_ARGS = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR | \
    inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def reduce_is_associative(function: Any, record_type: Any) -> bool:
    """True when `function` (a ReduceFunction: the API's wrapper of a plain function, or a
    user's subclass) is proved associative over records of `record_type` (see above)."""
    target = _reduce_code(function)
    if target is None:
        return False
    code, globals_, first, second = target
    result = _evaluate(code, globals_, first, second)
    if result is None:
        return False
    if result == ("arg", 0) or result == ("arg", 1):   # keep the first, keep the last
        return True
    if isinstance(record_type, TupleTypeInfo):
        fields = record_type.get_field_types()
        if result[0] != "tuple" or len(result[1]) != len(fields):
            return False
        return all(_folds_field(item, index, field_type)
                   for index, (item, field_type) in enumerate(zip(result[1], fields)))
    return _folds_whole(result, record_type)


def _reduce_code(function: Any) -> Optional[tuple]:
    """(code, globals, name of the first argument, name of the second) of the function the
    reduce calls per pair; None when it is not a plain Python function of two arguments."""
    method = getattr(type(function), "reduce", None)
    if method is None:
        return None
    if getattr(method, "__module__", "").startswith("pyflink_on_spark."):
        # the API's wrapper of a plain callable: its reduce() only passes the pair on
        target, bound = getattr(function, "_func", None), False
    else:
        target, bound = method, True
    if not isinstance(target, types.FunctionType) or target.__closure__ \
            or target.__defaults__ or target.__kwdefaults__:
        return None
    code = target.__code__
    count = 3 if bound else 2
    if code.co_argcount != count or code.co_kwonlyargcount or code.co_flags & _NO_PLAIN_ARGS \
            or code.co_freevars or code.co_cellvars:
        return None
    names = code.co_varnames[:count]
    return code, target.__globals__, names[-2], names[-1]


def _evaluate(code: types.CodeType, globals_: dict, first: str, second: str) -> Optional[tuple]:
    """The returned value as an expression over the arguments, ("arg", 0 | 1),
    ("field", 0 | 1, index), ("op", OP, left, right), ("tuple", items); None when the code
    does anything else."""
    stack: list = []
    args = {first: ("arg", 0), second: ("arg", 1)}
    instructions = [i for i in dis.get_instructions(code) if i.opname not in _SKIPPED]
    for position, instruction in enumerate(instructions):
        name, value = instruction.opname, instruction.argval
        if name in _LOAD_ARG:
            if value not in args:
                return None
            stack.append(args[value])
        elif name in _LOAD_ARGS:
            if not all(v in args for v in value):
                return None
            stack.extend(args[v] for v in value)
        elif name in ("LOAD_CONST", "LOAD_SMALL_INT"):
            stack.append(("const", value))
        elif name == "LOAD_GLOBAL":
            # a builtin min or max the module does not shadow
            if value not in _CALLABLE_BUILTINS or value in globals_:
                return None
            stack.append(("callable", value))
        elif name == "BINARY_SUBSCR" or (name == "BINARY_OP" and instruction.argrepr == "[]"):
            if len(stack) < 2:
                return None
            index, container = stack.pop(), stack.pop()
            if container[0] != "arg" or index[0] != "const" or type(index[1]) is not int \
                    or index[1] < 0:
                return None
            stack.append(("field", container[1], index[1]))
        elif name == "BINARY_OP" or name in _OLD_BINARY_OPS:
            symbol = _OLD_BINARY_OPS.get(name, instruction.argrepr)
            if symbol not in _INTEGRAL_OPS or len(stack) < 2:
                return None
            right, left = stack.pop(), stack.pop()
            stack.append(("op", symbol, left, right))
        elif name in ("CALL", "CALL_FUNCTION"):
            if value != 2 or len(stack) < 3:
                return None
            right, left, callee = stack.pop(), stack.pop(), stack.pop()
            if callee[0] != "callable":
                return None
            stack.append(("op", callee[1], left, right))
        elif name == "BUILD_TUPLE":
            if len(stack) < value:
                return None
            items = tuple(stack[len(stack) - value:])
            del stack[len(stack) - value:]
            stack.append(("tuple", items))
        elif name == "RETURN_VALUE":
            if position != len(instructions) - 1 or len(stack) != 1:
                return None
            return stack[0]
        else:
            return None
    return None


def _folds_whole(item: tuple, record_type: Any) -> bool:
    """A record folded as `a OP b` / `b OP a` under an OP associative over its declared
    type."""
    return item[0] == "op" and {item[2], item[3]} == {("arg", 0), ("arg", 1)} \
        and item[1] in _associative_ops(record_type)


def _folds_field(item: tuple, index: int, field_type: Any) -> bool:
    """Field `index` of the result: `a[index]`, `b[index]`, or `a[index] OP b[index]` (or the
    other way round) under an OP associative over the field's declared type."""
    mine = (("field", 0, index), ("field", 1, index))
    if item in mine:
        return True
    return item[0] == "op" and {item[2], item[3]} == set(mine) \
        and item[1] in _associative_ops(field_type)


def is_integral(type_info: Any) -> bool:
    """A declared BYTE, SHORT, INT or LONG: the exit makes its values Python ints, whose
    sums do not depend on their order (a float's do, in the last bits)."""
    return type(type_info) is BasicTypeInfo and type_info._basic_type in _INTEGRAL


def _associative_ops(type_info: Any) -> frozenset:
    if type(type_info) is BasicTypeInfo:
        basic = type_info._basic_type
        if basic in _INTEGRAL:
            return _INTEGRAL_OPS
        if basic is BasicType.STRING:
            return _STRING_OPS
    return frozenset()
