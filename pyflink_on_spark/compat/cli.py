"""`pyflink-on-spark compat [DIR] [--reference PYTHON] [--record] [-k SUBSTRING]`."""
from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterator, List, Optional

from pyflink_on_spark.compat.cases import (Case, CaseResult, discover_cases,
                                           orphan_expected_files, record)
from pyflink_on_spark.compat.reference import DEFAULT_TIMEOUT, resolve_python, run_reference
from pyflink_on_spark.compat.report import Reporter

DEFAULT_DIR = os.path.join("compat_tests", "cases")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pyflink-on-spark compat",
        description="Run compatibility cases (PyFlink programs with their expected stdout) "
                    "on the shim, or with --reference on real PyFlink.")
    p.add_argument("dir", nargs="?", default=None,
                   help="cases directory or one case program (default: %s in the current "
                        "directory, else the source checkout's)" % DEFAULT_DIR)
    p.add_argument("--reference", metavar="PYTHON",
                   help="run the cases on real PyFlink with this interpreter "
                        "(e.g. /opt/venvs/flink/bin/python) instead of on the shim")
    p.add_argument("--record", action="store_true",
                   help="with --reference: write each case's expected output from this run")
    p.add_argument("-k", dest="keywords", action="append", metavar="SUBSTRING",
                   help="only cases whose name contains SUBSTRING (repeatable: any of them)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                   help="seconds per case on the reference (default: %(default).0f)")
    p.add_argument("-j", "--jobs", type=int, default=1,
                   help="reference cases to run at the same time (default: 1)")
    p.add_argument("--remote", metavar="sc://HOST:PORT",
                   help="run the cases on the shim through this Spark Connect server")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    p.add_argument("-v", "--verbose", action="store_true", help="show each case's duration")
    return p


def default_cases_dir() -> Optional[str]:
    """compat_tests/cases of the current directory, else of the checkout this package was
    installed from (editable install), else None."""
    if os.path.isdir(DEFAULT_DIR):
        return DEFAULT_DIR
    import pyflink_on_spark
    checkout = os.path.dirname(os.path.dirname(os.path.abspath(pyflink_on_spark.__file__)))
    candidate = os.path.join(checkout, DEFAULT_DIR)
    return candidate if os.path.isdir(candidate) else None


def _run_reference_cases(cases: List[Case], python: str, timeout: float,
                         jobs: int) -> Iterator[CaseResult]:
    """Reference results in case order (runs up to `jobs` cases concurrently)."""
    if jobs <= 1:
        for case in cases:
            yield run_reference(case, python, timeout)
        return
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_reference, case, python, timeout) for case in cases]
        for f in futures:
            yield f.result()


def _record_result(result: CaseResult) -> CaseResult:
    """--record: a reference run that exited cleanly becomes the expected output."""
    if result.crashed or result.actual is None:
        return result  # failed run: nothing recorded, the FAIL explains why
    changed = record(result.case, result.actual)
    old_diff = result.diff
    result.passed, result.diff, result.error = True, "", ""
    if changed:
        result.note = "recorded %s" % result.case.expected
        if old_diff:
            result.note += " (changed):\n" + old_diff.rstrip("\n")
    return result


def compat_main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.remote and args.reference:
        print("pyflink-on-spark compat: --remote runs the shim; it does not go with "
              "--reference", file=sys.stderr)
        return 2
    if args.record and not args.reference:
        print("pyflink-on-spark compat: --record requires --reference PYTHON", file=sys.stderr)
        return 2
    if args.reference:
        try:
            python = resolve_python(args.reference)
        except FileNotFoundError as e:
            print("pyflink-on-spark compat: %s" % e, file=sys.stderr)
            return 2
    if args.dir is None:
        args.dir = default_cases_dir()
        if args.dir is None:
            print("pyflink-on-spark compat: no %s here or in the source checkout; pass the "
                  "cases directory: pyflink-on-spark compat PATH/TO/compat_tests/cases"
                  % DEFAULT_DIR, file=sys.stderr)
            return 2
    try:
        cases = discover_cases(Path(args.dir), args.keywords)
    except FileNotFoundError as e:
        print("pyflink-on-spark compat: %s" % e, file=sys.stderr)
        return 2
    if args.list:
        for case in cases:
            print(case.name + ("" if case.has_expected else "  (no expected output)"))
        return 0

    reporter = Reporter(verbose=args.verbose)
    if args.reference:
        results = _run_reference_cases(cases, python, args.timeout, args.jobs)
        for result in results:
            reporter.case_done(_record_result(result) if args.record else result)
    else:
        from pyflink_on_spark.compat.shim import run_shim
        if args.remote:
            import dataclasses
            from pyflink_on_spark.spark import entry
            entry.set_run_options(dataclasses.replace(entry.run_options(), remote=args.remote))
        for case in cases:
            reporter.case_done(run_shim(case))

    extra = []
    if not cases:
        extra.append("no cases found in %s%s" % (
            args.dir, " matching %s" % " or ".join(map(repr, args.keywords))
            if args.keywords else ""))
    if args.record:
        written = sum(1 for r in reporter.results if r.note.startswith("recorded"))
        extra.append("recorded %d expected file(s), %d unchanged"
                     % (written, sum(1 for r in reporter.results if r.passed) - written))
    if args.reference and cases:
        # a PASS here is the reference run's: say so, the shim was not run
        extra.append("these cases ran on %s only; check the shim against them with: "
                     "pyflink-on-spark compat %s%s" % (
                         args.reference, args.dir,
                         "".join(" -k %s" % k for k in args.keywords or ())))
    orphans = orphan_expected_files(Path(args.dir))
    if orphans:
        extra.append("expected files without a program: "
                     + ", ".join(str(p) for p in orphans))
    reporter.finish(extra)
    return 0 if cases and reporter.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(compat_main())
