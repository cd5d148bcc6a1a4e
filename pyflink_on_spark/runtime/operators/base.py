"""The operator interface every primitive implements (push-based, like Flink's)."""
from __future__ import annotations

import os
import traceback
from typing import Optional

from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.runtime.context import StreamingRuntimeContext, TaskContext
from pyflink_on_spark.runtime.errors import UserFunctionError
from pyflink_on_spark.runtime.output import Output
from pyflink_on_spark.runtime.state.backend import StateDeclarationChanged
from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The file names in the bytecode of the zip the shim ships to a cluster's workers
# (spark/package_shipping.py): relative, as where the zip lands is not known when it is built
_SHIPPED_PREFIX = "pyflink_on_spark/"


class Operator:
    """One operator instance inside a running task.

    Lifecycle: setup (wired to its output and task) -> prepare (hot path bound) -> open ->
    process_element / process_element2 / process_watermark / advance_processing_time ->
    end_input -> close. In an unbounded job, the checkpoint lifecycle (below) instead of
    end_input: restore_state after open, then per micro-batch begin_batch, the records,
    end_batch, snapshot_state. An operator running a user function keeps it in ``function``: the
    base class opens it with a RuntimeContext and closes it.

    User code is called through ``call_user`` (or, on a per-record hot path where one more
    call would cost, an inline ``except Exception as e: raise self.user_error(e) from None``):
    what it raises reaches the driver as a UserFunctionError naming this operator. An error
    already wrapped by a downstream operator passes through unchanged.
    """

    name = "Operator"
    has_timers = False  # True for operators whose processing-time timers the task must poll
    function = None     # the user function this operator runs, if any
    # process_many(values, timestamp): records of an iterable in one loop, for an operator
    # that has one (a map fused into an exit: output.py); None: process_element each
    process_many = None
    # process_stamped(values, stamps): records with a timestamp each, in one loop; None:
    # process_element each
    process_stamped = None
    # fuse_map(user_map, map_error) -> (process_element, process_many) of this operator with
    # a map applied first (output.py fuse_map), for an operator that can take one into its
    # loop (operators/timestamps.py); None: it cannot
    fuse_map = None

    def runs_user_code(self) -> bool:
        """Whether taking a record calls a user function (output.py
        takes_stamped_in_bulk); an operator that runs none says so."""
        return True

    def __init__(self) -> None:
        self.output: Optional[Output] = None
        self.task: Optional[TaskContext] = None
        self.current_watermark = MIN_WATERMARK

    def setup(self, output: Output, task: TaskContext, name: str) -> None:
        self.output = output
        self.task = task
        self.name = name

    def prepare(self) -> None:
        """Called once this operator's output is wired (downstream first), before open():
        operators may bind their hot path to the final output here."""

    def open(self) -> None:
        if self.function is not None:
            self.open_function(StreamingRuntimeContext(self.task))

    def open_function(self, runtime_context: StreamingRuntimeContext) -> None:
        self.call_user(self.function.open, runtime_context)

    def process_element(self, value, timestamp) -> None:
        raise NotImplementedError

    def process_element2(self, value, timestamp) -> None:
        raise NotImplementedError("%s has one input" % self.name)

    def process_watermark(self, watermark: int) -> None:
        if watermark > self.current_watermark:
            self.current_watermark = watermark
            self.output.emit_watermark(watermark)

    def advance_processing_time(self, now: int) -> None:
        """Fire processing-time timers due at `now` (only operators with timers do)."""

    def end_input(self) -> None:
        pass

    # -- the checkpoint lifecycle (unbounded jobs: runtime/checkpoint/micro_batch.py) ------------
    #
    # As Flink's StreamOperator: each operator saves and restores its own state. An unbounded
    # job runs its operators once per micro-batch: begin_batch, records, end_batch, then
    # snapshot_state; restore_state once when an operator instance starts (after open()).
    # `context`: runtime/checkpoint/context.py's CheckpointContext.

    # whether this operator makes the watermarks of its output (a source, or
    # assign_timestamps_and_watermarks): then output_idle says when its output is idle
    generates_watermarks = False

    def snapshot_state(self, context) -> dict:
        """This instance's state after a micro-batch, as a dict (pickled into the checkpoint):
        ``watermark``, and where the operator has them ``keyed`` (its keyed state backend's
        own description), ``timers`` and ``broadcast``. Subclasses add their own keys."""
        snap = {"watermark": self.current_watermark}
        backend = getattr(self, "backend", None)
        if backend is not None:
            snap["keyed"] = backend.snapshot_to_store(context.store, context.version,
                                                      context.state_id, context.subtask)
        timers = getattr(self, "timers", None)
        if timers is not None:
            snap["timers"] = timers.snapshot()
        broadcast = getattr(self, "broadcast_states", None)
        if broadcast is not None:
            snap["broadcast"] = broadcast.snapshot()
        return snap

    def restore_state(self, parts, context) -> None:
        """Called once when the instance starts, after open() (Flink's initializeState).
        ``parts``: [(old subtask, snapshot_state's dict)] to take state from: none (a fresh
        start, or an operator the checkpoint does not know), this subtask's own (same
        parallelism, ``context.keep`` None), or every old subtask's after rescaling
        (``context.keep`` says which keys are this subtask's). Merged: keyed state and timers
        by key, broadcast state from any one old subtask (they are replicas), the watermark
        as the minimum (never ahead of any merged input)."""
        if not parts:
            return
        snaps = [snap for _, snap in parts]
        self.current_watermark = min(s["watermark"] for s in snaps)
        backend = getattr(self, "backend", None)
        if backend is not None:
            keyed = [(old, s["keyed"]) for old, s in parts if "keyed" in s]
            kinds = {description["kind"] for _, description in keyed}
            if kinds == {backend.checkpoint_kind}:
                try:
                    backend.restore_from_store(context.store, context.version,
                                               context.state_id, keyed, context.keep)
                except StateDeclarationChanged as e:
                    raise StateDeclarationChanged("operator %s (state id '%s'): %s" % (
                        self.name, context.state_id, e)) from None
            elif kinds:
                raise RuntimeError(
                    "operator %s: the checkpoint holds %s keyed state but the job now uses "
                    "%s; restoring across state backends is not supported (start from an "
                    "empty checkpoint directory)" % (self.name, "/".join(sorted(kinds)),
                                                     type(backend).__name__))
        timers = getattr(self, "timers", None)
        if timers is not None:
            timers.restore([s.get("timers", {}) for s in snaps], context.keep)
        broadcast = getattr(self, "broadcast_states", None)
        if broadcast is not None and "broadcast" in snaps[0]:
            broadcast.restore(snaps[0]["broadcast"])

    def begin_batch(self, context) -> None:
        """A micro-batch starts (``context.version``: its id)."""

    def end_batch(self, now: int) -> None:
        """The micro-batch's input ended and its processing-time timers fired (``now``: the
        batch's processing time); its checkpoint comes next: emit the periodic watermark,
        flush a producer, commit a transaction, roll part files."""

    def output_idle(self, now: int, last_input_time) -> bool:
        """For an operator that generates_watermarks: whether its output is idle after a
        micro-batch at processing time ``now`` (``last_input_time``: when the subtask last
        had input, None: never)."""
        return False

    def close(self) -> None:
        if self.function is not None:
            try:
                self.function.close()
            except Exception as e:
                # PyFlink ignores what a user function's close() raises: the job still
                # succeeds (observed, compat case basic/user_function_close_raises)
                import sys
                print("pyflink-on-spark: %s.close() in operator '%s' raised %s: %s "
                      "(ignored, as PyFlink does)" % (type(self.function).__name__,
                                                     self.name, type(e).__name__, e),
                      file=sys.stderr)

    def call_user(self, user_code, *args):
        """``user_code(*args)``; what it raises becomes a UserFunctionError of this operator."""
        try:
            return user_code(*args)
        except Exception as e:
            raise self.user_error(e) from None

    def user_error(self, exc: BaseException) -> UserFunctionError:
        """Wrap an exception from user code, keeping only the user's own frames on top."""
        subtask = self.task.subtask_index if self.task is not None else 0
        return user_function_error(exc, self.name, subtask)


