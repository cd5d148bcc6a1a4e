"""pyflink.common.job_id mirror: the identifier of a job."""
import os

__all__ = ['JobID']


class JobID(object):
    """Unique identifier of a job: 16 random bytes shown as 32 lowercase hex digits."""

    def __init__(self, j_job_id):
        # PyFlink wraps a Java JobID; the shim keeps its hex string
        text = str(j_job_id)
        if len(text) != 32 or any(c not in "0123456789abcdef" for c in text):
            raise ValueError("JobID expects 32 lowercase hex digits, got %r" % (j_job_id,))
        self._j_job_id = text

    @staticmethod
    def _generate() -> 'JobID':
        return JobID(os.urandom(16).hex())

    def __str__(self):
        return self._j_job_id

    def __repr__(self):
        return "JobID(%s)" % self._j_job_id

    def __eq__(self, other):
        return isinstance(other, JobID) and self._j_job_id == other._j_job_id

    def __hash__(self):
        return hash(self._j_job_id)


def new_job_id() -> JobID:
    """A fresh random JobID: what the executors give each job they run (the engine's way to
    make one; PyFlink's JobID has no public constructor from nothing)."""
    return JobID._generate()
