"""`--rewrite`: `pyflink` imports -> `pyflink_on_spark`, touching nothing else.

A token-level rewrite with the standard library's `tokenize` (chosen over LibCST to keep the
tool dependency-free: the edit is confined to import statements, which tokens identify
exactly). The only edit is the first NAME token `pyflink` of a module name in
`from pyflink... import ...` and `import pyflink... as alias`, replaced at its exact position;
every other byte (comments, spacing, continuation lines, strings mentioning pyflink) stays.
`import pyflink.x` without `as` binds the name `pyflink` itself, which later code uses
(`pyflink.x.Y`): such statements are reported in `Rewrite.skipped`, not rewritten.
"""
from __future__ import annotations

import difflib
import io
import tokenize
from dataclasses import dataclass, field
from typing import List, Tuple

OLD = "pyflink"
NEW = "pyflink_on_spark"


@dataclass
class Rewrite:
    path: str
    original: str
    rewritten: str
    skipped: List[Tuple[int, str]] = field(default_factory=list)   # (line, why)

    @property
    def changed(self) -> bool:
        return self.original != self.rewritten

    def diff(self) -> str:
        return "".join(difflib.unified_diff(
            self.original.splitlines(True), self.rewritten.splitlines(True),
            "a/" + self.path, "b/" + self.path))


def _logical_lines(tokens: List[tokenize.TokenInfo]) -> List[List[tokenize.TokenInfo]]:
    lines, current = [], []
    for tok in tokens:
        if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            if current:
                lines.append(current)
            current = []
        elif tok.type not in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            current.append(tok)
    if current:
        lines.append(current)
    return lines


def _split_statements(line: List[tokenize.TokenInfo]) -> List[List[tokenize.TokenInfo]]:
    out, current = [], []
    for tok in line:
        if tok.type == tokenize.OP and tok.string == ";":
            out.append(current)
            current = []
        else:
            current.append(tok)
    out.append(current)
    return [s for s in out if s]


def _module_starts(statement: List[tokenize.TokenInfo]
                   ) -> List[Tuple[tokenize.TokenInfo, bool]]:
    """The first NAME token of each module name in an import statement, with whether the
    module is bound under an `as` alias (or is a from-import, which binds no module name)."""
    words = [t for t in statement if t.type != tokenize.NL]
    # skip a leading `async`/decorators never occur here; statements inside `if` bodies
    # start after INDENT tokens (already dropped)
    if not words or words[0].type != tokenize.NAME:
        return []
    if words[0].string == "from":
        if len(words) > 1 and words[1].type == tokenize.NAME:
            return [(words[1], True)]
        return []
    if words[0].string != "import":
        return []
    starts = []
    i = 1
    while i < len(words):
        start = words[i]
        j = i
        while j + 2 < len(words) and words[j + 1].string == "." and \
                words[j + 2].type == tokenize.NAME:
            j += 2
        aliased = j + 2 < len(words) and words[j + 1].string == "as"
        if start.type == tokenize.NAME:
            starts.append((start, aliased))
        k = j + 1
        while k < len(words) and words[k].string != ",":
            k += 1
        i = k + 1
    return starts


def rewrite_source(path: str, source: str) -> Rewrite:
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    edits: List[Tuple[int, int]] = []           # (row, col) of a `pyflink` token to replace
    skipped: List[Tuple[int, str]] = []
    for line in _logical_lines(tokens):
        for statement in _split_statements(line):
            for start, bound_elsewhere in _module_starts(statement):
                if start.string != OLD:
                    continue
                if not bound_elsewhere:
                    skipped.append((start.start[0], "`import pyflink...` without `as` binds "
                                    "the name `pyflink`; rewrite it by hand (e.g. `import "
                                    "pyflink_on_spark.datastream as ...`)"))
                    continue
                edits.append(start.start)
    lines = source.splitlines(True)
    for row, col in sorted(edits, reverse=True):
        text = lines[row - 1]
        assert text[col:col + len(OLD)] == OLD
        lines[row - 1] = text[:col] + NEW + text[col + len(OLD):]
    return Rewrite(path, source, "".join(lines), skipped)


def rewrite_file(path: str, display: str, write: bool) -> Rewrite:
    with open(path, encoding="utf-8") as f:
        source = f.read()
    result = rewrite_source(display, source)
    if write and result.changed:
        with open(path, "w", encoding="utf-8") as f:
            f.write(result.rewritten)
    return result
