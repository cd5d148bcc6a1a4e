"""pyflink.common.job_status mirror."""
from enum import Enum

__all__ = ['JobStatus']

# Flink's JobStatus carries a TerminalState per status: GLOBALLY (job is done for good),
# LOCALLY (only SUSPENDED: this JobManager stopped, another may resume) or NON_TERMINAL.
_GLOBALLY_TERMINAL = frozenset(['FAILED', 'CANCELED', 'FINISHED'])
_LOCALLY_TERMINAL = frozenset(['SUSPENDED'])


class JobStatus(Enum):
    """States of a job once accepted by the job manager.

    CREATED, RUNNING, FAILING, FAILED, CANCELLING, CANCELED, FINISHED, RESTARTING,
    SUSPENDED (stopped, may be resumed by another master), RECONCILING (recovering state).
    """
    CREATED = 0
    RUNNING = 1
    FAILING = 2
    FAILED = 3
    CANCELLING = 4
    CANCELED = 5
    FINISHED = 6
    RESTARTING = 7
    SUSPENDED = 8
    RECONCILING = 9

    def is_globally_terminal_state(self) -> bool:
        """True for FAILED, CANCELED and FINISHED: the job will never run again."""
        return self.name in _GLOBALLY_TERMINAL

    def is_terminal_state(self) -> bool:
        """True for the globally terminal states and for SUSPENDED."""
        return self.name in _GLOBALLY_TERMINAL or self.name in _LOCALLY_TERMINAL

    @staticmethod
    def _from_j_job_status(j_job_status) -> 'JobStatus':
        # Accept a status name (what the shim's executor reports) or another JobStatus.
        if isinstance(j_job_status, JobStatus):
            return j_job_status
        return JobStatus[str(j_job_status)]
