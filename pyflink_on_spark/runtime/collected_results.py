"""Driver-side lists that test sinks deliver into (specs.sinks.CollectSinkSpec.results_id):
a test registers a list, the job's collecting sink carries only the list's id into the
tasks, and the executor on the driver appends the sink's values to it in driver order."""
from __future__ import annotations

import itertools
import threading
from typing import Dict, Iterable, List, Tuple

_lock = threading.Lock()
_ids = itertools.count(1)
_lists: Dict[str, list] = {}


def register_results() -> Tuple[str, List]:
    """A new (id, list) pair: the list receives what the sink with that id collects."""
    with _lock:
        results_id = "results-%d" % next(_ids)
        values: List = []
        _lists[results_id] = values
        return results_id, values


def deliver(results_id: str, values: Iterable) -> None:
    with _lock:
        target = _lists.get(results_id)
    if target is None:
        raise KeyError("no collecting sink list %r in this process (test sinks collect only "
                       "into the process that built the job)" % results_id)
    target.extend(values)


def release(results_id: str) -> None:
    with _lock:
        _lists.pop(results_id, None)
