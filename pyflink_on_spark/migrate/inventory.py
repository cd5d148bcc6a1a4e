"""PyFlink 1.20's public API as data: what a name is, a class's bases, what a method returns.

Parsed from data/pyflink-1.20-api-inventory.txt, a listing generated with `inspect` from the
apache-flink 1.20.5 wheel (every public class, method and function of pyflink.datastream and
pyflink.common). The analyser uses it as PyFlink's type model (so `env.add_jars` resolves to
StreamExecutionEnvironment.add_jars through get_execution_environment's return annotation),
and status.py gives every name in it a status.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, List, Optional, Tuple

INVENTORY_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                              "pyflink-1.20-api-inventory.txt")

CLASS_KINDS = ("class", "abstract class", "enum")


@dataclass
class ApiEntry:
    """One name of PyFlink's API (`module.Class.member`)."""
    name: str
    kind: str                      # class / abstract class / enum / enum member / method /
                                   # staticmethod / function / export
    module: str
    bases: Tuple[str, ...] = ()    # classes: base class names as listed (short names)
    returns: Optional[str] = None  # callables: the return annotation as written
    params: Tuple[Tuple[str, str], ...] = ()   # (parameter, annotation text or "") in order
    target: Optional[str] = None   # exports: the canonical name


class Inventory:
    """Lookups over the parsed listing."""

    def __init__(self, entries: Dict[str, ApiEntry], modules: List[str]):
        self.entries = entries
        self.modules = set(modules)
        self._by_short: Dict[str, List[str]] = {}
        # lookups repeat across thousands of analysed files: memoise them
        self._resolved: Dict[Tuple[str, str], Tuple[str, ...]] = {}
        self._members: Dict[Tuple[str, str], Optional[str]] = {}
        self._returns: Dict[str, Tuple[str, ...]] = {}
        for name, entry in entries.items():
            if entry.kind in CLASS_KINDS:
                self._by_short.setdefault(name.rsplit(".", 1)[1], []).append(name)
                # nested classes are also known by their qualified tail (Outer.Inner)
                qual = name[len(entry.module) + 1:]
                if "." in qual:
                    self._by_short.setdefault(qual, []).append(name)

    # -- names --------------------------------------------------------------------------------
    def names(self) -> List[str]:
        return sorted(self.entries)

    def canonical(self, name: str) -> str:
        """An export (`pyflink.datastream.DataStream`) -> its defining name."""
        for _ in range(5):
            if name in self.entries and not self.entries[name].target:
                return name
            parts = name.split(".")
            for i in range(len(parts), 1, -1):
                entry = self.entries.get(".".join(parts[:i]))
                if entry is not None and entry.target:
                    name = ".".join([entry.target] + parts[i:])
                    break
            else:
                return name
        return name

    def get(self, name: str) -> Optional[ApiEntry]:
        return self.entries.get(self.canonical(name))

    def is_class(self, name: str) -> bool:
        entry = self.get(name)
        return entry is not None and entry.kind in CLASS_KINDS

    def module_of(self, name: str) -> Optional[str]:
        parts = name.split(".")
        for i in range(len(parts), 0, -1):
            prefix = ".".join(parts[:i])
            if prefix in self.modules:
                return prefix
        return None

    # -- classes ------------------------------------------------------------------------------
    def resolve_class(self, text: str, context: str) -> Tuple[str, ...]:
        """Class names an annotation or base name written in `context` (a dotted name) means.
        Unions give several; unknown names give none."""
        key = (text, context)
        if key not in self._resolved:
            self._resolved[key] = self._resolve_class(text, context)
        return self._resolved[key]

    def _resolve_class(self, text: str, context: str) -> Tuple[str, ...]:
        text = text.strip()
        if not text:
            return ()
        m = re.fullmatch(r"(?:typing\.)?(Union|Optional)\[(.*)\]", text)
        if m:
            out: List[str] = []
            for part in _split_top(m.group(2)):
                out += [c for c in self.resolve_class(part, context) if c not in out]
            return tuple(out)
        m = re.fullmatch(r"ForwardRef\('(.*)'\)", text)
        if m:
            text = m.group(1)
        text = text.strip("'\"")
        text = re.sub(r"\[.*\]$", "", text)          # TypeSerializer[TimeWindow] -> class
        if text.startswith("pyflink."):
            name = self.canonical(text)
            return (name,) if self.is_class(name) else ()
        # relative to the enclosing classes and the module, innermost first
        parts = context.split(".")
        for i in range(len(parts), 0, -1):
            candidate = ".".join(parts[:i]) + "." + text
            if self.is_class(candidate):
                return (self.canonical(candidate),)
        found = self._by_short.get(text, [])
        return (found[0],) if len(found) == 1 else ()

    def bases(self, cls: str) -> Tuple[str, ...]:
        entry = self.get(cls)
        if entry is None:
            return ()
        out: List[str] = []
        for base in entry.bases:
            context = cls.rsplit(".", 1)[0]
            out += [b for b in self.resolve_class(base, context) if b != cls]
        return tuple(out)

    def mro(self, cls: str) -> List[str]:
        order: List[str] = []
        todo = [self.canonical(cls)]
        while todo:
            current = todo.pop(0)
            if current in order:
                continue
            order.append(current)
            todo += list(self.bases(current))
        return order

    def member(self, cls: str, attr: str) -> Optional[str]:
        """The defining name of `cls.attr`, searching the bases as Python would."""
        key = (cls, attr)
        if key not in self._members:
            self._members[key] = next((klass + "." + attr for klass in self.mro(cls)
                                       if klass + "." + attr in self.entries), None)
        return self._members[key]

    def returns(self, name: str) -> Tuple[str, ...]:
        """Classes a callable returns (from its annotation; a class called returns itself)."""
        if name not in self._returns:
            self._returns[name] = self._returns_uncached(name)
        return self._returns[name]

    def _returns_uncached(self, name: str) -> Tuple[str, ...]:
        entry = self.get(name)
        if entry is None:
            return ()
        if entry.kind in CLASS_KINDS:
            return (entry.name,)
        if entry.returns:
            return self.resolve_class(entry.returns, entry.name.rsplit(".", 1)[0])
        return ()

    def param_types(self, method: str) -> List[Tuple[str, ...]]:
        """Per positional parameter (self included), the classes its annotation names."""
        entry = self.get(method)
        if entry is None:
            return []
        context = entry.name.rsplit(".", 1)[0]
        return [self.resolve_class(annotation, context) if annotation else ()
                for _pname, annotation in entry.params]


