"""Edges leaving a stage: Flink's channel selection, then records chunked per destination
(or, into a BATCH keyed operator, grouped by key for the runner's sort).

* selectors.py: record -> destination subtask, one selector per partitioning;
* chunked.py: ExitCollector, records chunked per destination into boundary rows;
* key_sorted.py: KeySortedExitCollector, a key-sorted exchange's rows, key by key;
* partials.py: its partial results into a BATCH rolling aggregation (runtime/folds.py);
* templates.py: the source of the exits' per-record loops, with named hooks;
* loops.py: those loops compiled once per exit, with the converter's test inline;
* bulk_keys.py: a keyed exit's calls of many new keys, routed in two steps.
"""
from __future__ import annotations

from typing import Callable, List

from pyflink_on_spark.runtime.exits.chunked import CHUNK_RECORDS, ExitCollector
from pyflink_on_spark.runtime.exits.key_sorted import KeySortedExitCollector
from pyflink_on_spark.runtime.exits.selectors import (
    channel_selector, positioned_selector, rescale_targets)
from pyflink_on_spark.specs.stage import ExitSpec

# The names other modules import; a setting a test changes (SORTED_RECORDS_HELD...) is
# changed on the module that reads it (key_sorted, chunked), not here.
__all__ = ["CHUNK_RECORDS", "ExitCollector", "KeySortedExitCollector", "channel_selector",
           "exit_collector", "positioned_selector", "rescale_targets"]


def exit_collector(spec: ExitSpec, subtask: int, parallelism: int, rows: List[tuple],
                   user_error: Callable[[BaseException], BaseException]) -> ExitCollector:
    """The collector of one exit of a subtask."""
    kind = KeySortedExitCollector if spec.sort_by_key else ExitCollector
    return kind(spec, subtask, parallelism, rows, user_error)
