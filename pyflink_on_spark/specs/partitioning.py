"""How records travel from an operator to the next one across an exchange: one class per
Flink partitioner. `ship_strategy` is the name Flink's execution plan gives it; `label` the
name of the (virtual) partition node the API adds."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Partitioning:
    ship_strategy: ClassVar[str] = ""
    label: ClassVar[str] = ""


@dataclass(frozen=True)
class ForwardPartitioning(Partitioning):
    """Subtask i feeds subtask i (equal parallelism); the only chainable edge."""
    ship_strategy: ClassVar[str] = "FORWARD"
    label: ClassVar[str] = "Forward"


@dataclass(frozen=True)
class RebalancePartitioning(Partitioning):
    """Round robin over all downstream subtasks (the default across parallelism changes)."""
    ship_strategy: ClassVar[str] = "REBALANCE"
    label: ClassVar[str] = "Rebalance"


@dataclass(frozen=True)
class RescalePartitioning(Partitioning):
    """Round robin over a local group of downstream subtasks (Flink's pointwise wiring)."""
    ship_strategy: ClassVar[str] = "RESCALE"
    label: ClassVar[str] = "Rescale"


@dataclass(frozen=True)
class ShufflePartitioning(Partitioning):
    """A random downstream subtask per record."""
    ship_strategy: ClassVar[str] = "SHUFFLE"
    label: ClassVar[str] = "Shuffle"


@dataclass(frozen=True)
class BroadcastPartitioning(Partitioning):
    """Every record to every downstream subtask."""
    ship_strategy: ClassVar[str] = "BROADCAST"
    label: ClassVar[str] = "Broadcast"


@dataclass(frozen=True)
class GlobalPartitioning(Partitioning):
    """Every record to downstream subtask 0."""
    ship_strategy: ClassVar[str] = "GLOBAL"
    label: ClassVar[str] = "Global"


@dataclass(frozen=True)
class KeyedPartitioning(Partitioning):
    """key_by: the key's key group decides the subtask."""
    key_selector: Any = None
    key_type: Any = None                # the declared key type (decides the key's hash)
    ship_strategy: ClassVar[str] = "HASH"
    label: ClassVar[str] = "Keyed"


@dataclass(frozen=True)
class CustomPartitioning(Partitioning):
    """partition_custom: partitioner.partition(key, n) decides the subtask."""
    partitioner: Any = None             # datastream.functions.Partitioner
    key_selector: Any = None
    ship_strategy: ClassVar[str] = "CUSTOM"
    label: ClassVar[str] = "Custom"
