"""Which state window holds the contents of each in-flight merging (session) window.

Flink's MergingWindowSet: when windows merge, their contents are merged into the namespace
of one of them (the "state window"), so only the mapping changes and state moves once. The
mapping lives in keyed MapState (namespace-less) so it follows the key through any backend.
"""
from __future__ import annotations

from typing import Callable, Dict, List

from pyflink_on_spark.datastream.window import MergingWindowAssigner


class MergingWindowSet:
    """The merging windows of the current key, loaded from and persisted to MapState."""

    __slots__ = ("_assigner", "_state", "mapping", "_initial")

    def __init__(self, assigner, state) -> None:
        self._assigner = assigner
        self._state = state
        self.mapping: Dict = dict(state.items())
        self._initial = dict(self.mapping)

    def persist(self) -> None:
        if self.mapping != self._initial:
            self._state.clear()
            if self.mapping:
                self._state.put_all(self.mapping)
            self._initial = dict(self.mapping)

    def get_state_window(self, window):
        return self.mapping.get(window)

    def retire_window(self, window) -> None:
        if self.mapping.pop(window, None) is None:
            raise Exception("Window %s is not in in-flight window set." % (window,))

    def add_window(self, new_window, merge: Callable[[object, List, object, List], None]):
        """Adds ``new_window``, merging it with in-flight windows as the assigner says.
        Returns the window the element now belongs to (the new window or a merge result).

        ``merge(merge_result, merged_windows, state_window, merged_state_windows)`` is called
        for every merge, before the mapping is used again, so the caller can merge trigger
        state and window contents."""
        results = []
        self._assigner.merge_windows(list(self.mapping) + [new_window],
                                     _Collect(results))
        result_window = new_window
        merged_new_window = False
        mapping = self.mapping
        for merge_result, merged_windows in results:
            merged_windows = list(merged_windows)
            if new_window in merged_windows:
                merged_new_window = True
                merged_windows.remove(new_window)
                result_window = merge_result
            # the contents of the merge go to the state window of the first merged window
            state_window = mapping[merged_windows[0]]
            merged_state_windows = [mapping.pop(w) for w in merged_windows if w in mapping]
            mapping[merge_result] = state_window
            merged_state_windows.remove(state_window)
            # merging one pre-existing window into itself (the new window fell inside it)
            # moves no state
            if not (len(merged_windows) == 1 and merge_result in merged_windows):
                merge(merge_result, merged_windows, state_window, merged_state_windows)
        if not results or (result_window == new_window and not merged_new_window):
            # A window that is already in flight keeps its state window (Flink overwrites
            # the mapping here, which would orphan the contents of a merged window that
            # equals the new one).
            mapping.setdefault(result_window, result_window)
        return result_window


class _Collect(MergingWindowAssigner.MergeCallback):
    __slots__ = ("_results",)

    def __init__(self, results: list) -> None:
        self._results = results

    def merge(self, to_be_merged, merge_result) -> None:
        self._results.append((merge_result, to_be_merged))
