"""The sink an operator without a sink gets (PyFlink runs such operators: their side effects
happen); nothing leaves the task."""
from __future__ import annotations

from pyflink_on_spark.runtime.operators.base import Operator


class DiscardSinkOperator(Operator):
    def process_element(self, value, timestamp) -> None:
        pass

    def process_watermark(self, watermark: int) -> None:
        self.current_watermark = watermark
