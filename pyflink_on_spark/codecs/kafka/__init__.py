"""Kafka writes the shim does itself (not Spark's writer): the transactional producer of
KafkaSink / FlinkKafkaProducer with EXACTLY_ONCE (transactions.py)."""
