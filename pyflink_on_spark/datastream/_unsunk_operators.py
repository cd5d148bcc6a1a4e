"""Operators no sink consumes. PyFlink's environment keeps every operator a program builds
and execute() runs them all, sink or not (observed on PyFlink 1.20.5: a map without a sink
runs and its side effects happen; only a job without any operator fails with "No operators
defined in streaming topology"). The shim's graph is built from its sinks, so each such
operator gets a sink that discards its records.
"""
from typing import Iterable, List

from pyflink_on_spark.graph.transformations import (
    OneInputTransformation, SinkTransformation, Transformation, TwoInputTransformation)
from pyflink_on_spark.specs.sinks import DiscardSinkSpec

OPERATOR_NODES = (OneInputTransformation, TwoInputTransformation)


def _upstream(nodes: Iterable[Transformation]) -> set:
    seen, stack = set(), list(nodes)
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(node.inputs)
    return seen


def discard_sinks(operators: List[Transformation],
                  sinks: List[SinkTransformation]) -> List[SinkTransformation]:
    """A discarding sink for every operator in ``operators`` that no sink reaches."""
    covered = _upstream(sinks)
    extra = []
    for node in reversed(operators):  # downstream first: its upstream is then covered
        if id(node) in covered:
            continue
        sink = SinkTransformation(
            name="Discarding Sink", input=node, input_type=node.output_type,
            spec=DiscardSinkSpec(), flink_id=0)   # not in PyFlink's graph: takes no plan id
        extra.append(sink)
        covered |= _upstream([sink])
    return extra
