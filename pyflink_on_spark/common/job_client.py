"""pyflink.common.job_client mirror: a handle on a job started with execute_async."""
from typing import Any, Optional, Protocol

from pyflink_on_spark.common.completable_future import CompletableFuture
from pyflink_on_spark.common.job_execution_result import JobExecutionResult
from pyflink_on_spark.common.job_id import JobID
from pyflink_on_spark.common.job_status import JobStatus
from pyflink_on_spark.common.utils import no_jvm

__all__ = ['JobClient']


class JobHandle(Protocol):
    """What the shim's executor provides for a running job (stands in for Java's JobClient).

    Each method returns a concurrent.futures.Future.
    """

    def job_id(self) -> JobID: ...

    def status(self) -> Any: ...  # Future[JobStatus]

    def cancel(self) -> Any: ...  # Future[None]

    def stop_with_savepoint(self, advance_to_end_of_event_time: bool,
                            savepoint_directory: Optional[str]) -> Any: ...  # Future[str]

    def trigger_savepoint(self, savepoint_directory: Optional[str]) -> Any: ...  # Future[str]

    def accumulators(self) -> Any: ...  # Future[Dict[str, Any]]

    def result(self) -> Any: ...  # Future[JobExecutionResult]


class JobClient(object):
    """A client scoped to one job."""

    def __init__(self, j_job_client: JobHandle):
        if not hasattr(j_job_client, "job_id") or not hasattr(j_job_client, "result"):
            no_jvm("JobClient(j_job_client)", "it wraps a Java JobClient")
        self._j_job_client = j_job_client

    def get_job_id(self) -> JobID:
        return self._j_job_client.job_id()

    def get_job_status(self) -> CompletableFuture:
        return CompletableFuture(self._j_job_client.status(), JobStatus._from_j_job_status)

    def cancel(self) -> CompletableFuture:
        return CompletableFuture(self._j_job_client.cancel())

    def stop_with_savepoint(self, advance_to_end_of_event_time: bool,
                            savepoint_directory: str = None) -> CompletableFuture:
        """Stop the job with a savepoint; the future gives the savepoint path."""
        return CompletableFuture(self._j_job_client.stop_with_savepoint(
            advance_to_end_of_event_time, savepoint_directory), str)

    def trigger_savepoint(self, savepoint_directory: str = None) -> CompletableFuture:
        """Trigger a savepoint; the future gives the savepoint path."""
        return CompletableFuture(self._j_job_client.trigger_savepoint(savepoint_directory), str)

    def get_accumulators(self) -> CompletableFuture:
        return CompletableFuture(self._j_job_client.accumulators(), dict)

    def get_job_execution_result(self) -> CompletableFuture:
        return CompletableFuture(self._j_job_client.result(), _as_result)


def _as_result(value: Any) -> JobExecutionResult:
    return value if isinstance(value, JobExecutionResult) else JobExecutionResult(value)


