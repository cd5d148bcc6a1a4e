"""The keyed operator of the Table API's Python group aggregate (table/group_aggregates.py
BundledGroupAggregate: a grouping query with a Python aggregate function in STREAMING mode):
ends PyFlink's bundles. Flink's Python operator finishes the bundle before the final
watermark goes on (processWatermark of Long.MAX_VALUE), at each checkpoint (here: each
micro-batch's end, before its snapshot) and when the bundle is full (the function calls
finish_bundle); each group of the bundle is then aggregated with its key set."""
from __future__ import annotations

from pyflink_on_spark.runtime.operators.keyed_process import KeyedProcessOperator
from pyflink_on_spark.runtime.table_udfs import result_converter
from pyflink_on_spark.runtime.watermarks import MAX_WATERMARK


class BundleOperator(KeyedProcessOperator):

    def open(self) -> None:
        super().open()
        function = self.function
        # the values as PyFlink's output coder converts them to the columns' types
        function.converters = [result_converter(t) for t in function.result_types]
        function.bundle_full = self.finish_bundle

    def process_watermark(self, watermark: int) -> None:
        if watermark == MAX_WATERMARK:
            self.finish_bundle()
        super().process_watermark(watermark)

    def end_batch(self, now: int) -> None:
        self.finish_bundle()
        super().end_batch(now)

    def end_input(self) -> None:
        self.finish_bundle()
        super().end_input()

    def finish_bundle(self) -> None:
        for key, rows in self.function.take_bundle():
            self.set_current_key(key)
            try:
                results = self.function.finish_key(rows)
            except Exception as e:
                raise self.user_error(e) from None
            if results:
                self._collect_results(results, None)
