"""BATCH mode keyed operators: a key's records sorted by timestamp, and every timer of the
key (event time, then processing time) fired when the key ends (PyFlink 1.20 / Flink's
batch execution)."""
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream.functions import KeyedProcessFunction, wrap_key_selector
from pyflink_on_spark.runtime.batch_order import batch_key_order
from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.testing import ManualClock, OperatorHarness
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK


class Timers(KeyedProcessFunction):
    def process_element(self, value, ctx):
        ctx.timer_service().register_event_time_timer(100)
        ctx.timer_service().register_processing_time_timer(
            ctx.timer_service().current_processing_time() + 1000)
        yield "el %s ts=%s" % (value, ctx.timestamp())

    def on_timer(self, timestamp, ctx):
        yield "%s timer of %s" % (ctx.time_domain().name, ctx.get_current_key())


def _run(records):
    harness = OperatorHarness(
        KeyedProcessOperator(Timers(), wrap_key_selector(lambda v: v[0]),
                             batch_key_order(Types.STRING())),
        clock=ManualClock(5), runtime_mode="BATCH", name="p")
    harness.elements(records).watermark(MAX_WATERMARK)
    harness.operator.end_input()
    return harness.values()


def test_batch_sorts_each_keys_records_by_timestamp_and_fires_all_timers_per_key():
    assert _run([(("b", 1), 1), (("a", 2), 2), (("a", 7), 7), (("a", 1), 1)]) == [
        "el ('a', 1) ts=1", "el ('a', 2) ts=2", "el ('a', 7) ts=7",
        "EVENT_TIME timer of a", "PROCESSING_TIME timer of a",
        "el ('b', 1) ts=1", "EVENT_TIME timer of b", "PROCESSING_TIME timer of b"]


def test_batch_keeps_source_order_without_timestamps():
    out = _run([(("a", 2), None), (("a", 7), None), (("a", 1), None)])
    assert out[:3] == ["el ('a', 2) ts=-9223372036854775808",
                       "el ('a', 7) ts=-9223372036854775808",
                       "el ('a', 1) ts=-9223372036854775808"]
