"""A table's input volume in bytes, as known before its job runs: BATCH mode's adaptive
parallelism of the DataStream operators behind to_data_stream (graph/compile.py). Seen on
PyFlink 1.20.5: in BATCH mode the operators reading a table's rows get their parallelism
from the data that reaches them (the adaptive batch scheduler), 1 for small inputs: a
print of to_data_stream of a table (a plain scan of a stream, a projection, a GROUP BY, a
join) printed without a subtask prefix at default parallelism 2."""
from __future__ import annotations

from typing import Any


def table_bytes(description: Any) -> int:
    """The bytes the table reads: its DataStream sources' estimates and its filesystem
    tables' files under local paths; 0 where unknown (rows the program holds, generated
    rows, Kafka, jdbc): small, as the DataStream rule takes an unknown source."""
    from pyflink_on_spark.datastream.connectors.file_system import _local_size
    from pyflink_on_spark.graph.compile import reachable
    from pyflink_on_spark.graph.sources import estimated_bytes
    from pyflink_on_spark.specs.table_connectors import ConnectorTable
    from pyflink_on_spark.specs.tables import QueryTable, StreamTable
    if isinstance(description, StreamTable):
        return sum(estimated_bytes(node.source) for node in reachable(list(description.sinks))
                   if getattr(node, "source", None) is not None)
    if isinstance(description, QueryTable):
        return sum(table_bytes(view) for _, view in description.inputs)
    if isinstance(description, ConnectorTable):
        return _local_size([description.path]) if description.path else 0
    inner = getattr(description, "input", None)
    return table_bytes(inner) if inner is not None else 0
