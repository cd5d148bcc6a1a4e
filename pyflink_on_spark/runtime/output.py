"""Wiring between chained operators: an operator emits to an Output, which calls the inputs
of the operators (or exits) it is connected to. Plain method calls: no queue, no copy."""
from __future__ import annotations

from typing import Callable, Dict, List, Optional


class Output:
    """Where one operator's records, side outputs and watermarks go.

    collect(value, timestamp) sends one record; collect_many(values, timestamp) sends the
    records of an iterable that share a timestamp (what one input record produced, a slice
    of a source split), one after another as collect would: with one target that has a loop
    of its own (an exit's process_many), the records go through that loop without a Python
    call each."""

    __slots__ = ("collect", "collect_many", "collect_stamped", "_main", "_side",
                 "_watermark_targets", "routes_side_outputs", "fuse_map", "_fuse_maps",
                 "_manys", "_stampeds", "fuse_stamps", "_fuse_stampss", "_user_code")

    def __init__(self) -> None:
        self._main: List[Callable] = []
        self._side: Dict[str, List[Callable]] = {}
        self._watermark_targets: List[Callable] = []
        self.collect = _drop
        # what a function yields runs even when nothing takes it (its side effects)
        self.collect_many = _each(_drop)
        # collect_stamped(values, stamps): records with a timestamp each, as collect would
        # send them one by one (through the target's loop for them, if it has one)
        self.collect_stamped = _each_stamped(_drop)
        # Whether `(tag, value)` results go to side outputs. PyFlink routes them only for an
        # operator on which get_side_output was called (consumed or not: StreamTask sets it
        # from the graph); otherwise they are ordinary main-output records.
        self.routes_side_outputs = False
        # With one main target that can take a map function into its own input methods
        # (an exit): fuse_map(user_map, user_error) -> (process_element, process_many) of
        # that target with the map applied first, one Python call per record less
        # (runtime/operators/process.py MapOperator).
        self.fuse_map: Optional[Callable] = None
        self._fuse_maps: List[Optional[Callable]] = []
        self._manys: List[Optional[Callable]] = []
        self._stampeds: List[Optional[Callable]] = []
        # With one main target that can take assign_timestamps_and_watermarks into its own
        # loop (an exit): its fused_with_stamps (runtime/exits/chunked.py)
        self.fuse_stamps: Optional[Callable] = None
        self._fuse_stampss: List[Optional[Callable]] = []
        # per main target: runs_user_code() -> whether it calls user functions (None: it
        # may: an operator's input)
        self._user_code: List[Optional[Callable[[], bool]]] = []

    def add_main_target(self, process_element: Callable, process_watermark: Callable,
                        fuse_map: Optional[Callable] = None,
                        process_many: Optional[Callable] = None,
                        process_stamped: Optional[Callable] = None,
                        fuse_stamps: Optional[Callable] = None,
                        runs_user_code: Optional[Callable[[], bool]] = None) -> None:
        self._main.append(process_element)
        self._user_code.append(runs_user_code)
        self._fuse_maps.append(fuse_map)
        self._fuse_stampss.append(fuse_stamps)
        self._manys.append(process_many)
        self._stampeds.append(process_stamped)
        self._add_watermark_target(process_watermark)
        self._rebind()

    def add_side_target(self, tag_id: str, process_element: Callable,
                        process_watermark: Callable) -> None:
        self._side.setdefault(tag_id, []).append(process_element)
        self.routes_side_outputs = True
        self._add_watermark_target(process_watermark)

    def _add_watermark_target(self, process_watermark: Callable) -> None:
        if process_watermark not in self._watermark_targets:
            self._watermark_targets.append(process_watermark)

    def _rebind(self) -> None:
        # One target (the common case): collect *is* the next operator's input method.
        targets = tuple(self._main)
        self.fuse_map = self._fuse_maps[0] if len(targets) == 1 else None
        self.fuse_stamps = self._fuse_stampss[0] if len(targets) == 1 else None
        if len(targets) == 1:
            self.collect = targets[0]
        else:
            def collect(value, timestamp, _targets=targets):
                for target in _targets:
                    target(value, timestamp)
            self.collect = collect
        many = self._manys[0] if len(targets) == 1 else None
        self.collect_many = many if many is not None else _each(self.collect)
        stamped = self._stampeds[0] if len(targets) == 1 else None
        self.collect_stamped = stamped if stamped is not None else _each_stamped(self.collect)

    def takes_stamped_in_bulk(self) -> bool:
        """Whether an operator may hold the records it emits while its user functions run
        and send them in one collect_stamped afterwards: its one target calls no user
        function (an exit without a key selector or a map in its loop: what the exit does
        is not seen by user code, so the order of the user functions' calls stays the
        same), and no result goes to a side output."""
        runs_user_code = self._user_code[0] if len(self._main) == 1 else None
        return runs_user_code is not None and not runs_user_code() \
            and not self.routes_side_outputs

    def takes_many(self) -> bool:
        """Whether collect_many goes into a loop of the one target's own (process_many)."""
        return len(self._main) == 1 and self._manys[0] is not None

    def collect_side(self, tag_id: str, value, timestamp) -> None:
        # A side output nobody consumes is dropped, as in Flink.
        for target in self._side.get(tag_id, ()):
            target(value, timestamp)

    def emit_watermark(self, watermark: int) -> None:
        for target in self._watermark_targets:
            target(watermark)


def _each(collect: Callable) -> Callable:
    """collect_many over a target without a loop of its own."""
    def collect_many(values, timestamp) -> None:
        for value in values:
            collect(value, timestamp)
    return collect_many


def _each_stamped(collect: Callable) -> Callable:
    """collect_stamped over a target without a loop of its own."""
    def collect_stamped(values, stamps) -> None:
        for value, timestamp in zip(values, stamps):
            collect(value, timestamp)
    return collect_stamped


def _drop(value, timestamp) -> None:
    return None
