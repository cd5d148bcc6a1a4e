"""pyflink.common.completable_future mirror, backed by concurrent.futures.Future."""
from concurrent.futures import CancelledError, Future
from typing import Any, Callable, Optional

from pyflink_on_spark.common.utils import no_jvm

__all__ = ['CompletableFuture']


class CompletableFuture(object):
    """A future value (e.g. of a job submitted with execute_async).

    ``py_class``, when given, is applied to the result (as PyFlink wraps Java results).
    """

    def __init__(self, j_completable_future: Future,
                 py_class: Optional[Callable[[Any], Any]] = None):
        if not isinstance(j_completable_future, Future):
            no_jvm("CompletableFuture(j_completable_future)",
                   "it wraps a Java CompletableFuture")
        self._j_completable_future = j_completable_future
        self._py_class = py_class

    def cancel(self) -> bool:
        """Cancel the future if it has not completed; True if it is now cancelled."""
        future = self._j_completable_future
        if future.cancel():
            return True
        if not future.done():
            # already running: completing it as cancelled is what Java's cancel(true) does
            try:
                future.set_exception(CancelledError())
            except Exception:
                return future.cancelled()
            self._cancelled = True
            return True
        return future.cancelled() or getattr(self, '_cancelled', False)

    def cancelled(self) -> bool:
        return self._j_completable_future.cancelled() or getattr(self, '_cancelled', False)

    def done(self) -> bool:
        return self._j_completable_future.done()

    def result(self):
        """Wait for completion and return the result (raises if it completed exceptionally)."""
        value = self._j_completable_future.result()
        return value if self._py_class is None else self._py_class(value)

    def exception(self):
        """The exception the future completed with, or None."""
        future = self._j_completable_future
        if not future.done():
            return None
        if future.cancelled():
            return CancelledError()
        return future.exception()

    def __str__(self):
        future = self._j_completable_future
        if not future.done():
            state = "Not completed"
        elif self.cancelled() or future.exception() is not None:
            state = "Completed exceptionally"
        else:
            state = "Completed normally"
        return "CompletableFuture[%s]" % state
