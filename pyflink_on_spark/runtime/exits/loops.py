"""The per-record loop of an exit, compiled once per exit for its map and declared type.

Every record leaving a stage passes its exit's loop (chunked.py, key_sorted.py): the map
fused into the exit, the declared type's converter, the key selector, the destination. What
varies between exits (is there a map, a converter, a test that the converter would leave a
value as it is) is settled when the loop is built, so the source of the loop has only the
steps its exit takes, and the converter's test is written into it rather than called (the
call cost 0.07 us per record on top of the test: map_keyby_reduce's exit, engine alone,
0.71 -> 0.64 us per record).

The loop also learns, for free, that a value passing the test is made of exact builtin
classes only (an int in range, a str, a tuple of those...), which is what marshal writes
and reads back as it was (runtime/boundary.py): the exits use that to skip the check of a
chunk, or to marshal a record as soon as it arrives.

The templates (templates.py) are plain Python with named hooks (`$prepare`, and the
others each template names); the names they use come from the namespace the exit passes.
Tracebacks through a loop show its source (linecache).
"""
from __future__ import annotations

import linecache
from string import Template
from typing import Callable, Mapping, Optional

from pyflink_on_spark.common._basic_values import unchanged_when
from pyflink_on_spark.runtime.boundary import MARSHAL_LEAVES

# A field of a tuple type whose field has no converter passes a value of these classes on as
# it is (None goes to the converter, which decides what None means there)
_LEAF_TEST = "{v}.__class__ in _EXACT_LEAVES"
EXACT_LEAVES = MARSHAL_LEAVES - {type(None)}


# Without a declared type a value leaves as it is: the test only looks at what it is made of,
# for the shapes records mostly have (a builtin value, a pair or triple of them)
_UNDECLARED_TEST = """_kind = value.__class__
if _kind is tuple:
    _n = len(value)
    if _n == 2:
        _f0, _f1 = value
        exact_value = _f0.__class__ in _MARSHAL_LEAVES and _f1.__class__ in _MARSHAL_LEAVES
    elif _n == 3:
        _f0, _f1, _f2 = value
        exact_value = _f0.__class__ in _MARSHAL_LEAVES and \\
            _f1.__class__ in _MARSHAL_LEAVES and _f2.__class__ in _MARSHAL_LEAVES
    else:
        exact_value = False
else:
    exact_value = _kind in _MARSHAL_LEAVES"""


def exact_test(convert: Optional[Callable]) -> Optional[str]:
    """Statements over a record named `value` that set `exact_value`: True only when
    `convert` (None: no declared type) would return the value itself and the value is made
    of exact builtin classes (so marshal-safe). None when `convert` has no such test."""
    if convert is None:
        return _UNDECLARED_TEST
    test = unchanged_when(convert)
    if test is not None:
        return "exact_value = %s" % test.format(v="value")
    fields = getattr(convert, "unchanged_fields", None)
    if fields is None:
        return None
    names = ["_f%d" % i for i in range(len(fields))]
    tests = [(_LEAF_TEST if test is None else test).format(v=name)
             for name, test in zip(names, fields)]
    # the tuple's length is the unpacking's to check, not len()'s: a call less a record
    # (~190 instructions of the ~1,350 the test costs a pair of LONGs, callgrind) in every
    # exit of a declared tuple type; a tuple of another length raises ValueError there
    # (caught: not exact, the converter decides), as a one-field tuple's unpacking does
    return ("exact_value = False\n"
            "if value.__class__ is tuple:\n"
            "    try:\n"
            "        %s, = value\n"
            "    except ValueError:\n"
            "        pass\n"
            "    else:\n"
            "        exact_value = %s" % (", ".join(names), " and ".join(tests)))


def prepare_source(convert: Optional[Callable], has_map: bool, stamps: str = "") -> str:
    """The loop's first steps for one record named `value`: the fused map (`user_map`, its
    errors through `map_error`), the fused timestamp assigner's `stamps` (templates.
    STAMP_SOURCE, or nothing), then the declared type's converter (`convert`, errors
    through `user_error`), called only when its test fails. They leave `exact_value` set
    (always False when exact_test(convert) is None)."""
    lines = []
    if has_map:
        lines += ["try:",
                  "    value = user_map(value)",
                  "except Exception as e:",
                  "    raise map_error(e) from None"]
    lines += stamps.splitlines()
    test = exact_test(convert)
    lines += test.splitlines() if test is not None else ["exact_value = False"]
    if convert is not None:
        call = ["try:",
                "    value = convert(value)",
                "except Exception as e:",
                "    raise user_error(e) from None"]
        lines += ["if not exact_value:"] + ["    " + line for line in call] \
            if test is not None else call
    return "\n".join(lines)


# source -> (code, file name): a task builds its exits anew (a streaming job: every
# micro-batch), and a worker runs many tasks; their loops are compiled, and their source
# kept for tracebacks, once per distinct source
_code_of: dict = {}


def fill(template: str, hooks: Mapping[str, str]) -> str:
    """`template` with its hooks (`$name`, templates.py) filled from `hooks`: a hook alone
    on its line by the lines of its snippet, each indented as the hook (none for an empty
    snippet), a hook inside a line by its text. Snippets go in as they are."""
    lines = []
    for line in template.splitlines():
        stripped = line.strip()
        if stripped.startswith("$") and stripped[1:].isidentifier():
            indent = line[:len(line) - len(line.lstrip())]
            lines += [indent + part if part else part
                      for part in hooks[stripped[1:]].splitlines()]
        else:
            lines.append(Template(line).substitute(hooks))
    return "\n".join(lines)


def compile_loop(template: str, namespace: dict, convert: Optional[Callable],
                 has_map: bool, hooks: Optional[Mapping[str, str]] = None,
                 stamps: str = "") -> Callable:
    """The function the template defines (its first `def`), with its hooks filled
    (fill): `$prepare` by prepare_source's statements (with `stamps`), the others by
    `hooks`' snippets. `namespace` gives the names the source uses."""
    source = fill(template, dict(hooks or {},
                                 prepare=prepare_source(convert, has_map, stamps))) + "\n"
    compiled = _code_of.get(source)
    if compiled is None:
        filename = "<exit loop %d>" % (len(_code_of) + 1)
        compiled = _code_of[source] = (compile(source, filename, "exec"), filename)
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    scope = dict(namespace, _EXACT_LEAVES=EXACT_LEAVES, _MARSHAL_LEAVES=MARSHAL_LEAVES,
                 convert=convert)
    exec(compiled[0], scope)
    name = source.split("def ", 1)[1].split("(", 1)[0]
    return scope[name]
