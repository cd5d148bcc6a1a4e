"""Run every corpus program on the shim and on real PyFlink; compare with the migrate verdict.

Not a test (slow: a JVM per program). `python -m pyflink_on_spark.migrate.tests.agreement
--pyflink-python /opt/venvs/flink/bin/python --out DIR` writes DIR/<name>.{shim,flink}.{out,rc}
and prints the agreement table (Markdown) that docs/migrate.md shows.

A program "runs" when it exits 0 within the time limit; outputs agree when the sorted lines
of stdout are equal (print sinks of parallel subtasks interleave in any order).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import List, Optional, Tuple

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
TIMEOUT_S = 240


def _run(cmd: List[str], out_prefix: str, env: Optional[dict] = None
         ) -> Tuple[Optional[int], str]:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S,
                              stdin=subprocess.DEVNULL, env=env)
        rc: Optional[int] = done.returncode
        stdout, stderr = done.stdout, done.stderr
    except subprocess.TimeoutExpired as e:
        rc = None
        stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        stderr = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
    with open(out_prefix + ".out", "w") as f:
        f.write(stdout)
    with open(out_prefix + ".err", "w") as f:
        f.write(stderr)
    with open(out_prefix + ".rc", "w") as f:
        f.write("timeout" if rc is None else str(rc))
    return rc, stdout


def corpus_programs() -> List[str]:
    found = []
    for root, _dirs, files in os.walk(os.path.join(CORPUS, "pyflink_examples")):
        found += [os.path.join(root, f) for f in files if f.endswith(".py")]
    return sorted(found)


# Lines the runtimes print on stdout that are not the program's output.
NOISE = ("Closing down clientserver connection",
         "No module named google.cloud.bigquery_storage_v1",
         "Using Any for unsupported type")


def _output(prefix: str) -> Tuple[Optional[str], List[str]]:
    try:
        with open(prefix + ".rc") as f:
            rc = f.read().strip()
        with open(prefix + ".out") as f:
            lines = [ln for ln in f.read().splitlines() if not ln.startswith(NOISE)]
    except OSError:
        return None, []
    return rc, sorted(lines)


def _why_not(prefix: str) -> str:
    try:
        with open(prefix + ".err") as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip()]
    except OSError:
        return ""
    for line in reversed(lines):
        if "Error" in line or "Exception" in line:
            return line.strip()[:110]
    return lines[-1].strip()[:110] if lines else ""


def table(out_dir: str) -> str:
    from pyflink_on_spark.migrate.report import BLOCKED, build_report
    report = build_report([os.path.join(CORPUS, "pyflink_examples")])
    rows = ["| program | migrate verdict | shim | PyFlink 1.20.5 | outputs | agrees |",
            "|---|---|---|---|---|---|"]
    agree = total = 0
    for verdict in report.files:
        name = ("pyflink_examples/" + verdict.path).replace("/", "__")[:-3]
        shim_rc, shim_out = _output(os.path.join(out_dir, name + ".shim"))
        flink_rc, flink_out = _output(os.path.join(out_dir, name + ".flink"))
        if shim_rc is None:
            continue
        shim_ok, flink_ok = shim_rc == "0", flink_rc == "0"
        if shim_ok and flink_ok:
            same = "same" if shim_out == flink_out else "differ"
        else:
            same = "-"
        if verdict.verdict == BLOCKED:
            agrees = not shim_ok
        elif verdict.verdict == "runs-as-is":
            agrees = shim_ok and (not flink_ok or shim_out == flink_out)
        else:
            agrees = shim_ok
        total += 1
        agree += agrees

        def cell(rc, ok, prefix):
            return "exit 0" if ok else ("timeout" if rc == "timeout" else "fails: " +
                                        _why_not(prefix).replace("|", "/"))
        rows.append("| `%s` | %s | %s | %s | %s | %s |" % (
            verdict.path, verdict.text,
            cell(shim_rc, shim_ok, os.path.join(out_dir, name + ".shim")),
            cell(flink_rc, flink_ok, os.path.join(out_dir, name + ".flink")),
            same, "yes" if agrees else "**no**"))
    rows.append("")
    rows.append("%d of %d verdicts agree with what the shim does." % (agree, total))
    return "\n".join(rows) + "\n"


# The Kafka examples write to a broker before they read: without one the shim (and PyFlink)
# fail on the write. The probe runs the reading half alone, to show the blocking use itself.
PROBE = """import sys
sys.path.insert(0, %r)
from pyflink.datastream import StreamExecutionEnvironment
from %s import read_from_kafka
read_from_kafka(StreamExecutionEnvironment.get_execution_environment())
"""


def probe_kafka_readers(out_dir: str) -> None:
    for path in corpus_programs():
        base = os.path.basename(path)[:-3]
        if not base.startswith("kafka_"):
            continue
        driver = os.path.join(out_dir, "probe_%s.py" % base)
        with open(driver, "w") as f:
            f.write(PROBE % (os.path.dirname(path), base))
        _run([sys.executable, "-m", "pyflink_on_spark.cli.main", "run", driver],
             os.path.join(out_dir, "probe_%s.shim" % base))


def probes(out_dir: str) -> str:
    lines = []
    for path in corpus_programs():
        base = os.path.basename(path)[:-3]
        prefix = os.path.join(out_dir, "probe_%s.shim" % base)
        rc, _out = _output(prefix)
        if rc is not None:
            lines.append("- `%s`, `read_from_kafka` alone on the shim: %s" % (
                base + ".py", "exit 0" if rc == "0" else "fails: " + _why_not(prefix)))
    return "\n".join(lines) + ("\n" if lines else "")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pyflink-python", default="/opt/venvs/flink/bin/python")
    parser.add_argument("--out", required=True)
    parser.add_argument("--only", action="append")
    parser.add_argument("--flink-only", action="store_true")
    parser.add_argument("--shim-only", action="store_true")
    parser.add_argument("--probe", action="store_true",
                        help="only run the Kafka examples' reading half on the shim")
    parser.add_argument("--table", action="store_true",
                        help="only print the agreement table from the outputs in --out")
    args = parser.parse_args(argv)
    if args.table:
        sys.stdout.write(table(args.out))
        sys.stdout.write("\n" + probes(args.out))
        return 0
    if args.probe:
        probe_kafka_readers(os.path.abspath(args.out))
        return 0
    os.makedirs(args.out, exist_ok=True)
    for path in corpus_programs():
        name = os.path.relpath(path, CORPUS).replace(os.sep, "__")[:-3]
        if args.only and not any(o in name for o in args.only):
            continue
        workdir = os.path.join(args.out, name + ".wd")
        os.makedirs(workdir, exist_ok=True)
        os.chdir(workdir)
        # PyFlink starts its Python workers with `python` from PATH: its own venv's
        flink_env = dict(os.environ, PATH=os.path.dirname(args.pyflink_python) + os.pathsep +
                         os.environ.get("PATH", ""))
        flink_env.pop("PYTHONPATH", None)
        if not args.flink_only:
            _run([sys.executable, "-m", "pyflink_on_spark.cli.main", "run", path],
                 os.path.join(args.out, name + ".shim"))
        if not args.shim_only:
            _run([args.pyflink_python, path], os.path.join(args.out, name + ".flink"), flink_env)
        print("ran", name, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
