"""Declarative descriptions of sinks written by Spark's own writers (see graph/sinks.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple


@dataclass(frozen=True)
class KafkaWrite:
    """Records encoded by the sink operator as (topic, key, value) written with Spark's
    Kafka sink."""
    options: Tuple[Tuple[str, str], ...]     # Spark's Kafka sink options
