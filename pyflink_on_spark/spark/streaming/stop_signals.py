"""Ctrl-C and SIGTERM stop an unbounded job in order, then end the process as PyFlink's
client ends: by the signal.

PyFlink 1.20.5's client (seen with a monitored FileSource job, signal to the process group)
dies by the signal: SIGTERM prints nothing, Ctrl-C prints a KeyboardInterrupt traceback
through py4j's socket read; the exit status is the signal's (143 / 130 to a shell). The shim
first finishes the running micro-batch and stops the query (nothing half-written, the state
kept for a restart), prints one line saying so, then exits with that same status (128 + the
signal, through SystemExit: buffers flushed, exit functions run). A program's own handler
for the signal, if it had one, is called instead.
"""
from __future__ import annotations

import signal
import sys
import threading
from typing import Callable, Dict, Optional

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopSignals:
    """Installs the stop handlers (main thread only) for the span of a run; `received` is
    the signal that asked for the stop, if one did."""

    def __init__(self, stop: threading.Event) -> None:
        self.stop = stop
        self.received: Optional[int] = None
        self._previous: Dict[int, object] = {}

    def __enter__(self) -> "StopSignals":
        if threading.current_thread() is threading.main_thread():
            for sig in SIGNALS:
                self._previous[sig] = signal.signal(sig, self._request_stop)
        return self

    def _request_stop(self, signum, frame) -> None:
        if self.received is None:
            self.received = signum
        self.stop.set()

    def __exit__(self, *exc) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)

    def end_process(self, job_name: str, batches: int, state_kept_in: Optional[str]) -> None:
        """After the orderly stop: one line on stderr, then the program's own handler of the
        signal, or the exit status of a death by the signal."""
        sig = self.received
        if sig is None:
            return
        kept = ("its state is kept in %s: run it again to continue" % state_kept_in
                if state_kept_in else "checkpointing is off: a new run starts afresh")
        sys.stderr.write("pyflink-on-spark: job '%s' stopped by %s after %d micro-batch%s; "
                         "%s\n" % (job_name, signal.Signals(sig).name, batches,
                                   "" if batches == 1 else "es", kept))
        previous = self._previous.get(sig)
        if callable(previous) and not _is_default(previous):
            previous(sig, None)
            return
        die_by(sig)


def _is_default(handler: Callable) -> bool:
    """Python's own Ctrl-C handler, or the shim's (spark/session.py: cancel the Spark jobs,
    then KeyboardInterrupt): both mean "the program stops here"."""
    return handler is signal.default_int_handler or \
        getattr(handler, "pyflink_on_spark_ctrl_c", False)


def die_by(sig: int) -> None:
    """Ends this program with the status a death by `sig` gives (128 + the signal: 130 for
    Ctrl-C, 143 for SIGTERM, what a shell or a supervisor sees of PyFlink's client), through
    SystemExit so that the standard streams are flushed and exit functions (temporary
    directories) run; the code after execute() does not run, as on PyFlink."""
    raise SystemExit(128 + sig)
