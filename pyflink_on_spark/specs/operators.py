"""One frozen dataclass per operator the API can add to a job.

A spec says *what* runs (the user function and the few values the operator needs), never
how: runtime/registry.py maps each spec class to the engine operator that runs it. Keyed
specs carry the key selector and the declared key type (BATCH mode orders keys by it).
Fields typed `Any` hold the API's objects (user functions, key selectors, window
descriptions), which this leaf package does not import.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Optional, Tuple, Union


# -- one input, non-keyed --------------------------------------------------------------------
@dataclass(frozen=True)
class MapSpec:
    function: Any                       # MapFunction


@dataclass(frozen=True)
class FlatMapSpec:
    function: Any                       # FlatMapFunction


@dataclass(frozen=True)
class FilterSpec:
    function: Any                       # FilterFunction


@dataclass(frozen=True)
class ProcessSpec:
    function: Any                       # ProcessFunction


@dataclass(frozen=True)
class TimestampsSpec:
    """assign_timestamps_and_watermarks."""
    watermark_strategy: Any             # WatermarkStrategy


# -- one input, keyed ------------------------------------------------------------------------
@dataclass(frozen=True)
class KeyedProcessSpec:
    function: Any                       # KeyedProcessFunction
    key_selector: Any
    key_type: Any = None                # the declared key type (TypeInformation) or None


@dataclass(frozen=True)
class KeyedMapSpec:
    """KeyedStream.map: a MapFunction that may use keyed state."""
    function: Any
    key_selector: Any
    key_type: Any = None


@dataclass(frozen=True)
class KeyedFlatMapSpec:
    function: Any
    key_selector: Any
    key_type: Any = None


@dataclass(frozen=True)
class KeyedFilterSpec:
    function: Any
    key_selector: Any
    key_type: Any = None


@dataclass(frozen=True)
class ReduceSpec:
    function: Any                       # ReduceFunction
    key_selector: Any
    key_type: Any = None


class Aggregation(Enum):
    """KeyedStream's rolling aggregations (sum / min / max / min_by / max_by)."""
    SUM = "SUM"
    MIN = "MIN"
    MAX = "MAX"
    MIN_BY = "MIN_BY"
    MAX_BY = "MAX_BY"


@dataclass(frozen=True)
class AggregationSpec:
    aggregation: Aggregation
    position: Union[int, str]           # the field: tuple index or Row field name
    key_selector: Any
    key_type: Any = None


@dataclass(frozen=True)
class WindowSpec:
    """A keyed (or all-) window: the window operation as PyFlink describes it to its runtime
    (assigner, trigger, lateness, late-data tag, contents state, internal window function)."""
    operation: Any                      # datastream.window.WindowOperationDescriptor
    key_selector: Any
    key_type: Any = None


# -- two inputs ------------------------------------------------------------------------------
# Non-keyed co-operators: `input_key_selectors` holds, per input, the key selector of an input
# that is a KeyedStream connected to a non-keyed one (PyFlink hands that side's function its
# internal Row(key, value) records), else None.
NO_KEYED_INPUTS: Tuple[Optional[Any], Optional[Any]] = (None, None)


@dataclass(frozen=True)
class CoMapSpec:
    function: Any                       # CoMapFunction
    input_key_selectors: Tuple[Any, Any] = NO_KEYED_INPUTS


@dataclass(frozen=True)
class CoFlatMapSpec:
    function: Any                       # CoFlatMapFunction
    input_key_selectors: Tuple[Any, Any] = NO_KEYED_INPUTS


@dataclass(frozen=True)
class CoProcessSpec:
    function: Any                       # CoProcessFunction (or a KeyedCoProcessFunction)
    input_key_selectors: Tuple[Any, Any] = NO_KEYED_INPUTS


@dataclass(frozen=True)
class KeyedCoMapSpec:
    function: Any
    key_selector1: Any
    key_selector2: Any
    key_type: Any = None


@dataclass(frozen=True)
class KeyedCoFlatMapSpec:
    function: Any
    key_selector1: Any
    key_selector2: Any
    key_type: Any = None


@dataclass(frozen=True)
class KeyedCoProcessSpec:
    function: Any                       # KeyedCoProcessFunction (or a CoProcessFunction)
    key_selector1: Any
    key_selector2: Any
    key_type: Any = None


@dataclass(frozen=True)
class BroadcastProcessSpec:
    """Input 1: the non-keyed stream; input 2: the broadcast stream (read first)."""
    function: Any                       # BroadcastProcessFunction


@dataclass(frozen=True)
class KeyedBroadcastProcessSpec:
    """Input 1: the keyed stream; input 2: the broadcast stream (read first)."""
    function: Any                       # KeyedBroadcastProcessFunction
    key_selector: Any
    key_type: Any = None


# Two-input operators whose broadcast input (input 2) is read completely before input 1.
BROADCAST_SPECS = (BroadcastProcessSpec, KeyedBroadcastProcessSpec)

# Keyed operators whose keyed input (input 1) is sorted by key in BATCH mode, as Flink's
# sort-based batch runtime feeds them: they hold one key at a time (runtime/batch_order.py).
# Keyed two-input operators are left out: Flink interleaves their two sorted inputs by rules
# that need both inputs' sizes (runtime/operators/co_process.py), so they group in memory.
# keyed two-input operators: both inputs key-sorted in BATCH mode when both are keyed by
# the operator's key type (graph/compile.py)
KEYED_TWO_INPUT_SPECS = (KeyedCoMapSpec, KeyedCoFlatMapSpec, KeyedCoProcessSpec)
KEY_SORTED_INPUT_SPECS = (KeyedProcessSpec, KeyedMapSpec, KeyedFlatMapSpec, KeyedFilterSpec,
                          ReduceSpec, AggregationSpec, WindowSpec, KeyedBroadcastProcessSpec)
