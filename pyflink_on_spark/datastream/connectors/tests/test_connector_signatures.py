"""Every class, method and enum member PyFlink 1.20 defines in the connector modules the shim
mirrors without running them (cassandra, elasticsearch, hybrid_source, jdbc, kinesis, pulsar,
rabbitmq) exists in the shim with the same parameter names, defaults and kind. The expected
side is the API inventory recorded from real PyFlink (data/pyflink_1_20_connector_api.txt)."""
import enum
import importlib
import inspect
import re
from pathlib import Path
from typing import List, Tuple

import pytest

INVENTORY = Path(__file__).parent / "data" / "pyflink_1_20_connector_api.txt"
PREFIX = "pyflink.datastream.connectors."


def _split_top_level(text: str) -> List[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return [p.strip() for p in parts]


def _parameter(text: str) -> Tuple[str, object]:
    """('name', default text or None) of `name: annotation = default`."""
    default = None
    depth = 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif depth == 0 and text[i:i + 3] == " = ":
            default = text[i + 3:].strip()
            text = text[:i]
            break
    name = text.split(":", 1)[0].strip()
    return name, default


def _entries():
    """(module, qualified name, parameters or None, tags) per inventory line."""
    entries = []
    for line in INVENTORY.read_text().splitlines():
        if not line.startswith(PREFIX):
            continue
        tags = ""
        tag_match = re.search(r"  \[([^\]]*)\]$", line)
        if tag_match:
            tags = tag_match.group(1)
            line = line[:tag_match.start()]
        dotted = line[len(PREFIX):]
        params = None
        if "(" in dotted:
            head, rest = dotted.split("(", 1)
            depth, end = 1, 0
            for end, ch in enumerate(rest):
                depth += {"(": 1, ")": -1}.get(ch, 0)
                if depth == 0:
                    break
            params = [_parameter(p) for p in _split_top_level(rest[:end])]
            dotted = head
        module, qualname = dotted.split(".", 1)
        entries.append((module, qualname, params, tags))
    return entries


ENTRIES = _entries()


def _resolve(module: str, qualname: str):
    owner = importlib.import_module("pyflink_on_spark.datastream.connectors." + module)
    parent = None
    for part in qualname.split("."):
        parent = owner
        owner = getattr(owner, part)
    return parent, owner


def test_the_inventory_was_read():
    modules = {m for m, _, _, _ in ENTRIES}
    assert modules == {"cassandra", "elasticsearch", "hybrid_source", "jdbc", "kinesis",
                       "pulsar", "rabbitmq"}
    assert len(ENTRIES) == 273


@pytest.mark.parametrize("module,qualname,params,tags", ENTRIES,
                         ids=["%s.%s" % (e[0], e[1]) for e in ENTRIES])
def test_name_exists_with_pyflinks_signature(module, qualname, params, tags):
    parent, obj = _resolve(module, qualname)
    if "enum member" in tags:
        assert isinstance(obj, enum.Enum) and obj.name == qualname.rsplit(".", 1)[1]
        return
    if params is None:   # a class
        assert inspect.isclass(obj)
        if tags.startswith("enum"):
            assert issubclass(obj, enum.Enum)
        bases = re.search(r"bases: (.*)$", tags)
        if bases:
            mro_names = {c.__name__ for c in obj.__mro__}
            for base in bases.group(1).split(", "):
                assert base in mro_names, "%s should derive from %s" % (qualname, base)
        return
    name = qualname.rsplit(".", 1)[1]
    raw = inspect.getattr_static(parent, name)
    if "staticmethod" in tags:
        assert isinstance(raw, staticmethod), "%s should be a staticmethod" % qualname
    if "abstract" in tags.split(";")[0].split(", ") or tags == "abstract":
        assert getattr(obj, "__isabstractmethod__", False), "%s should be abstract" % qualname
    signature = inspect.signature(obj)
    actual = [(p.name, None if p.default is inspect.Parameter.empty else repr(p.default))
              for p in signature.parameters.values()]
    assert actual == params
