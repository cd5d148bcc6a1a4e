"""PASS/FAIL lines, diffs and the summary line of a compat run."""
from __future__ import annotations

import difflib
import sys
from typing import IO, Iterable, List, Optional, Sequence, Union

from pyflink_on_spark.compat.cases import CaseResult

_NO_EOL = "\\ No newline at end of file\n"
_INDENT = "    "


def _lines(data: Union[str, bytes]) -> List[str]:
    if isinstance(data, bytes):
        data = data.decode("utf-8", "surrogateescape")
    return data.splitlines(keepends=True)


def unified_diff(expected: Union[str, bytes], actual: Union[str, bytes], name: str,
                 context: int = 3) -> str:
    """A unified diff from the expected to the actual output.

    Line endings are kept, so a difference in them (or a missing final newline, marked as
    in `diff -u`) shows up too. Returns "" when the two are equal.
    """
    a, b = _lines(expected), _lines(actual)
    out = []
    for line in difflib.unified_diff(a, b, fromfile="%s.expected" % name,
                                     tofile="%s (actual)" % name, n=context):
        if line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n" + _NO_EOL)
    if not out and a != b:  # only possible if the texts differ in a way difflib ignores
        out.append("outputs differ\n")
    return "".join(out)


def result_line(result: CaseResult) -> str:
    """`PASS name` or `FAIL name`."""
    return "%s %s" % (result.status, result.name)


def detail_lines(result: CaseResult) -> List[str]:
    """The indented explanation printed under a FAIL line (error, then diff), or a note."""
    lines: List[str] = []
    if result.note:
        lines.extend(_INDENT + l for l in result.note.splitlines())
    if result.passed:
        return lines
    if result.error:
        lines.extend(_INDENT + l for l in result.error.splitlines())
    if result.diff:
        lines.extend(_INDENT + l for l in result.diff.rstrip("\n").splitlines())
    return lines


def summary_line(results: Sequence[CaseResult]) -> str:
    """Exactly `N passed, M failed`."""
    passed = sum(1 for r in results if r.passed)
    return "%d passed, %d failed" % (passed, len(results) - passed)


def format_report(results: Sequence[CaseResult]) -> str:
    """The whole report: one line per case, failure details under it, the summary last."""
    out: List[str] = []
    for r in results:
        out.append(result_line(r))
        out.extend(detail_lines(r))
    out.append(summary_line(results))
    return "\n".join(out) + "\n"


class Reporter:
    """Prints a report as the results arrive (one case at a time), then the summary."""

    def __init__(self, stream: Optional[IO[str]] = None, verbose: bool = False):
        self._stream = stream
        self.verbose = verbose
        self.results: List[CaseResult] = []

    @property
    def stream(self) -> IO[str]:
        # resolved at each write: a case run on the shim swaps sys.stdout while it runs
        return self._stream if self._stream is not None else sys.stdout

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def case_done(self, result: CaseResult) -> None:
        self.results.append(result)
        line = result_line(result)
        if self.verbose:
            line += " (%.1f s)" % result.duration
        self._write("\n".join([line] + detail_lines(result)) + "\n")

    def add_all(self, results: Iterable[CaseResult]) -> None:
        for r in results:
            self.case_done(r)

    def finish(self, extra: Iterable[str] = ()) -> str:
        """Print any extra lines, then the summary line (always the last line)."""
        summary = summary_line(self.results)
        self._write("".join(line + "\n" for line in extra) + summary + "\n")
        return summary

    @property
    def failed(self) -> int:
        return sum(1 for r in self.results if not r.passed)
