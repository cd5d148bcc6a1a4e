"""pyflink.common.job_execution_result mirror: what env.execute() returns."""
from typing import Any, Dict, NamedTuple, Optional

from pyflink_on_spark.common.job_id import JobID
from pyflink_on_spark.common.utils import no_jvm

__all__ = ['JobExecutionResult']


class JobResultData(NamedTuple):
    """What the shim's executor reports about a finished job (stands in for the Java object)."""
    job_id: JobID
    net_runtime_ms: int
    accumulators: Dict[str, Any]


class JobExecutionResult(object):
    """The result of a job execution: job id, net runtime and accumulator results."""

    def __init__(self, j_job_execution_result: JobResultData):
        if not isinstance(j_job_execution_result, JobResultData):
            no_jvm("JobExecutionResult(j_job_execution_result)",
                   "it wraps a Java JobExecutionResult")
        self._j_job_execution_result = j_job_execution_result

    @staticmethod
    def _of(job_id: JobID, net_runtime_ms: int,
            accumulators: Optional[Dict[str, Any]] = None) -> 'JobExecutionResult':
        return JobExecutionResult(JobResultData(job_id, int(net_runtime_ms),
                                                dict(accumulators or {})))

    def get_job_id(self) -> JobID:
        return self._j_job_execution_result.job_id

    def get_net_runtime(self) -> int:
        """Net execution time of the job in milliseconds."""
        return self._j_job_execution_result.net_runtime_ms

    def get_accumulator_result(self, accumulator_name: str):
        """The named accumulator's result, or None if the job produced none by that name."""
        return self.get_all_accumulator_results().get(accumulator_name)

    def get_all_accumulator_results(self) -> Dict[str, Any]:
        return dict(self._j_job_execution_result.accumulators)

    def is_job_execution_result(self) -> bool:
        """True: this is the result of a finished job (Java's JobSubmissionResult API)."""
        return True

    def get_job_execution_result(self) -> 'JobExecutionResult':
        return self

    def __str__(self):
        # the text PyFlink 1.20 shows for a finished job (observed)
        text = ("Program execution finished\nJob with JobID %s has finished.\n"
                "Job Runtime: %d ms\n" % (self.get_job_id(), self.get_net_runtime()))
        accumulators = self.get_all_accumulator_results()
        if accumulators:
            # PyFlink jobs have no accumulators; this part is the shim's own format
            text += "Accumulator Results: \n" + "".join(
                "- %s: %s\n" % (k, v) for k, v in sorted(accumulators.items()))
        return text


def finished_job_result(net_runtime_ms: int, job_id: Optional[JobID] = None,
                        accumulators: Optional[Dict[str, Any]] = None) -> JobExecutionResult:
    """What env.execute() returns for a job the executors ran (a fresh JobID unless given):
    the engine's way to build one, PyFlink's class taking a Java object."""
    from pyflink_on_spark.common.job_id import new_job_id
    return JobExecutionResult._of(job_id if job_id is not None else new_job_id(),
                                  net_runtime_ms, accumulators)
