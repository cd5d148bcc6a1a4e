"""One step per rolling aggregation (KeyedStream.sum / min / max / min_by / max_by), on the
aggregated field, as PyFlink folds a key's records: what the aggregation operator does
(runtime/adapters.py AggregationAdapter) and what a key-sorted exit's partial result does
before it (runtime/exits/partials.py) are these steps.

* sum / min / max keep the key's first record and change only its field: FIELD_FOLDS gives
  the field's new value from the one so far and the new record's;
* min_by / max_by keep the whole record holding the extreme: RECORD_FOLDS tells whether
  the new record takes the place of the one held.

Comparisons are strict: on a tie the record (or field value) held first stays.
A sum of plain numbers is `+`, which the hot loops write inline (adapters.py fold_values,
partials.py) rather than call.
"""
from __future__ import annotations

from typing import Callable, Dict


def sum_of(held, new):
    return held + new


def min_of(held, new):
    return new if new < held else held


def max_of(held, new):
    return new if new > held else held


def below(held, new) -> bool:
    """min_by: whether the new record's field takes the place of the held one's."""
    return new < held


def above(held, new) -> bool:
    """max_by: whether the new record's field takes the place of the held one's."""
    return new > held


# aggregation (specs.operators.Aggregation's value) -> (field so far, new field) -> field
FIELD_FOLDS: Dict[str, Callable] = {"SUM": sum_of, "MIN": min_of, "MAX": max_of}
# aggregation -> (held record's field, new record's field) -> whether the new record is held
RECORD_FOLDS: Dict[str, Callable] = {"MIN_BY": below, "MAX_BY": above}
