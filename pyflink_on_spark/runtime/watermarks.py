"""Watermark generation (per source split / per assigner subtask) and the input valve.

Flink emits periodic watermarks every auto-watermark-interval of wall time. The shim's
deterministic stand-in: a periodic watermark after every PERIODIC_EVERY_RECORDS records of a
subtask (none when the interval is 0). Small jobs therefore see no watermark before the end
of input, which is what real PyFlink shows; the end of a bounded input sends MAX_WATERMARK.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

# Flink's Long.MIN_VALUE / Long.MAX_VALUE watermarks: no progress yet / end of input.
MIN_WATERMARK = -(2 ** 63)
MAX_WATERMARK = 2 ** 63 - 1

PERIODIC_EVERY_RECORDS = 10_000


class WatermarkGenerator:
    """Bounded-out-of-orderness generator (monotonous = zero out-of-orderness)."""

    __slots__ = ("_max_timestamp", "_delay", "enabled")

    def __init__(self, kind: str, max_out_of_orderness_ms: int = 0) -> None:
        self.enabled = kind != "no_watermarks"
        self._delay = max_out_of_orderness_ms if kind == "bounded_out_of_orderness" else 0
        self._max_timestamp = MIN_WATERMARK + self._delay + 1

    def on_event(self, timestamp: int) -> None:
        if timestamp > self._max_timestamp:
            self._max_timestamp = timestamp

    def current(self) -> int:
        return self._max_timestamp - self._delay - 1

    def has_seen_events(self) -> bool:
        """Whether a timestamp came since the generator started (or its restored position
        had one)."""
        return self._max_timestamp != MIN_WATERMARK + self._delay + 1

    def export(self) -> int:
        """The generator's position (the largest timestamp seen), for a checkpoint."""
        return self._max_timestamp

    def restore(self, max_timestamp: int) -> None:
        self._max_timestamp = max_timestamp


def generator_for(strategy) -> WatermarkGenerator:
    if strategy is None:
        return WatermarkGenerator("no_watermarks")
    return WatermarkGenerator(getattr(strategy, "_kind", "no_watermarks"),
                              getattr(strategy, "_max_out_of_orderness_ms", 0) or 0)


class SplitWatermarks:
    """The watermark of a source subtask reading several splits (Kafka partitions), as Flink's
    SourceOperator makes it (WatermarkOutputMultiplexer): one generator per split; a split
    is idle once more than the strategy's idle timeout (with_idleness) of processing time
    passed since its last records (WatermarksWithIdleness); the source's watermark is the
    minimum over the splits that are not idle, and there is none while every split is idle.

    `now` is the task's processing time (TaskContext.clock: a manual clock in tests, the
    micro-batch's time in unbounded jobs). A split is registered when the subtask is given
    it (SplitStarted) or with its first records, and stays until it finishes (a bounded
    read's split, which is never idle before: Flink reads it until its stopping offset) or
    the input ends."""

    __slots__ = ("_strategy", "idle_timeout_ms", "generators", "last_active", "_ending")

    def __init__(self, strategy) -> None:
        self._strategy = strategy
        timeout = getattr(strategy, "_idle_timeout_ms", None)
        self.idle_timeout_ms: Optional[int] = timeout if timeout is not None and timeout > 0 \
            else None
        self.generators: Dict[Any, WatermarkGenerator] = {}
        self.last_active: Dict[Any, int] = {}
        self._ending: set = set()

    def add(self, split, now: int, ends: bool = False) -> WatermarkGenerator:
        """Registers `split` (its idleness counts from `now`; `ends`: a bounded read's split,
        never idle); returns its generator."""
        generator = self.generators.get(split)
        if generator is None:
            generator = self.generators[split] = generator_for(self._strategy)
            self.last_active[split] = now
        if ends:
            self._ending.add(split)
        return generator

    def finish(self, split) -> None:
        """`split` was read to its end: its watermark no longer counts."""
        self.generators.pop(split, None)
        self.last_active.pop(split, None)
        self._ending.discard(split)

    def on_records(self, split, now: int) -> WatermarkGenerator:
        """Records of `split` arrive at processing time `now`: the split is active."""
        generator = self.add(split, now)
        self.last_active[split] = now
        return generator

    def is_idle(self, split, now: int) -> bool:
        return self.idle_timeout_ms is not None and split not in self._ending and \
            now - self.last_active[split] > self.idle_timeout_ms

    def all_idle(self, now: int) -> bool:
        return all(self.is_idle(split, now) for split in self.generators)

    def combined(self, now: int) -> Optional[int]:
        """The minimum watermark over the splits that are not idle; None if all are idle
        (or there is no split)."""
        active = [generator.current() for split, generator in self.generators.items()
                  if not self.is_idle(split, now)]
        return min(active) if active else None

    def export(self) -> dict:
        return {split: (generator._max_timestamp, self.last_active[split])
                for split, generator in self.generators.items()}

    def restore(self, state: dict) -> None:
        for split, (max_timestamp, last_active) in state.items():
            self.add(split, last_active)._max_timestamp = max_timestamp
            self.last_active[split] = last_active


