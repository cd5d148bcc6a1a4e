"""get_execution_plan(): the job graph as JSON in the shape Flink's plan visualiser reads."""
from __future__ import annotations

import json

from pyflink_on_spark.specs.stage import CompiledJob


def execution_plan_json(job: CompiledJob) -> str:
    nodes = []
    for node in job.plan:
        entry = {"id": node.node_id, "type": node.name, "pact": node.pact,
                 "contents": node.name, "parallelism": node.parallelism}
        if node.predecessors:
            entry["predecessors"] = [{"id": source, "ship_strategy": strategy,
                                      "side": "second"}
                                     for source, strategy in node.predecessors]
        nodes.append(entry)
    return json.dumps({"nodes": nodes}, indent=2)
