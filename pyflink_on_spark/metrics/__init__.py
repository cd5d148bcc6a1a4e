"""Metrics (mirror of pyflink.metrics, PyFlink 1.20): the interfaces of what
RuntimeContext.get_metrics_group() returns."""
from pyflink_on_spark.metrics.metricbase import Counter, Distribution, Meter, Metric, MetricGroup

__all__ = ["MetricGroup", "Metric", "Counter", "Meter", "Distribution"]
