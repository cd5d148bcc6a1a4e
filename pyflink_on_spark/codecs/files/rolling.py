"""Rolling policies: when a sink subtask closes its part file and starts the next one."""
from __future__ import annotations


class DefaultRolling:
    """DefaultRollingPolicy: before writing a record, roll if the part is larger than
    part_size bytes (Flink checks `size > part_size`, so a part may exceed it by one record);
    and, every bucket check interval, roll parts older than rollover_interval or idle for
    inactivity_interval (milliseconds)."""

    rolls_on_size = True

    def __init__(self, part_size: int = 128 * 1024 * 1024, rollover_interval: int = 60_000,
                 inactivity_interval: int = 60_000) -> None:
        self.part_size = part_size
        self.rollover_interval = rollover_interval
        self.inactivity_interval = inactivity_interval

    def should_roll_on_event(self, size: int) -> bool:
        return size > self.part_size

    def should_roll_on_time(self, created_ms: int, updated_ms: int, now_ms: int) -> bool:
        return (now_ms - created_ms >= self.rollover_interval
                or now_ms - updated_ms >= self.inactivity_interval)

    def __repr__(self) -> str:
        return "DefaultRollingPolicy(part_size=%d, rollover_interval=%d, inactivity_interval=%d)"\
            % (self.part_size, self.rollover_interval, self.inactivity_interval)


class CheckpointRolling:
    """OnCheckpointRollingPolicy: parts roll only on checkpoints. A bounded job takes none,
    so each subtask writes one part per bucket, finished at the end of input."""

    rolls_on_size = False

    def should_roll_on_event(self, size: int) -> bool:
        return False

    def should_roll_on_time(self, created_ms: int, updated_ms: int, now_ms: int) -> bool:
        return False

    def __repr__(self) -> str:
        return "OnCheckpointRollingPolicy"
