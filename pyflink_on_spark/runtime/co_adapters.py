"""ConnectedStreams.map / flat_map as co-process functions, as PyFlink runs them.

One adapter class serves both the non-keyed and the keyed co-process operator (both call
only open / close / process_element1 / process_element2). As in PyFlink, a map result of
None emits nothing, and a flat_map result is emitted only if it is truthy.
"""
from __future__ import annotations

from pyflink_on_spark.datastream.functions import (
    CoFlatMapFunction, CoMapFunction, KeyedCoProcessFunction)


class CoMapAdapter(KeyedCoProcessFunction):
    def __init__(self, co_map_function: CoMapFunction):
        self._fn = co_map_function

    def open(self, runtime_context):
        self._fn.open(runtime_context)
        self._map1 = self._fn.map1
        self._map2 = self._fn.map2

    def close(self):
        self._fn.close()

    def process_element1(self, value, ctx):
        result = self._map1(value)
        return None if result is None else (result,)

    def process_element2(self, value, ctx):
        result = self._map2(value)
        return None if result is None else (result,)


class CoFlatMapAdapter(KeyedCoProcessFunction):
    def __init__(self, co_flat_map_function: CoFlatMapFunction):
        self._fn = co_flat_map_function

    def open(self, runtime_context):
        self._fn.open(runtime_context)
        self._flat_map1 = self._fn.flat_map1
        self._flat_map2 = self._fn.flat_map2

    def close(self):
        self._fn.close()

    def process_element1(self, value, ctx):
        return self._flat_map1(value) or None

    def process_element2(self, value, ctx):
        return self._flat_map2(value) or None
