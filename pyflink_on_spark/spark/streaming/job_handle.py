"""execute_async and execute_and_collect on an unbounded job: the job runs in a background
thread of the driver; the JobClient's handle reports its status and cancels it (after the
current micro-batch); the collect iterator yields values as batches produce them, and
closing it stops the job."""
from __future__ import annotations

import queue
import threading
import weakref
from concurrent.futures import Future
from typing import Iterator, Optional

from pyflink_on_spark.codecs.files import fs
from pyflink_on_spark.common.job_id import JobID, new_job_id
from pyflink_on_spark.common.job_status import JobStatus


# jobs whose thread still runs (the CLI leaves their JVM to end with the process)
_running: "weakref.WeakSet[StreamingJobHandle]" = weakref.WeakSet()


def jobs_running() -> bool:
    """True while an unbounded job started by execute_async or execute_and_collect runs."""
    return any(handle._thread.is_alive() for handle in list(_running))


class StreamingJobHandle:
    """The JobHandle protocol (pyflink_on_spark.common.job_client) of a running job."""

    def __init__(self, job, job_name: str, options, settings, collect=None,
                 collect_sink_id: Optional[int] = None) -> None:
        from pyflink_on_spark.spark.streaming.executor import execute_streaming
        from pyflink_on_spark.spark.streaming.savepoint_requests import SavepointRequests
        if settings.restore_path:
            # Flink refuses a savepoint whose state the job cannot claim when the job is
            # submitted: execute_async raises, no job runs
            from pyflink_on_spark.runtime.checkpoint.micro_batch import state_ids_of
            from pyflink_on_spark.runtime.checkpoint.savepoints import check_claims
            check_claims(settings.restore_path, state_ids_of(
                op for s in job.stages for op in s.spec.operators).values(),
                settings.allow_non_restored)
        self._job_id = new_job_id()
        self._stop = threading.Event()
        self._result: Future = Future()
        self._state = JobStatus.RUNNING
        self._savepoints = SavepointRequests(str(self._job_id), job_name,
                                             settings.savepoint_dir)

        def run() -> None:
            try:
                result = execute_streaming(job, job_name, options, settings, stop=self._stop,
                                           collect=collect, collect_sink_id=collect_sink_id,
                                           savepoints=self._savepoints)
            except BaseException as e:
                self._state = JobStatus.FAILED
                self._result.set_exception(e)
                return
            if self._savepoints.stopped_with_savepoint:
                self._state = JobStatus.FINISHED    # as Flink reports a stopped job
            elif self._stop.is_set():
                self._state = JobStatus.CANCELED
                if settings.delete_on_cancel:   # ExternalizedCheckpointRetention
                    fs.remove_tree(settings.checkpoint_dir)
            else:
                self._state = JobStatus.FINISHED
            self._result.set_result(result)

        self._thread = threading.Thread(target=run, name="pyflink-on-spark " + job_name,
                                        daemon=True)
        _running.add(self)
        self._thread.start()

    @staticmethod
    def _done(value) -> Future:
        future: Future = Future()
        future.set_result(value)
        return future

    def job_id(self) -> JobID:
        return self._job_id

    def status(self) -> Future:
        if self._state == JobStatus.RUNNING and self._stop.is_set():
            return self._done(JobStatus.CANCELLING)
        return self._done(self._state)

    def cancel(self) -> Future:
        """Stops the job after its current micro-batch; the future completes when it has."""
        self._stop.set()
        done: Future = Future()

        def wait() -> None:
            self._thread.join()
            done.set_result(None)
        threading.Thread(target=wait, daemon=True).start()
        return done

    def stop_with_savepoint(self, advance_to_end_of_event_time, savepoint_directory):
        """Takes a savepoint after the current micro-batch, then stops the job; the future
        gives the savepoint's path once the job has stopped. ``advance_to_end_of_event_time``
        (a drain): one more micro-batch first, which ends with the end of event time (every
        event-time timer and window fires, its output committed as any batch's)."""
        taken = self._savepoints.ask(savepoint_directory, then_stop=True,
                                     drain=bool(advance_to_end_of_event_time))
        done: Future = Future()

        def wait() -> None:
            try:
                path = taken.result()
            except BaseException as e:
                done.set_exception(e)
                return
            self._thread.join()
            done.set_result(path)
        threading.Thread(target=wait, daemon=True).start()
        return done

    def trigger_savepoint(self, savepoint_directory):
        """A savepoint of the job's state after its current micro-batch (the job goes on);
        the future gives its path (runtime/checkpoint/savepoints.py)."""
        return self._savepoints.ask(savepoint_directory, then_stop=False)

    def accumulators(self) -> Future:
        return self._done({})

    def result(self) -> Future:
        return self._result


# batches of collected values waiting for the consumer: a slow consumer holds back the job
# (as Flink's collect sink does when its buffer is full) instead of filling the driver
COLLECT_QUEUE_BATCHES = 16


def collect_unbounded(job, job_name: str, options, settings, collect_sink_id: int) -> Iterator:
    """execute_and_collect() of an unbounded job: starts it now; the iterator yields the
    values of collect sink `collect_sink_id` as micro-batches produce them, raises the
    job's error if it fails, and stops the job (after its current batch) when closed."""
    batches: "queue.Queue" = queue.Queue(COLLECT_QUEUE_BATCHES)
    holder = {}

    def deliver(values: list) -> None:
        while True:
            handle = holder.get("handle")
            if handle is not None and handle._stop.is_set():
                return   # the iterator was closed: nobody reads any more
            try:
                batches.put(list(values), timeout=0.2)
                return
            except queue.Full:
                continue

    handle = StreamingJobHandle(job, job_name, options, settings, collect=deliver,
                                collect_sink_id=collect_sink_id)
    holder["handle"] = handle
    return _collected(handle, batches)


def _collected(handle: StreamingJobHandle, batches: "queue.Queue") -> Iterator:
    try:
        while True:
            try:
                values = batches.get(timeout=0.2)
            except queue.Empty:
                if handle._result.done():
                    error = handle._result.exception()
                    if error is not None:
                        raise error
                    if batches.empty():
                        return
                continue
            yield from values
    finally:
        handle._stop.set()
        handle._thread.join()
