"""`from pyflink.metrics import ...`: what get_metrics_group() registers is an instance of
the public classes."""
from pyflink.common import Types
from pyflink.datastream import MapFunction, RuntimeContext, StreamExecutionEnvironment
from pyflink.metrics import Counter, Distribution, Meter, Metric, MetricGroup


class Counting(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        group = runtime_context.get_metrics_group()
        self.kinds = "group=%s" % isinstance(group, MetricGroup)
        self.counter = group.add_group("my").counter("seen")
        self.meter = group.meter("rate", time_span_in_seconds=60)
        self.distribution = group.distribution("sizes")
        self.kinds += " counter=%s meter=%s distribution=%s metric=%s" % (
            isinstance(self.counter, Counter), isinstance(self.meter, Meter),
            isinstance(self.distribution, Distribution), isinstance(self.counter, Metric))

    def map(self, value):
        self.counter.inc()
        self.meter.mark_event()
        self.distribution.update(len(value))
        # (the count itself is not printed: PyFlink's process-mode counters report per bundle)
        return "%s %s" % (value, self.kinds)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection(["a", "bb", "ccc"], type_info=Types.STRING()) \
    .map(Counting(), output_type=Types.STRING()).print()
env.execute("metrics")
print([c.__name__ for c in (Metric, Counter, Meter, Distribution, MetricGroup)])
