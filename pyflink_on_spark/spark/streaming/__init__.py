"""Unbounded jobs on Spark Structured Streaming (see docs/streaming.md): one streaming query
per job whose foreachBatch runs the job's stage DAG once per micro-batch, every operator
restoring its state from the previous completed checkpoint version and writing the batch's.
"""
