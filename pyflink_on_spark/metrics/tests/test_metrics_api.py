"""pyflink.metrics: the metrics a function registers are instances of the public classes (as
on PyFlink), and importing the API does not import the engine."""
import subprocess
import sys

from pyflink_on_spark.metrics import Counter, Distribution, Meter, Metric, MetricGroup
from pyflink_on_spark.runtime.metrics import MetricGroup as TaskMetricGroup


def test_registered_metrics_are_instances_of_the_api_classes():
    group = TaskMetricGroup(["task"]).add_group("key", "value")
    assert isinstance(group, MetricGroup)
    counter = group.counter("c")
    counter.inc(3)
    counter.dec()
    assert isinstance(counter, Counter) and counter.get_count() == 2
    meter = group.meter("m")
    meter.mark_event(4)
    assert isinstance(meter, Meter) and meter.get_count() == 4
    distribution = group.distribution("d")
    distribution.update(5)
    assert isinstance(distribution, Distribution) and isinstance(distribution, Metric)
    assert group.snapshot()["task.key.value.c"] == 2


def test_api_module_does_not_import_the_runtime():
    code = ("import sys, pyflink_on_spark.metrics; "
            "print([m for m in sys.modules if m.startswith('pyflink_on_spark.runtime')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
