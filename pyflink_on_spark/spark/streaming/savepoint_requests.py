"""Savepoints asked of a running unbounded job (JobClient.trigger_savepoint /
stop_with_savepoint): queued by the caller's thread, taken by the driver's batch loop right
after a micro-batch completed, when the newest state version and the sources' positions are
a consistent pair and no batch writes to the store.

A drain (stop_with_savepoint(True, ...), `stop --drain`) waits for a drained batch: the
batch loop makes the next batch it plans one (spark/streaming/executor.py), whose end of
event time fires every event-time timer and window; the savepoint is taken after it."""
from __future__ import annotations

import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import List, Optional

from pyflink_on_spark.runtime.checkpoint.savepoints import write_savepoint
from pyflink_on_spark.runtime.checkpoint.store import SnapshotStore


@dataclass
class SavepointRequest:
    directory: Optional[str]        # None: the job's default savepoint directory
    then_stop: bool                 # stop_with_savepoint: the job stops after it
    drain: bool = False             # taken only after a drained batch (then_stop too)
    future: Future = field(default_factory=Future)   # the savepoint's path


class SavepointRequests:
    """The savepoints a job still owes, served in the order asked."""

    def __init__(self, job_id: str, job_name: str, default_dir: Optional[str]) -> None:
        self.job_id = job_id
        self.job_name = job_name
        self.default_dir = default_dir
        self._pending: List[SavepointRequest] = []
        self.stopped_with_savepoint = False   # a stop_with_savepoint was served: FINISHED
        self._lock = threading.Lock()

    def ask(self, directory: Optional[str], then_stop: bool, drain: bool = False) -> Future:
        request = SavepointRequest(directory, then_stop or drain, drain)
        with self._lock:
            self._pending.append(request)
        return request.future

    def draining(self) -> bool:
        """Whether a pending request waits for a drained batch."""
        with self._lock:
            return any(request.drain for request in self._pending)

    def serve(self, store: SnapshotStore, version: int, stop: threading.Event,
              drained: bool = False) -> None:
        """Takes the pending savepoints from completed version ``version`` (a drain's only
        when that batch was ``drained``); a stop_with_savepoint then sets ``stop`` (the job
        stops before its next batch)."""
        pending: List[SavepointRequest] = []
        with self._lock:
            waiting = self._pending
            self._pending = [r for r in waiting if r.drain and not drained]
            pending = [r for r in waiting if drained or not r.drain]
        for request in pending:
            try:
                path = write_savepoint(store, version, request.directory or self.default_dir,
                                       self.job_id, self.job_name)
            except BaseException as e:       # the caller's future says why; the job goes on
                request.future.set_exception(e)
                continue
            if request.then_stop:
                self.stopped_with_savepoint = True
                stop.set()
            request.future.set_result(path)

    def fail_pending(self, why: str) -> None:
        """The job ended: savepoints not taken fail with ``why``."""
        with self._lock:
            pending, self._pending = self._pending, []
        for request in pending:
            request.future.set_exception(RuntimeError(why))
