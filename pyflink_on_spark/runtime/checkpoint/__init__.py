"""Checkpoints of the engine for unbounded jobs: versioned snapshots of every operator
instance's state (keyed state, timers, watermarks, broadcast state, source and sink
positions) in a store on any filesystem pyarrow.fs reaches (file://, hdfs://, s3://...).

Pure Python, no Spark: the streaming executor (spark/streaming/) drives it once per
micro-batch, a version per batch id."""
