"""Discovery of compatibility cases and the result of running one."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, List, Optional, Sequence, Union

PROGRAM_SUFFIX = ".py"
EXPECTED_SUFFIX = ".expected"

# Python files under the cases root that are not case programs.
_SKIP_PREFIXES = ("_", "test_", ".")
_SKIP_NAMES = {"conftest.py", "setup.py"}
_SKIP_DIRS = {"__pycache__", ".git", ".pytest_cache"}


@dataclass(frozen=True)
class Case:
    """One compatibility case: a PyFlink program and the file holding its expected stdout."""

    name: str          # path below the cases root without suffix, "/"-separated: "basic/map"
    program: Path      # NAME.py
    expected: Path     # NAME.expected (may not exist yet)

    @property
    def has_expected(self) -> bool:
        return self.expected.is_file()

    def read_expected(self) -> Optional[bytes]:
        """The recorded stdout, byte for byte, or None when nothing was recorded yet."""
        try:
            return self.expected.read_bytes()
        except FileNotFoundError:
            return None


@dataclass
class CaseResult:
    """The outcome of running (or comparing) one case."""

    case: Case
    passed: bool
    actual: Optional[bytes] = None   # stdout the run produced (None if it never ran)
    diff: str = ""                   # unified diff expected -> actual when they differ
    error: str = ""                  # why it failed besides the diff: exit code, exception, timeout
    duration: float = 0.0            # seconds spent running the program
    note: str = ""                   # extra information for the report (e.g. "recorded")
    crashed: bool = False            # the program did not finish cleanly (exit code, timeout, raise)

    @property
    def name(self) -> str:
        return self.case.name

    @property
    def status(self) -> str:
        return "PASS" if self.passed else "FAIL"


def case_for_program(program: Union[str, Path], root: Optional[Path] = None) -> Case:
    """The Case of one program file; its name is relative to `root` (default: its parent's parent)."""
    program = Path(program)
    if root is None:
        root = program.parent.parent
    rel = os.path.relpath(program.with_suffix(""), root)
    name = Path(rel).as_posix()
    return Case(name=name, program=program, expected=program.with_suffix(EXPECTED_SUFFIX))


def _is_program(path: Path) -> bool:
    return (path.suffix == PROGRAM_SUFFIX and path.name not in _SKIP_NAMES
            and not path.name.startswith(_SKIP_PREFIXES))


def discover_cases(root: Union[str, Path],
                   keywords: Optional[Union[str, Sequence[str]]] = None) -> List[Case]:
    """All cases under `root`, sorted by name.

    `root` may be a directory (searched recursively) or one case program. A case's name is
    its path below `root` without `.py`; for a single program it is `<parent dir>/<stem>`.
    With `keywords` (a substring or a list of them), only cases whose name contains at
    least one of them are returned.
    """
    root = Path(root)
    if root.is_file():
        cases = [case_for_program(root)] if root.suffix == PROGRAM_SUFFIX else []
    elif root.is_dir():
        cases = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames
                                 if d not in _SKIP_DIRS and not d.startswith("."))
            for filename in sorted(filenames):
                path = Path(dirpath) / filename
                if _is_program(path):
                    cases.append(case_for_program(path, root))
    else:
        raise FileNotFoundError("no such cases directory or file: %s" % root)
    if keywords:
        if isinstance(keywords, str):
            keywords = [keywords]
        cases = [c for c in cases if any(k in c.name for k in keywords)]
    return sorted(cases, key=lambda c: c.name)


def orphan_expected_files(root: Union[str, Path]) -> List[Path]:
    """`.expected` files without a program next to them (usually a renamed case)."""
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*" + EXPECTED_SUFFIX)
                  if not p.with_suffix(PROGRAM_SUFFIX).is_file()
                  and not any(part in _SKIP_DIRS for part in p.parts))


def names(cases: Iterable[Case]) -> List[str]:
    return [c.name for c in cases]


def to_bytes(stdout: Union[str, bytes, None]) -> bytes:
    if stdout is None:
        return b""
    if isinstance(stdout, bytes):
        return stdout
    return stdout.encode("utf-8", "surrogateescape")


def compare(case: Case, actual_stdout: Union[str, bytes], duration: float = 0.0) -> CaseResult:
    """Compare a run's stdout with the case's expected file, byte for byte.

    On a mismatch the result carries a unified diff (expected -> actual). A case without an
    expected file fails with an error saying so (record it with --reference ... --record).
    """
    from pyflink_on_spark.compat.report import unified_diff

    actual = to_bytes(actual_stdout)
    expected = case.read_expected()
    if expected is None:
        return CaseResult(case, False, actual=actual, duration=duration,
                          error="no expected output: %s does not exist (record it with "
                                "--reference PYTHON --record)" % case.expected)
    if actual == expected:
        return CaseResult(case, True, actual=actual, duration=duration)
    return CaseResult(case, False, actual=actual, duration=duration,
                      diff=unified_diff(expected, actual, case.name))


def record(case: Case, stdout: Union[str, bytes]) -> bool:
    """Write `stdout` as the case's expected output. Returns True if the file changed."""
    data = to_bytes(stdout)
    if case.read_expected() == data:
        return False
    tmp = case.expected.with_name(case.expected.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, case.expected)
    return True