class InputWatermarkValve:
    """An operator's input watermark: the minimum over all its input channels.

    A channel is one upstream subtask of one input edge. Channels belong to groups (the
    inputs of a two-input operator; one group otherwise). Within a group the task reads
    channels in (edge, upstream subtask) order, so when a row of a later channel of a group
    arrives, every earlier channel of that group has ended (an ended channel counts as
    MAX_WATERMARK)."""

    def __init__(self, channels: List[Tuple[int, int]],
                 group_of_edge: Optional[Dict[int, int]] = None) -> None:
        group_of_edge = group_of_edge or {}
        ordered = sorted(channels, key=lambda c: (group_of_edge.get(c[0], 0), c))
        self._order: Dict[Tuple[int, int], int] = {c: i for i, c in enumerate(ordered)}
        self._group: List[int] = [group_of_edge.get(c[0], 0) for c in ordered]
        self._marks: List[int] = [MIN_WATERMARK] * len(self._order)
        self._current: Dict[int, int] = {}      # group -> index of the channel being read
        self._first: Dict[int, int] = {}        # group -> index of its first channel
        for index, group in enumerate(self._group):
            self._first.setdefault(group, index)
        self.combined = MIN_WATERMARK

    def on_channel(self, edge: int, src: int) -> Optional[int]:
        """Note that (edge, src) is now being read. Returns a new combined watermark or None."""
        index = self._order.get((edge, src))
        if index is None:
            return None
        group = self._group[index]
        current = self._current.get(group, -1)
        if index <= current:
            return None
        start = current if current >= 0 else self._first[group]
        for ended in range(start, index):
            self._marks[ended] = MAX_WATERMARK
        self._current[group] = index
        return self._recompute()

    def on_watermark(self, edge: int, src: int, watermark: int) -> Optional[int]:
        index = self._order.get((edge, src))
        if index is None or watermark <= self._marks[index]:
            return None
        self._marks[index] = watermark
        return self._recompute()

    def _recompute(self) -> Optional[int]:
        combined = min(self._marks) if self._marks else MAX_WATERMARK
        if combined > self.combined:
            self.combined = combined
            return combined
        return None


# A watermark row carrying IDLE says "this channel is idle": it does not hold back the
# watermark downstream until it sends a real watermark again (Flink's WatermarkStatus.IDLE).
IDLE = MIN_WATERMARK - 1


class StreamingValve(InputWatermarkValve):
    """The input valve of an unbounded stage: a channel's watermark is the last it sent;
    idle channels do not count (all idle: the watermark stays)."""

    def __init__(self, channels, group_of_edge=None) -> None:
        super().__init__(channels, group_of_edge)
        self._idle = [False] * len(self._marks)

    def on_channel(self, edge: int, src: int) -> Optional[int]:
        return None

    def on_watermark(self, edge: int, src: int, watermark: int) -> Optional[int]:
        index = self._order.get((edge, src))
        if index is None:
            return None
        if watermark == IDLE:
            self._idle[index] = True
            return self._recompute()
        self._idle[index] = False
        if watermark > self._marks[index]:
            self._marks[index] = watermark
        return self._recompute()

    def _recompute(self) -> Optional[int]:
        active = [m for m, idle in zip(self._marks, self._idle) if not idle]
        if not active:
            return None
        combined = min(active)
        if combined > self.combined:
            self.combined = combined
            return combined
        return None

    def all_idle(self) -> bool:
        return bool(self._idle) and all(self._idle)

    def export(self) -> dict:
        return {"marks": {channel: self._marks[i] for channel, i in self._order.items()},
                "idle": {channel: self._idle[i] for channel, i in self._order.items()},
                "combined": self.combined}

    def restore(self, state: dict) -> None:
        for channel, mark in state["marks"].items():
            index = self._order.get(channel)
            if index is not None:
                self._marks[index] = mark
                self._idle[index] = state.get("idle", {}).get(channel, False)
        self.combined = state["combined"]
