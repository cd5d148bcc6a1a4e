"""`pyflink-on-spark migrate PATH...`: what a PyFlink codebase needs to run on Spark."""
from __future__ import annotations

import argparse
import os
import sys
from typing import List, Optional

from pyflink_on_spark.migrate.analyzer import python_files
from pyflink_on_spark.migrate.report import build_report, to_json, to_markdown, to_text
from pyflink_on_spark.migrate.rewrite import rewrite_file

EXIT_OK = 0
EXIT_BLOCKED = 1          # --check: something is unsupported / JVM-only / Table API
EXIT_USAGE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="job files or directories (their local imports are followed)")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text",
                        help="report format (default: a summary for the terminal)")
    parser.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when anything is unsupported, JVM-only or Table API")
    parser.add_argument("--rewrite", action="store_true",
                        help="rewrite `pyflink` imports to `pyflink_on_spark` in place")
    parser.add_argument("--dry-run", action="store_true",
                        help="with --rewrite: print the unified diff, change nothing")


def run_migrate(args: argparse.Namespace) -> int:
    missing = [p for p in args.paths if not os.path.exists(p)]
    if missing:
        print("pyflink-on-spark migrate: no such file or directory: %s" % ", ".join(missing),
              file=sys.stderr)
        return EXIT_USAGE
    if args.dry_run and not args.rewrite:
        print("pyflink-on-spark migrate: --dry-run goes with --rewrite", file=sys.stderr)
        return EXIT_USAGE
    if args.rewrite:
        return _rewrite(args)
    report = build_report(args.paths)
    render = {"text": to_text, "json": to_json, "markdown": to_markdown}[args.format]
    text = render(report)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return EXIT_BLOCKED if args.check and report.has_blocking else EXIT_OK


def _rewrite(args: argparse.Namespace) -> int:
    changed = 0
    for path in python_files(args.paths):
        result = rewrite_file(path, os.path.relpath(path), write=not args.dry_run)
        if args.dry_run:
            sys.stdout.write(result.diff())
        for line, why in result.skipped:
            print("%s:%d: not rewritten: %s" % (os.path.relpath(path), line, why),
                  file=sys.stderr)
        changed += result.changed
    print("%s %d file(s)" % ("would rewrite" if args.dry_run else "rewrote", changed),
          file=sys.stderr)
    return EXIT_OK


def migrate_main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="pyflink-on-spark migrate",
                                     description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run_migrate(parser.parse_args(argv))
