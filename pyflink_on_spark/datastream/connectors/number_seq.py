"""NumberSequenceSource: a parallel source of the longs in [start, end]."""
from pyflink_on_spark.datastream.connectors.base import Source
from pyflink_on_spark.specs.sources import NumberSequenceSourceSpec

__all__ = ["NumberSequenceSource"]


class NumberSequenceSource(Source):
    """Splits [start, end] into one contiguous range per subtask, as Flink does."""

    def __init__(self, start: int, end: int):
        if start > end:
            raise ValueError("start must be <= end, got %d > %d" % (start, end))
        super().__init__()
        self._start = start
        self._end = end

    def _source_definition(self):
        return NumberSequenceSourceSpec(self._start, self._end)

    @property
    def _produced_type(self):
        from pyflink_on_spark.common.typeinfo import Types
        return Types.LONG()
