"""Whether a BATCH reduce function is associative, proved from its bytecode.

A BATCH reduce folds each key's records in order: f(...f(f(r1, r2), r3)..., rn). Upstream
subtask 0 may send the fold of its records instead of them (graph/compile.py _leading_fold),
because the reduce reads its rows first. Any other subtask may send the fold of its own
records only when f is associative: then f(fold of the rows before, fold of mine) is what
the reduce would have made of my records one by one, for any records. Nothing promises
that of a user's function, so it is proved, not assumed, for the shapes reduces mostly
have (a word count's `lambda a, b: (a[0], a[1] + b[1])`, a running max, keep the last, the
record with the highest score):

- the function is plain code over its two arguments: no globals but the builtins min and
  max and PyFlink's Row, no closure, no `self`, no defaults, no stores, no loops, one
  forward branch at most (a ternary or an if/return);
- the declared type refuses a None record: a TUPLE, a ROW, or a number or BOOLEAN (a
  fold takes a None as "nothing yet", as the reduce does after a reduce returned None; in
  another subtask than 0 that would skip the reduce's call f(what came before, None));
- it returns `a` or `b` (keep the first, keep the last);
- or `a OP b` / `b OP a` over a declared scalar type;
- or a tuple, or a Row, of the declared TUPLE or ROW type's n fields, field i being `a[i]`,
  `b[i]`, or `a[i] OP b[i]` / `b[i] OP a[i]`: each field is folded on its own, and a tuple
  of associative folds is associative. A field by its name (`a.amount`) where the result
  is a Row of the declared names, in their order (the function's next call reads it so);
- OP is one that is associative over the field's declared type: + * | & ^ min max over
  BYTE, SHORT, INT and LONG (which the exit makes Python ints: exact, unbounded), + (a
  concatenation), min and max over STRING. Not over FLOAT or DOUBLE: a float sum depends on
  its order in the last bits, and min and max are not associative with a NaN. A field
  taken whole (`a[i]`, `b[i]`) may be of any type;
- or `a if a[i] >= b[i] else b` in any of its forms (>, <=, <, b first, the branches the
  other way round, whole records compared): it picks the first or the last extreme record
  by a field of ints or strs, a total order, and such a pick is associative.

Anything else is not proved (False), and the records travel as they did.
"""
from __future__ import annotations

import builtins
import dis
import inspect
import types
from typing import Any, Optional

from pyflink_on_spark.common.typeinfo import (
    BasicType, BasicTypeInfo, RowTypeInfo, TupleTypeInfo)
from pyflink_on_spark.common.types import Row

_INTEGRAL = frozenset((BasicType.BYTE, BasicType.SHORT, BasicType.INT, BasicType.LONG))
_INTEGRAL_OPS = frozenset(("+", "*", "|", "&", "^", "min", "max"))
# declared scalars whose converter refuses None (a STRING lets it pass)
_NOT_NONE = _INTEGRAL | {BasicType.FLOAT, BasicType.DOUBLE, BasicType.BOOLEAN}
_STRING_OPS = frozenset(("+", "min", "max"))

# the binary operators by name before Python 3.11 (BINARY_OP's argrepr from 3.11 on)
_OLD_BINARY_OPS = {"BINARY_ADD": "+", "BINARY_MULTIPLY": "*", "BINARY_OR": "|",
                   "BINARY_AND": "&", "BINARY_XOR": "^"}
_LOAD_ARG = frozenset(("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW"))
_LOAD_ARGS = frozenset(("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW"))
_SKIPPED = frozenset(("RESUME", "NOP", "CACHE", "PRECALL", "PUSH_NULL", "NOT_TAKEN"))
_KNOWN_CALLABLES = {"min": builtins.min, "max": builtins.max, "Row": Row}
_MISSING = object()
_COMPARISONS = frozenset(("<", "<=", ">", ">="))
_CONDITIONAL_JUMPS = frozenset(("POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE",
                                "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE"))
_JUMPS = frozenset(("JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP"))
_NO_PLAIN_ARGS = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS | inspect.CO_GENERATOR | \
    inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def reduce_is_associative(function: Any, record_type: Any) -> bool:
    """True when `function` (a ReduceFunction: the API's wrapper of a plain function, or a
    user's subclass) is proved associative over records of `record_type` (see above)."""
    if not _rejects_none(record_type):
        return False
    target = _reduce_code(function)
    if target is None:
        return False
    code, globals_, first, second = target
    result = _evaluate(code, globals_, first, second)
    if result is None:
        return False
    if result == ("arg", 0) or result == ("arg", 1):   # keep the first, keep the last
        return True
    if result[0] == "if":
        return _selects(result, record_type)
    if result[0] in ("tuple", "row"):
        fields = _declared_fields(record_type)
        names = result[2] if result[0] == "row" else None
        if fields is None or len(result[1]) != len(fields):
            return False
        if names is not None and list(names) != [name for name, _ in fields]:
            return False
        # a field by its name only where the result is a Row of the same names: the
        # function's next call reads it so
        return all(_folds_field(item, index, field_type, name if names is not None else None)
                   for index, (item, (name, field_type)) in enumerate(zip(result[1], fields)))
    return _folds_whole(result, record_type)


