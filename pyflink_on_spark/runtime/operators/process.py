"""The non-keyed process primitive. map / flat_map / filter are fast paths of it: PyFlink
runs them as process functions too, so their results go through the same emission rules."""
from __future__ import annotations

from pyflink_on_spark.datastream.functions import ProcessFunction, per_record_callable
from pyflink_on_spark.datastream.timerservice import TimerService
from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK
from pyflink_on_spark.runtime.operators.base import Operator, emit_results
from pyflink_on_spark.datastream.output_tag import OutputTag


class NonKeyedTimerService(TimerService):
    """Timers of non-keyed functions: reading the clocks works, timers raise as in PyFlink
    (a plain Exception with PyFlink's messages)."""

    def __init__(self, operator: "ProcessOperator"):
        self._operator = operator

    def current_processing_time(self):
        return self._operator.task.clock()

    def current_watermark(self):
        return self._operator.current_watermark

    def register_processing_time_timer(self, timestamp: int):
        raise Exception("Register timers is only supported on a keyed stream.")

    def register_event_time_timer(self, timestamp: int):
        raise Exception("Register timers is only supported on a keyed stream.")

    def delete_processing_time_timer(self, timestamp: int):
        raise Exception("Deleting timers is only supported on a keyed streams.")

    def delete_event_time_timer(self, timestamp: int):
        raise Exception("Deleting timers is only supported on a keyed streams.")


class _ProcessContext(ProcessFunction.Context):
    __slots__ = ("_timestamp", "_timer_service")

    def __init__(self, timer_service):
        self._timestamp = None
        self._timer_service = timer_service

    def timestamp(self) -> int:
        # A record without a timestamp reports Long.MIN_VALUE, as in PyFlink.
        ts = self._timestamp
        return MIN_WATERMARK if ts is None else ts

    def timer_service(self):
        return self._timer_service


class ProcessOperator(Operator):
    """Runs a ProcessFunction: the non-keyed one-input primitive. Its subclasses run map /
    flat_map / filter functions on the same primitive, each binding its own per-record
    function once in prepare().

    The per-record closures call the user function inline (not through call_user: one Python
    call less per record); a UserFunctionError of a chained operator downstream passes
    through user_error unchanged."""

    def __init__(self, function) -> None:
        super().__init__()
        self.function = function

    def prepare(self) -> None:
        self._ctx = _ProcessContext(NonKeyedTimerService(self))
        self.process_element = self._bind_process_element(self.output)

    def _bind_process_element(self, output):
        user_process = self.function.process_element
        ctx = self._ctx
        user_error = self.user_error

        def process_element(value, timestamp):
            ctx._timestamp = timestamp
            try:
                emit_results(user_process(value, ctx), output, timestamp)
            except Exception as e:
                raise user_error(e) from None
        return process_element


class MapOperator(ProcessOperator):
    """DataStream.map: one result per record (a `(OutputTag, value)` result goes to that side
    output when one is consumed, as PyFlink's process-function wrapping does)."""

    def _bind_process_element(self, output):
        user_map = per_record_callable(self.function, "map")
        collect = output.collect
        user_error = self.user_error
        if output.fuse_map is not None and not output.routes_side_outputs:
            # the map runs inside the exit's input methods (no side output can take a result)
            process_element, self.process_many = output.fuse_map(user_map, user_error)
            return process_element
        if output.takes_many() and not output.routes_side_outputs:
            # a list of records (a slice of a source split) is mapped in one loop, and the
            # results go on together into the target's own loop (assign_timestamps_and_
            # watermarks before a keyed exit: one call per record less on each side)
            collect_many = output.collect_many

            def process_many(values, timestamp):
                if not isinstance(values, (list, tuple, range)):
                    for value in values:
                        process_element(value, timestamp)
                    return
                results = []
                try:
                    for value in values:
                        results.append(user_map(value))
                except Exception as e:
                    collect_many(results, timestamp)     # those before went on
                    raise user_error(e) from None
                collect_many(results, timestamp)
            self.process_many = process_many

        def process_element(value, timestamp):
            try:
                result = user_map(value)
            except Exception as e:
                raise user_error(e) from None
            if output.routes_side_outputs and result.__class__ is tuple and result and isinstance(
                    result[0], OutputTag):
                output.collect_side(result[0].tag_id, result[1], timestamp)
            else:
                collect(result, timestamp)
        return process_element


class FlatMapOperator(ProcessOperator):
    """DataStream.flat_map: the function's iterable goes through the process emission rules."""

    def _bind_process_element(self, output):
        user_flat_map = per_record_callable(self.function, "flat_map")
        user_error = self.user_error

        def process_element(value, timestamp):
            try:
                emit_results(user_flat_map(value), output, timestamp)
            except Exception as e:
                raise user_error(e) from None
        return process_element


class FilterOperator(ProcessOperator):
    """DataStream.filter: the record itself when the function says so."""

    def _bind_process_element(self, output):
        user_filter = per_record_callable(self.function, "filter")
        collect = output.collect
        user_error = self.user_error

        def process_element(value, timestamp):
            try:
                keep = user_filter(value)
            except Exception as e:
                raise user_error(e) from None
            if keep:
                collect(value, timestamp)
        return process_element
