"""Connectors (mirror of pyflink.datastream.connectors)."""
from pyflink_on_spark.datastream.connectors.base import Sink, Source, DeliveryGuarantee
from pyflink_on_spark.datastream.connectors.number_seq import NumberSequenceSource

__all__ = ["Sink", "Source", "DeliveryGuarantee", "NumberSequenceSource"]