def _global(globals_: dict, name: str) -> Any:
    """What `name` is to a function of these globals: the module's, else its builtins'."""
    if name in globals_:
        return globals_[name]
    scope = globals_.get("__builtins__", builtins)
    return scope.get(name, _MISSING) if isinstance(scope, dict) \
        else getattr(scope, name, _MISSING)


def _rejects_none(record_type: Any) -> bool:
    """Whether the declared type refuses a None record at the exit (its converter raises).
    A fold takes a None as "nothing yet", as the reduce does after a reduce returned None;
    in another subtask than 0 that would skip the call the reduce makes one by one, f(what
    came before, None): keep-the-last would not end with None, and a + b would not fail."""
    if isinstance(record_type, (TupleTypeInfo, RowTypeInfo)):
        return True
    return type(record_type) is BasicTypeInfo and record_type._basic_type in _NOT_NONE


def _declared_fields(record_type: Any) -> Optional[list]:
    """[(name or None, type)] of a declared TUPLE or ROW type; None for another type."""
    if isinstance(record_type, TupleTypeInfo):
        return [(None, t) for t in record_type.get_field_types()]
    if isinstance(record_type, RowTypeInfo):
        return list(zip(record_type.get_field_names(), record_type.get_field_types()))
    return None


def _selects(result: tuple, record_type: Any) -> bool:
    """`a if a[i] OP b[i] else b`, in any of its forms (b first, the branches the other way
    round, a comparison of whole records): the first or the last extreme record by a field
    whose declared type orders its values totally (ints, strs), which is associative."""
    _, condition, if_true, if_false = result
    if condition[0] != "cmp" or {if_true, if_false} != {("arg", 0), ("arg", 1)}:
        return False
    left, right = condition[2], condition[3]
    if {left, right} == {("arg", 0), ("arg", 1)}:
        return _totally_ordered(record_type)
    if left[0] != "field" or right[0] != "field" or left[2] != right[2] \
            or {left[1], right[1]} != {0, 1}:
        return False
    key = left[2]
    for index, (name, field_type) in enumerate(_declared_fields(record_type) or ()):
        if key == index or key == name:
            return _totally_ordered(field_type)
    return False


def _totally_ordered(type_info: Any) -> bool:
    return is_integral(type_info) or _is_string(type_info)


def _is_string(type_info: Any) -> bool:
    return type(type_info) is BasicTypeInfo and type_info._basic_type is BasicType.STRING


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
    if getattr(code, "co_exceptiontable", b""):
        # a try block (3.11 on: no instruction on the way in): its handler is another way
        # out, not followed (before 3.11 SETUP_FINALLY is refused as any unknown one)
        return None
    names = code.co_varnames[:count]
    return code, target.__globals__, names[-2], names[-1]


