"""Checked-in reports for the corpus: PyFlink's own examples and the synthetic programs.

When the shim changes what it supports, these reports change with it (that is the point:
statuses come from the shim's code). Regenerate and review the diff:
    UPDATE_MIGRATE_EXPECTED=1 python -m pytest pyflink_on_spark/migrate/tests/test_corpus_reports.py
"""
import os

import pytest

from pyflink_on_spark.migrate.decisions import _spark_version
from pyflink_on_spark.migrate.report import build_report, to_json, to_markdown

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
EXPECTED = os.path.join(HERE, "expected")


def _normalised(text: str) -> str:
    return text.replace(_spark_version(), "<pyspark version>")


@pytest.mark.parametrize("corpus, render, suffix", [
    ("pyflink_examples", to_json, "json"),
    ("synthetic", to_json, "json"),
    ("pyflink_examples", to_markdown, "md"),
])
def test_corpus_report_matches_the_checked_in_one(corpus, render, suffix):
    actual = _normalised(render(build_report([os.path.join(CORPUS, corpus)])))
    path = os.path.join(EXPECTED, "%s.%s" % (corpus, suffix))
    if os.environ.get("UPDATE_MIGRATE_EXPECTED"):
        os.makedirs(EXPECTED, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(actual)
    with open(path, encoding="utf-8") as f:
        expected = f.read()
    assert actual == expected, (
        "the migrate report for corpus/%s changed; if the shim's API changed on purpose, "
        "regenerate with UPDATE_MIGRATE_EXPECTED=1 and review the diff" % corpus)


def test_verdicts_of_pyflink_examples():
    report = build_report([os.path.join(CORPUS, "pyflink_examples")])
    verdicts = {f.path: f.text for f in report.files}
    assert verdicts["datastream/basic_operations.py"] == "runs as is"
    assert verdicts["datastream/connectors/kafka_json_format.py"] == "runs as is"
    # its datagen table of random fields is unbounded: it runs (an unbounded job); the one
    # difference left is the FileSink's time-based rolling
    assert verdicts["datastream/streaming_word_count.py"] == "runs with 1 difference"
    # FormatDescriptor and Python UDFs / UDTFs run (745b195, 7f0e4da)
    assert verdicts["table/word_count.py"] == "runs as is"
