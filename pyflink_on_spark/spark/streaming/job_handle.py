"""execute_async on an unbounded job: the job runs in a background thread of the driver; the
JobClient's handle reports its status and cancels it (after the current micro-batch)."""
from __future__ import annotations

import threading
from concurrent.futures import Future

from pyflink_on_spark.common.job_id import JobID
from pyflink_on_spark.common.job_status import JobStatus


class StreamingJobHandle:
    """The JobHandle protocol (pyflink_on_spark.common.job_client) of a running job."""

    def __init__(self, job, job_name: str, options, settings) -> None:
        from pyflink_on_spark.spark.streaming.executor import execute_streaming
        self._job_id = JobID._generate()
        self._stop = threading.Event()
        self._result: Future = Future()
        self._state = JobStatus.RUNNING

        def run() -> None:
            try:
                result = execute_streaming(job, job_name, options, settings, stop=self._stop)
            except BaseException as e:
                self._state = JobStatus.FAILED
                self._result.set_exception(e)
                return
            self._state = JobStatus.CANCELED if self._stop.is_set() else JobStatus.FINISHED
            self._result.set_result(result)

        self._thread = threading.Thread(target=run, name="pyflink-on-spark " + job_name,
                                        daemon=True)
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
        raise NotImplementedError(
            "stop_with_savepoint on pyflink_on_spark: use cancel(); the job's checkpoint "
            "directory already holds its state, and running the job again resumes from it")

    def trigger_savepoint(self, savepoint_directory):
        raise NotImplementedError(
            "trigger_savepoint on pyflink_on_spark: every micro-batch completes a checkpoint "
            "in the job's checkpoint directory (docs/streaming.md)")

    def accumulators(self) -> Future:
        return self._done({})

    def result(self) -> Future:
        return self._result
