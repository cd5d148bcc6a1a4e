"""get_execution_plan(): PyFlink's JSON plan (graph/flink_plan.py), printed as Flink prints it
(Jackson's default pretty printer: `"key" : value`, arrays inline as `[ {`...`}, {`...`} ]`)."""
from __future__ import annotations

import json
from typing import Any, List

from pyflink_on_spark.graph.compile import _parallelism, reachable
from pyflink_on_spark.graph.flink_plan import plan_nodes, predecessors
from pyflink_on_spark.graph.transformations import Transformation


def execution_plan_json(roots: List[Transformation], default_parallelism: int) -> str:
    """The plan of the graph behind `roots` (the environment's sinks and operators). In
    BATCH mode too it shows the parallelism set or the default (PyFlink's adaptive batch
    scheduler decides the actual one later, as the shim does when it runs the job)."""
    shim_nodes = [n for n in reachable(roots) if not n.is_virtual]
    parallelism = _parallelism(shim_nodes, default_parallelism, batch=False)
    nodes = []
    for node in plan_nodes(roots, parallelism, default_parallelism):
        entry = {"id": node.flink_id, "type": node.name, "pact": node.pact,
                 "contents": node.description or node.name, "parallelism": node.parallelism}
        if node.pact != "Data Source":
            entry["predecessors"] = [{"id": source.flink_id, "ship_strategy": strategy,
                                      "side": "second"}
                                     for source, strategy in predecessors(node)]
        nodes.append(entry)
    return jackson_pretty({"nodes": nodes})


def jackson_pretty(value: Any, depth: int = 0) -> str:
    """JSON as Jackson's DefaultPrettyPrinter writes it: two spaces per enclosing object."""
    if isinstance(value, dict):
        if not value:
            return "{ }"
        pad = "  " * (depth + 1)
        fields = ",\n".join("%s%s : %s" % (pad, json.dumps(key, ensure_ascii=False),
                                           jackson_pretty(item, depth + 1))
                            for key, item in value.items())
        return "{\n%s\n%s}" % (fields, "  " * depth)
    if isinstance(value, list):
        if not value:
            return "[ ]"
        return "[ %s ]" % ", ".join(jackson_pretty(item, depth) for item in value)
    return json.dumps(value, ensure_ascii=False)
