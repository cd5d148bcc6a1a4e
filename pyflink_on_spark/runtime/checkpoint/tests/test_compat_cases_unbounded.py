"""Compat cases run as unbounded jobs: their input arrives over three micro-batches (each
batch restores the state the previous one snapshotted, as a streaming job's tasks do), then
the job is cancelled; compared with the bounded run over the same input. An unbounded job is
a bounded run repeated with state handed over, so:

* one input and no event time: the same records in the same order, per sink;
* two inputs: the same records per sink; the order across the two inputs follows the batches
  (within a batch each input's records come as they arrive, in Flink as here);
* event time: what the stream emitted is part of what the bounded run emitted (as a
  multiset, per sink). The rest fires only at the end of input, which a cancelled unbounded
  job never reaches.

Left out, with the reason: processing-time timers (the batches' clock is not the bounded
run's), printed watermarks and late-data merges (a watermark that advanced between batches
makes records late that the bounded run, seeing only the final watermark, takes on time:
Flink's streaming semantics, not an engine difference), BATCH-mode cases (key-sorted input)
and cases whose jobs fail on purpose.
"""
import contextlib
import io
import os
import runpy
from collections import Counter

import pytest

from pyflink_on_spark.direct import run_job
from pyflink_on_spark.runtime.checkpoint.tests.stream_harness import StreamRunner

CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 4,
                     "compat_tests", "cases")
BATCHES = 3

SAME_RECORDS_IN_ORDER = [
    "state/aggregating_state", "state/count_window_average", "state/keyed_state_in_functions",
    "state/list_state_ops", "state/map_state_ops", "state/reducing_state",
    "state/value_state_ops", "state/state_ttl_config", "state/state_value_types",
    "state/side_output_not_requested", "window/count_sliding_apply",
    "window/count_tumbling_apply", "window/count_window_sliding_fires_when_full",
    "window/global_window_purging_trigger", "two_input/keyed_co_map_state",
    "two_input/keyed_co_flat_map_map_state", "two_input/side_output_types",
    "two_input/side_output_without_consumer"]
SAME_RECORDS = [
    "state/runtime_context", "two_input/co_broadcast_process",
    "two_input/co_process_timestamps", "two_input/connect_keyed_with_plain",
    "two_input/co_map_co_flat_map", "two_input/side_output_keyed_broadcast",
    "two_input/side_output_keyed_co_process", "two_input/side_output_keyed_process",
    "two_input/side_output_process", "two_input/side_output_broadcast"]
PART_OF_THE_RECORDS = [
    "state/event_time_timers", "state/timers_parallel", "window/keyed_windows_parallel",
    "window/event_time_tumbling_process", "window/event_time_sliding_process",
    "window/event_time_session_process", "window/dynamic_gap_session_process",
    "window/continuous_event_time_trigger", "window/window_aggregate_process",
    "window/window_reduce_process", "window/window_all_reduce",
    "window/tumbling_window_all_process", "window/side_output_late_data",
    "window/allowed_lateness_late_firing", "two_input/keyed_co_process_timer",
    "two_input/keyed_co_broadcast_process", "window/event_time_windows_count_trigger"]


def _pieces(split, n):
    """A source split cut into n pieces (None: nothing in that batch): a collection's values,
    or a number sequence's (start, end) range."""
    if isinstance(split, tuple) and len(split) == 2 and all(isinstance(x, int) for x in split):
        start, end = split
        cuts = [start + (end - start + 1) * i // n for i in range(n + 1)]
        return [(cuts[i], cuts[i + 1] - 1) if cuts[i + 1] > cuts[i] else None
                for i in range(n)]
    values = list(split)
    return [values[len(values) * i // n: len(values) * (i + 1) // n] or None
            for i in range(n)]


def _bounded_and_streamed(case: str, tmp_path):
    """[(bounded, streamed)] per job of the case: {driver sink node: values}."""
    from pyflink_on_spark.aliasing import install_pyflink_alias
    from pyflink_on_spark.spark.entry import capture_jobs
    install_pyflink_alias()
    with capture_jobs() as jobs, contextlib.redirect_stdout(io.StringIO()):
        runpy.run_path(os.path.join(CASES, case + ".py"), run_name="__main__")
    assert jobs, "the case ran no job"
    runs = []
    for n, captured in enumerate(jobs):
        job = captured.job
        bounded = run_job(job)
        per_batch = [{} for _ in range(BATCHES)]
        for compiled in job.stages:
            if compiled.source is None:
                continue
            for subtask, split in compiled.source.splits:
                for batch, piece in enumerate(_pieces(split, BATCHES)):
                    if piece is not None:
                        per_batch[batch].setdefault(compiled.spec.stage_id, []).append(
                            (subtask, piece))
        runner = StreamRunner(job, str(tmp_path / ("job%d" % n)))
        streamed = {}
        for batch in range(BATCHES):
            for node, values in runner.run_batch(batch, per_batch[batch],
                                                 batch_time_ms=1000 * (batch + 1)).items():
                streamed.setdefault(node, []).extend(values)
        runs.append((bounded, streamed))
    return runs


def _multiset(values):
    return Counter(repr(v) for v in values)


@pytest.mark.parametrize("case", SAME_RECORDS_IN_ORDER)
def test_one_input_without_event_time_gives_the_same_records_in_order(case, tmp_path):
    for bounded, streamed in _bounded_and_streamed(case, tmp_path):
        assert streamed == bounded


@pytest.mark.parametrize("case", SAME_RECORDS)
def test_two_inputs_give_the_same_records(case, tmp_path):
    for bounded, streamed in _bounded_and_streamed(case, tmp_path):
        assert set(streamed) == set(bounded)
        for sink, values in bounded.items():
            assert _multiset(streamed[sink]) == _multiset(values), sink


@pytest.mark.parametrize("case", PART_OF_THE_RECORDS)
def test_event_time_gives_part_of_the_records_the_rest_waits_for_the_end_of_input(
        case, tmp_path):
    emitted = 0
    for bounded, streamed in _bounded_and_streamed(case, tmp_path):
        for sink, values in streamed.items():
            extra = _multiset(values) - _multiset(bounded.get(sink, []))
            assert not extra, (sink, extra)
            emitted += len(values)
    assert emitted, "the stream emitted nothing"


def test_the_sample_covers_what_the_issue_names():
    sample = SAME_RECORDS_IN_ORDER + SAME_RECORDS + PART_OF_THE_RECORDS
    assert len(sample) >= 20
    for needed in ("state/", "timer", "tumbling", "sliding", "session", "global_window",
                   "count_", "co_process", "broadcast", "side_output"):
        assert any(needed in case for case in sample), needed
