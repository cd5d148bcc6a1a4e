"""Metrics user functions can register: counters, gauges, meters and distributions that work.

They implement the interfaces of pyflink_on_spark.metrics (pyflink.metrics). Values live in the
task; `MetricGroup.snapshot()` gives them as a dict (reported with the
job's accumulators where the executor collects them)."""
from __future__ import annotations

import time
from typing import Callable, Dict, List, Optional

from pyflink_on_spark.metrics import metricbase


class Counter(metricbase.Counter):
    def __init__(self) -> None:
        self._count = 0

    def inc(self, n: int = 1) -> None:
        self._count += n

    def dec(self, n: int = 1) -> None:
        self._count -= n

    def get_count(self) -> int:
        return self._count


class Gauge(metricbase.Metric):
    def __init__(self, obj: Callable[[], int]) -> None:
        self._obj = obj

    def get_value(self):
        return self._obj()


class Meter(metricbase.Meter):
    def __init__(self, time_span_in_seconds: int = 60) -> None:
        self._count = 0
        self._start = time.monotonic()
        self._time_span = time_span_in_seconds

    def mark_event(self, value: int = 1) -> None:
        self._count += value

    def get_count(self) -> int:
        return self._count

    def get_rate(self) -> float:
        elapsed = max(time.monotonic() - self._start, 1e-9)
        return self._count / elapsed


class Distribution(metricbase.Distribution):
    def __init__(self) -> None:
        self._values: List[int] = []

    def update(self, value: int) -> None:
        self._values.append(value)

    def get_statistics(self) -> Dict[str, float]:
        v = self._values
        if not v:
            return {"count": 0}
        return {"count": len(v), "min": min(v), "max": max(v), "mean": sum(v) / len(v)}


class MetricGroup(metricbase.MetricGroup):
    def __init__(self, scope: Optional[List[str]] = None) -> None:
        self._scope = list(scope or [])
        self._metrics: Dict[str, object] = {}
        self._children: Dict[str, "MetricGroup"] = {}

    def add_group(self, name: str, extra: str = None) -> "MetricGroup":
        key = name if extra is None else "%s.%s" % (name, extra)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = MetricGroup(self._scope + [key])
        return child

    def counter(self, name: str) -> Counter:
        return self._register(name, Counter())

    def gauge(self, name: str, obj: Callable[[], int]) -> None:
        self._register(name, Gauge(obj))

    def meter(self, name: str, time_span_in_seconds: int = 60) -> Meter:
        return self._register(name, Meter(time_span_in_seconds))

    def distribution(self, name: str) -> Distribution:
        return self._register(name, Distribution())

    def get_scope_components(self) -> List[str]:
        return list(self._scope)

    def get_all_variables(self) -> dict:
        return {}

    def get_metric_identifier(self, metric_name: str) -> str:
        return ".".join(self._scope + [metric_name])

    def _register(self, name, metric):
        self._metrics[name] = metric
        return metric

    def report(self) -> List[dict]:
        """Every metric of this group and its children as JSON-able entries (scope, name,
        kind, value), what a task writes beside its snapshot for the driver's reporters
        (a gauge whose value is not a number is reported as its text)."""
        out: List[dict] = []
        for name, m in self._metrics.items():
            entry = {"scope": list(self._scope), "name": name}
            if isinstance(m, Counter):
                entry.update(kind="counter", value=m.get_count())
            elif isinstance(m, Meter):
                entry.update(kind="meter", value=m.get_count(), rate=m.get_rate())
            elif isinstance(m, Gauge):
                value = m.get_value()
                entry.update(kind="gauge", value=value if isinstance(value, (int, float))
                             and not isinstance(value, bool) else str(value))
            elif isinstance(m, Distribution):
                entry.update(kind="distribution", value=m.get_statistics())
            out.append(entry)
        for child in self._children.values():
            out.extend(child.report())
        return out

    def snapshot(self) -> Dict[str, object]:
        out: Dict[str, object] = {}
        for name, m in self._metrics.items():
            ident = self.get_metric_identifier(name)
            if isinstance(m, Counter) or isinstance(m, Meter):
                out[ident] = m.get_count()
            elif isinstance(m, Gauge):
                out[ident] = m.get_value()
            elif isinstance(m, Distribution):
                out[ident] = m.get_statistics()
        for child in self._children.values():
            out.update(child.snapshot())
        return out