def user_function_error(exc: BaseException, operator_name: str,
                        subtask: int) -> UserFunctionError:
    """`exc`, raised by user code of operator `operator_name`, as a UserFunctionError whose
    traceback starts at the user's own frames (one already wrapped is returned as it is)."""
    if isinstance(exc, UserFunctionError):
        return exc
    frames = traceback.extract_tb(exc.__traceback__)
    user_frames = [f for f in frames if not _is_engine_frame(f.filename)]
    exc.__traceback__ = _trim(exc.__traceback__, {id(f) for f in user_frames}, frames)
    return UserFunctionError(operator_name, subtask, exc)


def _is_engine_frame(filename: str) -> bool:
    return (filename.startswith(_PACKAGE_DIR) or filename.startswith(_SHIPPED_PREFIX)) and \
        os.sep + "tests" + os.sep not in filename


def _trim(tb, keep_ids, frames):
    # Drop leading engine frames so the traceback starts in user code.
    index = 0
    while tb is not None and index < len(frames) and id(frames[index]) not in keep_ids:
        tb = tb.tb_next
        index += 1
    return tb


def emit_results(results, output: Output, timestamp) -> None:
    """Send what a process-style function produced: `yield tag, value` goes to a side output
    (PyFlink's only way to emit side outputs), anything else to the main output. As in PyFlink,
    an operator none of whose side outputs is consumed emits `(tag, value)` as a main record."""
    if results is None:
        return
    if not output.routes_side_outputs:
        output.collect_many(results, timestamp)
        return
    collect = output.collect
    for item in results:
        if item.__class__ is tuple and item and isinstance(item[0], OutputTag):
            output.collect_side(item[0].tag_id, item[1], timestamp)
        else:
            collect(item, timestamp)
