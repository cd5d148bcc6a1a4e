"""A source of records with event timestamps and watermarks exactly where the test puts
them, for driving event-time logic (windows, timers, lateness) step by step."""
from __future__ import annotations

from typing import Any, Iterable

from pyflink_on_spark.specs.sources import EventScriptSourceSpec, TimedValue, WatermarkMark


def watermark(timestamp: int) -> WatermarkMark:
    """A watermark at `timestamp` in an event_stream script."""
    return WatermarkMark(int(timestamp))


class _EventScript:
    """from_source's view of a script (the connector protocol of the API)."""

    def __init__(self, events: tuple, type_info: Any) -> None:
        self._events = events
        self._produced_type = type_info

    def _source_definition(self) -> EventScriptSourceSpec:
        return EventScriptSourceSpec(self._events)


def event_stream(env, script: Iterable, type_info: Any = None, name: str = "Events"):
    """A DataStream of `script`: (value, timestamp) pairs become records with that event
    time, `watermark(t)` items watermarks; in this order, from one source subtask. The end of
    input then sends the final watermark as any bounded source does."""
    events = []
    for item in script:
        if isinstance(item, WatermarkMark):
            events.append(item)
        else:
            value, timestamp = item
            events.append(TimedValue(value, int(timestamp)))
    from pyflink_on_spark.common.watermark_strategy import WatermarkStrategy
    stream = env.from_source(_EventScript(tuple(events), type_info),
                             WatermarkStrategy.no_watermarks(), name, type_info)
    return stream.set_parallelism(1)