def _evaluate(code: types.CodeType, globals_: dict, first: str, second: str) -> Optional[tuple]:
    """The returned value as an expression over the arguments: ("arg", 0 | 1),
    ("field", 0 | 1, index or attribute name), ("op", OP, left, right), ("tuple", items),
    ("row", items, keyword names or None), ("cmp", OP, left, right), ("if", condition,
    value if true, value if false); None when the code does anything else. One forward
    conditional jump at most (a ternary, an if/return): both ways are followed."""
    instructions = [i for i in dis.get_instructions(code) if i.opname not in _SKIPPED]
    at = {instruction.offset: position for position, instruction in enumerate(instructions)}
    args = {first: ("arg", 0), second: ("arg", 1)}

    def run(position: int, stack: list, branched: bool) -> Optional[tuple]:
        while position < len(instructions):
            instruction = instructions[position]
            name, value = instruction.opname, instruction.argval
            position += 1
            if name in _LOAD_ARG or name in _LOAD_ARGS:
                names = value if name in _LOAD_ARGS else (value,)
                if not all(v in args for v in names):
                    return None
                stack.extend(args[v] for v in names)
            elif name in ("LOAD_CONST", "LOAD_SMALL_INT"):
                stack.append(("const", value))
            elif name == "LOAD_GLOBAL":
                # the builtin min or max, or PyFlink's Row, as the function finds them
                if _KNOWN_CALLABLES.get(value, _MISSING) is not _global(globals_, value):
                    return None
                stack.append(("callable", value))
            elif name == "LOAD_ATTR":
                # a named Row's field (not one of Row's own attributes, which shadow fields)
                if not stack or stack[-1][0] != "arg" or not isinstance(value, str) \
                        or hasattr(Row, value):
                    return None
                stack.append(("field", stack.pop()[1], value))
            elif name == "BINARY_SUBSCR" or (name == "BINARY_OP" and instruction.argrepr == "[]"):
                if len(stack) < 2:
                    return None
                index, container = stack.pop(), stack.pop()
                if container[0] != "arg" or index[0] != "const" \
                        or type(index[1]) is not int or index[1] < 0:
                    return None
                stack.append(("field", container[1], index[1]))
            elif name == "BINARY_OP" or name in _OLD_BINARY_OPS:
                symbol = _OLD_BINARY_OPS.get(name, instruction.argrepr)
                if symbol not in _INTEGRAL_OPS or len(stack) < 2:
                    return None
                right, left = stack.pop(), stack.pop()
                stack.append(("op", symbol, left, right))
            elif name == "COMPARE_OP":
                symbol = instruction.argrepr.replace("bool(", "").rstrip(")")
                if symbol not in _COMPARISONS or len(stack) < 2:
                    return None
                right, left = stack.pop(), stack.pop()
                stack.append(("cmp", symbol, left, right))
            elif name == "TO_BOOL":
                if not stack or stack[-1][0] != "cmp":
                    return None
            elif name == "KW_NAMES":
                stack.append(("names", code.co_consts[instruction.arg]))
            elif name in ("CALL", "CALL_FUNCTION", "CALL_KW", "CALL_FUNCTION_KW"):
                names = None
                if name in ("CALL_KW", "CALL_FUNCTION_KW"):
                    if not stack or stack[-1][0] != "const" or type(stack[-1][1]) is not tuple:
                        return None
                    names = stack.pop()[1]
                elif stack and stack[-1][0] == "names":
                    names = stack.pop()[1]   # 3.11, 3.12: KW_NAMES, after the arguments
                if len(stack) < value + 1:
                    return None
                items = tuple(stack[len(stack) - value:])
                del stack[len(stack) - value:]
                callee = stack.pop()
                if callee == ("callable", "Row"):
                    if names is not None and len(names) != value:
                        return None
                    stack.append(("row", items, names))
                elif callee[0] == "callable" and value == 2 and names is None:
                    stack.append(("op", callee[1], items[0], items[1]))
                else:
                    return None
            elif name == "BUILD_TUPLE":
                if len(stack) < value:
                    return None
                items = tuple(stack[len(stack) - value:])
                del stack[len(stack) - value:]
                stack.append(("tuple", items))
            elif name in _CONDITIONAL_JUMPS:
                target = at.get(value)
                if branched or not stack or stack[-1][0] != "cmp" or target is None \
                        or target <= position - 1:
                    return None
                condition = stack.pop()
                taken = run(target, list(stack), True)
                fallen = run(position, list(stack), True)
                if taken is None or fallen is None:
                    return None
                if name.endswith("IF_FALSE"):
                    return ("if", condition, fallen, taken)
                return ("if", condition, taken, fallen)
            elif name in _JUMPS:
                target = at.get(value)
                if target is None or target <= position - 1:
                    return None
                position = target
            elif name == "RETURN_VALUE":
                return stack[0] if len(stack) == 1 else None
            else:
                return None
        return None

    return run(0, [], False)


def _folds_whole(item: tuple, record_type: Any) -> bool:
    """A record folded as `a OP b` / `b OP a` under an OP associative over its declared
    type."""
    return item[0] == "op" and {item[2], item[3]} == {("arg", 0), ("arg", 1)} \
        and item[1] in _associative_ops(record_type)


def _folds_field(item: tuple, index: int, field_type: Any, name: Optional[str]) -> bool:
    """Field `index` of the result: `a[index]`, `b[index]`, or `a[index] OP b[index]` (or the
    other way round) under an OP associative over the field's declared type; `a.name` for
    `a[index]` when `name` is given."""
    keys = (index,) if name is None else (index, name)
    if item[0] == "field":
        return item[2] in keys
    if item[0] != "op" or item[2][0] != "field" or item[3][0] != "field":
        return False
    return item[2][2] in keys and item[3][2] in keys and {item[2][1], item[3][1]} == {0, 1} \
        and item[1] in _associative_ops(field_type)


def is_integral(type_info: Any) -> bool:
    """A declared BYTE, SHORT, INT or LONG: the exit makes its values Python ints, whose
    sums do not depend on their order (a float's do, in the last bits)."""
    return type(type_info) is BasicTypeInfo and type_info._basic_type in _INTEGRAL


def _associative_ops(type_info: Any) -> frozenset:
    if is_integral(type_info):
        return _INTEGRAL_OPS
    return _STRING_OPS if _is_string(type_info) else frozenset()
