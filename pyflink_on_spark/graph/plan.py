"""get_execution_plan(): the job graph as JSON in the shape Flink's plan visualiser reads."""
from __future__ import annotations

import json

from pyflink_on_spark.graph.compile import CompiledJob
from pyflink_on_spark.graph.transformations import SinkTransformation, SourceTransformation

_SHIP = {"forward": "FORWARD", "rebalance": "REBALANCE", "rescale": "RESCALE",
         "shuffle": "SHUFFLE", "broadcast": "BROADCAST", "global": "GLOBAL",
         "keyed": "HASH", "custom": "CUSTOM"}


def execution_plan_json(job: CompiledJob) -> str:
    nodes = []
    for node in job.nodes:
        if isinstance(node, SourceTransformation):
            pact = "Data Source"
        elif isinstance(node, SinkTransformation):
            pact = "Data Sink"
        else:
            pact = "Operator"
        entry = {"id": node.id, "type": node.name, "pact": pact, "contents": node.name,
                 "parallelism": job.parallelism[node.id]}
        incoming = sorted((e for e in job.edges if e.target is node),
                          key=lambda e: e.input_index)   # input 1 first, as Flink lists them
        predecessors = [{"id": e.source.id, "ship_strategy": _SHIP[e.partitioning.kind],
                         "side": "second"} for e in incoming]
        if predecessors:
            entry["predecessors"] = predecessors
        nodes.append(entry)
    return json.dumps({"nodes": nodes}, indent=2)