def _split_top(text: str) -> List[str]:
    """Split at commas outside brackets/parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _matching_paren(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


def parse_line(line: str, module: str) -> ApiEntry:
    paren = line.find("(")
    space = line.find(" ")
    if paren != -1 and (space == -1 or paren < space):
        name = line[:paren]
        close = _matching_paren(line, paren)
        signature = line[paren + 1:close]
        rest = line[close + 1:]
        returns = None
        m = re.match(r"\s*->\s*(.*?)(?:\s{2}\[[^\]]*\])?\s*$", rest)
        if m:
            returns = m.group(1).strip()
        tags = re.findall(r"\[([^\]]*)\]\s*$", rest)
        kind = "method"
        if tags and "staticmethod" in tags[0]:
            kind = "staticmethod"
        elif tags and "function" in tags[0]:
            kind = "function"
        params: List[Tuple[str, str]] = []
        for part in _split_top(signature):
            pname, _, annotation = part.partition(":")
            annotation = annotation.split("=")[0].strip()
            pname = pname.split("=")[0].strip().lstrip("*")
            params.append((pname, annotation))
        return ApiEntry(name, kind, module, returns=returns, params=tuple(params))
    name, _, tag_text = line.partition(" ")
    tag = tag_text.strip().strip("[]")
    if tag.startswith("export of "):
        return ApiEntry(name, "export", module, target=tag[len("export of "):].strip())
    kind, _, bases = tag.partition(";")
    bases = bases.strip()
    base_names: Tuple[str, ...] = ()
    if bases.startswith("bases:"):
        base_names = tuple(b.strip() for b in bases[len("bases:"):].split(",") if b.strip())
    return ApiEntry(name, kind.strip(), module, bases=base_names)


@lru_cache(maxsize=1)
def load_inventory(path: str = INVENTORY_PATH) -> Inventory:
    entries: Dict[str, ApiEntry] = {}
    modules: List[str] = []
    module = ""
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("## "):
                module = line[3:].strip()
                modules.append(module)
                continue
            if not line.strip() or line.startswith("#"):
                continue
            entry = parse_line(line.strip(), module)
            entries.setdefault(entry.name, entry)
    return Inventory(entries, modules)
