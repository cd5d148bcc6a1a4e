"""What a source node runs inside its tasks."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable


@dataclass(frozen=True)
class SourceReaderSpec:
    """A source subtask: `reader(split)` yields the records of each split given to it; the
    watermark strategy (None: records carry no timestamp) is applied as from_source does."""
    reader: Callable[[Any], Iterable[Any]]
    watermark_strategy: Any = None
