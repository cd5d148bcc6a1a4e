"""The direct runner: a compiled job run stage by stage in this process, plain Python, no
Spark (in the spirit of Beam's DirectRunner). It is the reference implementation of the
exchange contract (direct/exchange.py) that every runner of a CompiledJob implements; the
Spark executor (spark/executor.py) implements the same contract with repartitionById and
sortWithinPartitions, and direct/tests/test_runners_agree.py runs compat cases on both and
requires identical output.

Use it for tests and debugging: it runs every operator of the engine (sinks that write from
their tasks, Kafka and JDBC, write for real), but no frame source (files and Kafka read by
Spark's readers), which raises NotImplementedError.
"""
from pyflink_on_spark.direct.runner import execute_collect, execute_job, run_job

__all__ = ["run_job", "execute_job", "execute_collect"]
