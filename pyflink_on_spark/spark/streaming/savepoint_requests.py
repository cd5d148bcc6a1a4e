"""Savepoints asked of a running unbounded job (JobClient.trigger_savepoint /
stop_with_savepoint): queued by the caller's thread, taken by the driver's batch loop right
after a micro-batch completed, when the newest state version and the sources' positions are
a consistent pair and no batch writes to the store."""
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

    def ask(self, directory: Optional[str], then_stop: bool) -> Future:
        request = SavepointRequest(directory, then_stop)
        with self._lock:
            self._pending.append(request)
        return request.future

    def serve(self, store: SnapshotStore, version: int, stop: threading.Event) -> None:
        """Takes the pending savepoints from completed version ``version``; a
        stop_with_savepoint then sets ``stop`` (the job stops before its next batch)."""
        with self._lock:
            pending, self._pending = self._pending, []
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
