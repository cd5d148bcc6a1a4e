"""Compatibility cases: PyFlink programs plus the stdout real PyFlink printed for them.

`pyflink-on-spark compat [DIR]` runs every case on the shim (in this process) and compares
its stdout byte for byte with the recorded `.expected` file; `--reference PYTHON` runs the
cases on real PyFlink instead, and `--record` (re)writes the expected files from that run.

A case is `NAME.py` (a complete PyFlink program) next to `NAME.expected` (its stdout on
real PyFlink). Cases live in sub-directories of the cases root; a case's name is its path
below the root without `.py`, e.g. `basic/map_lambda_p1`.
"""
from pyflink_on_spark.compat.cases import Case, CaseResult, compare, discover_cases, record
from pyflink_on_spark.compat.reference import run_reference
from pyflink_on_spark.compat.shim import run_shim
from pyflink_on_spark.compat.report import Reporter, format_report, summary_line

__all__ = [
    "Case", "CaseResult", "discover_cases", "compare", "record", "run_reference", "run_shim",
    "Reporter", "format_report", "summary_line",
]
