"""A key-sorted exit's partial results into a BATCH rolling aggregation (ExitSpec.
partial_aggregation, graph/compile.py _partial_aggregation): a key's records folded as they
come, one record leaving instead of all, with the aggregation's own steps (runtime/folds.py).
"""
from __future__ import annotations

from typing import Callable, Optional, Tuple

from pyflink_on_spark.runtime.folds import FIELD_FOLDS, RECORD_FOLDS


class Partial:
    """A key's records folded into a BATCH sum / min / max: the key's first record and the
    field's running result."""

    __slots__ = ("first", "total")

    def __init__(self, first: tuple, total) -> None:
        self.first = first
        self.total = total

    def record(self, position: int) -> tuple:
        first, total = self.first, self.total
        if total is first[position]:
            return first
        return first[:position] + (total,) + first[position + 1:]


class PartialHolder(Partial):
    """min_by / max_by: `first` is the record holding the extreme so far (the first one on
    ties), and it leaves whole."""

    __slots__ = ()

    def record(self, position: int) -> tuple:
        return self.first


def partial_adder(aggregation: Optional[str], at: Optional[int]) -> Tuple[Callable, type]:
    """(add_to_partial(slot, value) -> bool, the class of the partial results it holds) for
    the aggregation (None: the class only) on tuple index `at`.

    Into a BATCH rolling aggregation, a plain tuple whose field is an int or a float (not
    NaN, for a comparison) joins its key's partial result, which leaves as one record (as
    the aggregation leaves it: the key's first record with the field summed, or its minimum
    or maximum; min_by / max_by: the record holding the first extreme). add_to_partial is
    True when the record was added to a partial result already held. Other records, and
    every record after one, wait as they are: the aggregation folds them as before."""
    summing = aggregation == "SUM"
    step = FIELD_FOLDS.get(aggregation)
    takes = RECORD_FOLDS.get(aggregation)
    partial_kind = PartialHolder if takes is not None else Partial

    def add_to_partial(slot: list, value) -> bool:
        if value.__class__ is tuple and len(value) > at:
            field = value[at]
            kind = field.__class__
            if kind is int or kind is float and (summing or field == field):
                if not slot:
                    slot.append(partial_kind(value, field))
                    return False
                if len(slot) == 1 and slot[0].__class__ is partial_kind:
                    partial = slot[0]
                    if summing:
                        partial.total += field   # folds.sum_of, inline
                    elif takes is None:
                        partial.total = step(partial.total, field)
                    elif takes(partial.total, field):
                        partial.total, partial.first = field, value
                    return True
        slot.append(value)
        return False
    return add_to_partial, partial_kind
