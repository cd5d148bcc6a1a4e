"""`pyflink-on-spark plan job.py`: run the script with execute() captured (the jobs are
compiled, never run, and no SparkSession starts), then draw each job."""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import traceback
import webbrowser
from typing import Callable, Dict, List

from pyflink_on_spark.cli.plan.dot import render_dot
from pyflink_on_spark.cli.plan.graphviz import GraphvizMissing, render_with_graphviz
from pyflink_on_spark.cli.plan.html import render_html
from pyflink_on_spark.cli.plan.mermaid import render_mermaid
from pyflink_on_spark.cli.plan.model import PlanPicture, picture_of
from pyflink_on_spark.cli.plan.text import render_text
from pyflink_on_spark.private_files import UnsafePathError, open_private, shared_temp_dir

TEXT_FORMATS: Dict[str, Callable[[PlanPicture], str]] = {
    "text": render_text, "mermaid": render_mermaid, "dot": render_dot}
IMAGE_FORMATS = ("svg", "png")


class NoJobDefined(RuntimeError):
    pass


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=sorted(TEXT_FORMATS) + list(IMAGE_FORMATS),
                        default="text", help="what to draw (default: text)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write here (several jobs: FILE-1, FILE-2...; default: stdout "
                             "for text formats, JOB-plan.svg/.png beside you for images)")
    parser.add_argument("--open", action="store_true",
                        help="write an HTML page (picture + tables of operators and stages), "
                             "print its path, and open it if a browser is configured "
                             "($BROWSER)")
    parser.add_argument("script", help="the job script (its imports may say pyflink...)")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")


def capture_pictures(script: str, argv: List[str]) -> List[PlanPicture]:
    """The pictures of the jobs the script runs, one per execute() call, without running
    them. The script's own prints go to stderr (stdout is the picture's)."""
    from pyflink_on_spark.cli.script_runner import run_script
    from pyflink_on_spark.spark.entry import capture_jobs
    with capture_jobs() as jobs, contextlib.redirect_stdout(sys.stderr):
        try:
            run_script(script, argv)
        except SystemExit as e:
            if e.code not in (None, 0):
                raise
    if not jobs:
        raise NoJobDefined(
            "%s defined no job: no execute(), execute_async() or execute_and_collect() ran"
            % script)
    return [picture_of(j.job, j.name, j.unbounded) for j in jobs]


def _numbered(path: str, index: int, count: int) -> str:
    if count == 1:
        return path
    stem, ext = os.path.splitext(path)
    return "%s-%d%s" % (stem, index, ext)


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)


def _html_path(args) -> str:
    if args.output:
        return args.output if args.output.endswith(".html") \
            else os.path.splitext(args.output)[0] + ".html"
    # a fixed name in the shared temp directory: the user's own directory (0700), so no one
    # else can put a symlink where the page is written
    return os.path.join(shared_temp_dir("pyflink-on-spark-plans"),
                        os.path.splitext(os.path.basename(args.script))[0] + ".html")


def run_plan(args) -> int:
    if not os.path.isfile(args.script):
        print("pyflink-on-spark: no such file: %s" % args.script, file=sys.stderr)
        return 2
    try:
        pictures = capture_pictures(args.script, args.args)
    except NoJobDefined as e:
        print("pyflink-on-spark plan: %s" % e, file=sys.stderr)
        return 2
    except BaseException:
        traceback.print_exc()
        return 1
    try:
        if args.open:
            return _open_page(args, pictures)
        if args.format in TEXT_FORMATS:
            return _write_text(args, pictures)
        return _write_images(args, pictures)
    except GraphvizMissing as e:
        print("pyflink-on-spark plan: %s" % e, file=sys.stderr)
        return 3
    except UnsafePathError as e:      # the temp page's directory or name is someone else's
        print(e, file=sys.stderr)
        return 2


def _write_text(args, pictures: List[PlanPicture]) -> int:
    render = TEXT_FORMATS[args.format]
    if args.output:
        for index, picture in enumerate(pictures, start=1):
            path = _numbered(args.output, index, len(pictures))
            _write(path, render(picture).encode())
            print(path)
        return 0
    comment = "%%" if args.format == "mermaid" else "//" if args.format == "dot" else "#"
    for index, picture in enumerate(pictures, start=1):
        if len(pictures) > 1:
            sys.stdout.write("%s job %d of %d: %s\n" % (comment, index, len(pictures),
                                                       picture.job_name))
        sys.stdout.write(render(picture))
    return 0


def _write_images(args, pictures: List[PlanPicture]) -> int:
    default = os.path.splitext(os.path.basename(args.script))[0] + "-plan." + args.format
    target = args.output or default
    for index, picture in enumerate(pictures, start=1):
        path = _numbered(target, index, len(pictures))
        _write(path, render_with_graphviz(render_dot(picture), args.format))
        print(path)
    return 0


def _open_page(args, pictures: List[PlanPicture]) -> int:
    path = os.path.abspath(_html_path(args))
    page = render_html(pictures, os.path.basename(args.script)).encode()
    if args.output:
        _write(path, page)          # the user's own file: the umask's mode
    else:
        with open_private(path, "wb") as handle:
            handle.write(page)
    print(path)
    if os.environ.get("BROWSER"):
        webbrowser.open("file://" + path)
    return 0
