"""The logical DAG the API builds, one node per transformation (as Flink's Transformation).

Nodes are declarative: an operator, partition or sink node holds the typed spec of what it
does (pyflink_on_spark.specs); the compiler (graph/compile.py) decides chaining and puts the
specs into stages. Attributes that PyFlink lets a program change after the fact (name,
parallelism, uid, chaining...) are mutable; the compiled job (specs.stage) is frozen.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from pyflink_on_spark.graph.flink_ids import next_flink_id

_ids = itertools.count(1)

CHAIN_ALWAYS = "ALWAYS"
CHAIN_HEAD = "HEAD"      # start_new_chain(): may not chain to its input
CHAIN_NEVER = "NEVER"    # disable_chaining(): chains to nothing


@dataclass(eq=False)
class Transformation:
    name: str
    output_type: Any = None
    parallelism: Optional[int] = None          # None: the environment's default
    max_parallelism: Optional[int] = None
    id: int = field(default_factory=lambda: next(_ids))
    uid: Optional[str] = None
    uid_hash: Optional[str] = None
    description: Optional[str] = None
    slot_sharing_group: Optional[str] = None
    chaining: str = CHAIN_ALWAYS
    buffer_timeout: Optional[int] = None
    parallelism_fixed: bool = False            # non-parallel operators (force_non_parallel)
    # get_side_output was called on this operator: PyFlink then routes `yield tag, value`
    # to side outputs; otherwise the (tag, value) tuples stay on the main output
    routes_side_outputs: bool = False
    # get_execution_plan(): the id PyFlink's counter gives this transformation, and those of
    # the helper transformations PyFlink adds around it, by role (graph/flink_plan.py)
    flink_id: int = field(default_factory=next_flink_id)
    plan_helpers: Dict[str, int] = field(default_factory=dict)

    @property
    def inputs(self) -> Tuple["Transformation", ...]:
        return ()

    @property
    def is_virtual(self) -> bool:
        return False


@dataclass(eq=False)
class SourceTransformation(Transformation):
    source: Any = None                 # a specs.sources spec (what the source reads)
    watermark_strategy: Any = None


@dataclass(eq=False)
class OneInputTransformation(Transformation):
    input: Optional[Transformation] = None
    spec: Any = None                   # a specs.operators spec (one-input)

    @property
    def inputs(self):
        return (self.input,)


@dataclass(eq=False)
class TwoInputTransformation(Transformation):
    input1: Optional[Transformation] = None
    input2: Optional[Transformation] = None
    spec: Any = None                   # a specs.operators spec (two-input)

    @property
    def inputs(self):
        return (self.input1, self.input2)


@dataclass(eq=False)
class SinkTransformation(Transformation):
    input: Optional[Transformation] = None
    spec: Any = None                   # a specs.sinks spec
    input_type: Any = None             # the printed stream's declared type (print format)

    @property
    def inputs(self):
        return (self.input,)


@dataclass(eq=False)
class PartitionTransformation(Transformation):
    """Virtual: how records travel to the consuming operator."""
    input: Optional[Transformation] = None
    partitioning: Any = None           # a specs.partitioning.Partitioning

    @property
    def inputs(self):
        return (self.input,)

    @property
    def is_virtual(self) -> bool:
        return True


@dataclass(eq=False)
class UnionTransformation(Transformation):
    union_inputs: List[Transformation] = field(default_factory=list)

    @property
    def inputs(self):
        return tuple(self.union_inputs)

    @property
    def is_virtual(self) -> bool:
        return True


@dataclass(eq=False)
class SideOutputTransformation(Transformation):
    input: Optional[Transformation] = None
    tag_id: str = ""

    def __post_init__(self):
        if self.input is not None:
            self.input.routes_side_outputs = True

    @property
    def inputs(self):
        return (self.input,)

    @property
    def is_virtual(self) -> bool:
        return True
