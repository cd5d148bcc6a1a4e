"""The snapshot a drained job leaves (stop_with_savepoint(True, ...), `flink stop --drain`).

Draining sends the end of event time (MAX_WATERMARK) through every operator: every
event-time timer and window fires. The watermarks it leaves behind must not be restored: a
job started from a drained savepoint (or a drained job run again from its checkpoint
directory) would find every record late and never fire a timer again. PyFlink 1.20.5
restored from a drained savepoint begins event time anew: a record of a window the drain
had fired was not late, the window fired again with that record alone (probe
spark/streaming/tests/data/drain_pyflink_probe.py). So the drained snapshot forgets event
time: what the operators, their timer services, watermark generators and input valves
recorded of it goes back to where a fresh start has it. Keyed state, timers still pending
(processing time) and broadcast state are kept.
"""
from __future__ import annotations

from typing import Dict

from pyflink_on_spark.runtime.watermarks import MIN_WATERMARK


def forget_event_time(snaps: Dict[int, dict]) -> Dict[int, dict]:
    """The task's snapshots (node -> Operator.snapshot_state's dict, the head's with the
    task's own valve), changed in place and returned, without the event time they hold."""
    for snap in snaps.values():
        if "watermark" in snap:
            snap["watermark"] = MIN_WATERMARK
        timers = snap.get("timers")
        if timers and "watermark" in timers:
            timers["watermark"] = MIN_WATERMARK
        # a source's or assign_timestamps_and_watermarks' generator (and its splits'): the
        # largest timestamp seen and the watermark emitted; without it the generator starts
        # as new
        snap.pop("generator", None)
        valve = snap.get("valve")
        if valve is not None:
            snap["valve"] = dict(valve, combined=MIN_WATERMARK,
                                 marks={channel: MIN_WATERMARK for channel in valve["marks"]},
                                 idle={channel: False for channel in valve["marks"]})
        if "watermark_out" in snap:
            snap["watermark_out"] = None
    return snaps
