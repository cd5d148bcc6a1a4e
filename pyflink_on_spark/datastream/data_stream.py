"""DataStream, KeyedStream and friends (mirror of pyflink.datastream.data_stream).

Each method adds a node to the environment's logical graph (pyflink_on_spark.graph); nothing
runs until execute() / execute_and_collect().
"""
from __future__ import annotations

from enum import Enum
from typing import Callable, Dict, List, Optional, Union

from pyflink_on_spark.datastream.functions import (
    BroadcastProcessFunction, CoFlatMapFunction, CoMapFunction, CoProcessFunction,
    FilterFunction, FlatMapFunction, KeyedBroadcastProcessFunction, KeyedCoProcessFunction,
    KeyedProcessFunction, KeySelector, MapFunction, Partitioner, ProcessFunction,
    ReduceFunction, SinkFunction, wrap_filter, wrap_flat_map, wrap_key_selector, wrap_map,
    wrap_partitioner, wrap_reduce)
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.datastream.state import MapStateDescriptor
from pyflink_on_spark.graph.flink_ids import reserve_flink_ids
from pyflink_on_spark.graph.transformations import (
    CHAIN_HEAD, CHAIN_NEVER, OneInputTransformation, PartitionTransformation,
    SideOutputTransformation, SinkTransformation, Transformation, TwoInputTransformation,
    UnionTransformation)
from pyflink_on_spark.specs import operators as op
from pyflink_on_spark.specs.partitioning import (
    BroadcastPartitioning, CustomPartitioning, ForwardPartitioning, KeyedPartitioning,
    Partitioning, RebalancePartitioning, RescalePartitioning, ShufflePartitioning)
from pyflink_on_spark.specs.sinks import CollectSinkSpec, PrintSinkSpec

__all__ = ["CloseableIterator", "DataStream", "KeyedStream", "ConnectedStreams",
           "WindowedStream", "DataStreamSink", "BroadcastStream", "BroadcastConnectedStream",
           "AllWindowedStream", "CachedDataStream"]

SINK_V2_NAMES = ("FileSink", "KafkaSink")    # sink_to() sinks Flink expands at graph time


def is_pickled(type_info) -> bool:
    """PyFlink's PICKLED_BYTE_ARRAY: no declared type (PyFlink's default for Python results)."""
    from pyflink_on_spark.common.typeinfo import PickledBytesTypeInfo
    return type_info is None or isinstance(type_info, PickledBytesTypeInfo)


def _is_row_type(type_info) -> bool:
    """A Row type (RowTypeInfo, or ExternalTypeInfo of a Row data type): print() renders it
    in Python, kind[fields]."""
    from pyflink_on_spark.common.typeinfo import ExternalTypeInfo, RowTypeInfo
    return isinstance(type_info, (RowTypeInfo, ExternalTypeInfo))


def _unsupported(api: str, alternative: str):
    raise NotImplementedError(
        "%s is not supported by pyflink_on_spark yet. %s" % (api, alternative))


class DataStream(object):
    """A stream of elements of the same type."""

    def __init__(self, j_data_stream=None, *, _env=None, _transformation=None):
        if j_data_stream is not None:
            raise NotImplementedError(
                "DataStream(j_data_stream): there is no Flink JVM in pyflink_on_spark; "
                "create streams from a StreamExecutionEnvironment")
        self._env = _env
        self._transformation: Transformation = _transformation
        if _env is not None:
            _env._record_operator(_transformation)  # PyFlink runs operators without sinks

    # -- attributes -----------------------------------------------------------------------
    def get_name(self) -> str:
        return self._transformation.name

    def name(self, name: str) -> "DataStream":
        self._transformation.name = name
        return self

    def uid(self, uid: str) -> "DataStream":
        self._transformation.uid = uid
        return self

    def set_uid_hash(self, uid_hash: str) -> "DataStream":
        self._transformation.uid_hash = uid_hash
        return self

    def set_description(self, description: str) -> "DataStream":
        self._transformation.description = description
        return self

    def set_parallelism(self, parallelism: int) -> "DataStream":
        if self._transformation.parallelism_fixed and parallelism != 1:
            raise ValueError("The parallelism of non parallel operator must be 1.")
        if not isinstance(parallelism, int) or parallelism < 1:
            raise ValueError("The parallelism of an operator must be at least 1, got %r"
                             % (parallelism,))
        self._transformation.parallelism = parallelism
        return self

    def set_max_parallelism(self, max_parallelism: int) -> "DataStream":
        if not isinstance(max_parallelism, int) or not 0 < max_parallelism <= 32768:
            raise ValueError("The maximum parallelism must be in (0, 32768], got %r"
                             % (max_parallelism,))
        self._transformation.max_parallelism = max_parallelism
        return self

    def get_type(self):
        from pyflink_on_spark.common.typeinfo import RowTypeInfo, Types
        output_type = self._transformation.output_type
        if isinstance(output_type, RowTypeInfo) and not output_type._field_names:
            # PyFlink reads the type back from Java, where a ROW's fields are named f0, f1...
            return RowTypeInfo(output_type.get_field_types(),
                               ["f%d" % i for i in range(len(output_type.get_field_types()))])
        return output_type if output_type is not None else Types.PICKLED_BYTE_ARRAY()

    def get_execution_environment(self):
        return self._env

    def get_execution_config(self):
        return self._env.get_config()

    def force_non_parallel(self) -> "DataStream":
        self._transformation.parallelism = 1
        self._transformation.max_parallelism = 1
        self._transformation.parallelism_fixed = True
        return self

    def set_buffer_timeout(self, timeout_millis: int) -> "DataStream":
        self._transformation.buffer_timeout = timeout_millis
        return self

    def start_new_chain(self) -> "DataStream":
        self._transformation.chaining = CHAIN_HEAD
        return self

    def disable_chaining(self) -> "DataStream":
        self._transformation.chaining = CHAIN_NEVER
        return self

    def slot_sharing_group(self, slot_sharing_group) -> "DataStream":
        name = slot_sharing_group if isinstance(slot_sharing_group, str) \
            else slot_sharing_group.get_name()
        self._transformation.slot_sharing_group = name
        return self

    # -- building ---------------------------------------------------------------------------
    def _one_input(self, spec, name: str, output_type=None) -> "DataStream":
        node = OneInputTransformation(name=name, output_type=output_type,
                                      input=self._transformation, spec=spec)
        return DataStream(_env=self._env, _transformation=node)

    def _partitioned(self, partitioning: Partitioning) -> "DataStream":
        node = PartitionTransformation(name=partitioning.label,
                                       output_type=self._transformation.output_type,
                                       input=self._transformation, partitioning=partitioning)
        return DataStream(_env=self._env, _transformation=node)

    def map(self, func: Union[Callable, MapFunction], output_type=None) -> "DataStream":
        return self._one_input(op.MapSpec(wrap_map(func)), "Map", output_type)

    def flat_map(self, func: Union[Callable, FlatMapFunction],
                 output_type=None) -> "DataStream":
        return self._one_input(op.FlatMapSpec(wrap_flat_map(func)), "FlatMap", output_type)

    def filter(self, func: Union[Callable, FilterFunction]) -> "DataStream":
        return self._one_input(op.FilterSpec(wrap_filter(func)), "Filter",
                               self._transformation.output_type)

    def process(self, func: ProcessFunction, output_type=None) -> "DataStream":
        if not isinstance(func, ProcessFunction):
            raise TypeError("process() expects a ProcessFunction, got %r" % (func,))
        return self._one_input(op.ProcessSpec(func), "PROCESS", output_type)

    def key_by(self, key_selector: Union[Callable, KeySelector],
               key_type=None) -> "KeyedStream":
        selector = wrap_key_selector(key_selector)
        return KeyedStream._create(self, selector, key_type)

    def union(self, *streams: "DataStream") -> "DataStream":
        return self._union(streams, {})

    def _union(self, streams, values_maps: Dict[int, int]) -> "DataStream":
        """`values_maps`: union member index -> the id of the values map PyFlink puts after a
        KeyedStream member (KeyedStream._values(), one per keyed member, made in argument
        order before the union itself)."""
        members = [self._transformation] + [s._transformation for s in streams]
        for index, stream in enumerate(streams, start=1):
            if isinstance(stream, KeyedStream):
                values_maps[index] = reserve_flink_ids(1)[0]
        node = UnionTransformation(name="Union", output_type=self._transformation.output_type,
                                   union_inputs=members)
        if values_maps:
            node.plan_helpers["values_maps"] = dict(values_maps)
        return DataStream(_env=self._env, _transformation=node)

    def connect(self, ds: Union["DataStream", "BroadcastStream"]) \
            -> Union["ConnectedStreams", "BroadcastConnectedStream"]:
        """A DataStream gives ConnectedStreams (co-functions over both); a BroadcastStream
        (from broadcast(MapStateDescriptor...)) gives a BroadcastConnectedStream."""
        if isinstance(ds, BroadcastStream):
            return BroadcastConnectedStream(self, ds, ds.broadcast_state_descriptors)
        return ConnectedStreams(self, ds)

    def shuffle(self) -> "DataStream":
        return self._partitioned(ShufflePartitioning())

    def rebalance(self) -> "DataStream":
        return self._partitioned(RebalancePartitioning())

    def rescale(self) -> "DataStream":
        return self._partitioned(RescalePartitioning())

    def forward(self) -> "DataStream":
        return self._partitioned(ForwardPartitioning())

    def broadcast(self, broadcast_state_descriptor: Optional[MapStateDescriptor] = None,
                  *other_broadcast_state_descriptors: MapStateDescriptor) \
            -> Union["DataStream", "BroadcastStream"]:
        """Without arguments: every element goes to every parallel instance downstream. With
        MapStateDescriptors: a BroadcastStream to connect() to, whose elements maintain those
        broadcast states."""
        if broadcast_state_descriptor is not None:
            descriptors = [broadcast_state_descriptor] + list(other_broadcast_state_descriptors)
            for descriptor in descriptors:
                if not isinstance(descriptor, MapStateDescriptor):
                    raise TypeError("broadcast_state_descriptor must be MapStateDescriptor")
            return BroadcastStream(self.broadcast(), descriptors)
        return self._partitioned(BroadcastPartitioning())

    def partition_custom(self, partitioner: Union[Callable, Partitioner],
                         key_selector: Union[Callable, KeySelector]) -> "DataStream":
        # PyFlink: a Python map computing the partition, the CUSTOM edge, a values map
        custom_map = reserve_flink_ids(1)[0]
        stream = self._partitioned(CustomPartitioning(wrap_partitioner(partitioner),
                                                      wrap_key_selector(key_selector)))
        stream._transformation.plan_helpers.update(
            partition_custom_map=custom_map, values_map=reserve_flink_ids(1)[0])
        return stream

    def project(self, *field_indexes: int) -> "DataStream":
        from pyflink_on_spark.common.typeinfo import Types, TupleTypeInfo
        output_type = self._transformation.output_type
        if not isinstance(output_type, TupleTypeInfo):
            raise Exception("Only Tuple DataStreams can be projected.")
        field_types = output_type.get_field_types()
        new_type = Types.TUPLE([field_types[i] for i in field_indexes])
        indexes = tuple(field_indexes)
        return self.map(lambda value: tuple(value[i] for i in indexes), new_type).name(
            "Projection")

    def assign_timestamps_and_watermarks(self, watermark_strategy) -> "DataStream":
        # PyFlink wraps the Java operator in two Python ones when the timestamps come from a
        # Python TimestampAssigner (their ids show in get_execution_plan())
        python_assigner = getattr(watermark_strategy, "_timestamp_assigner", None) is not None
        extract = reserve_flink_ids(1) if python_assigner else ()
        stream = self._one_input(op.TimestampsSpec(watermark_strategy), "Timestamps/Watermarks",
                                 self._transformation.output_type)
        if python_assigner:
            stream._transformation.plan_helpers.update(
                extract_timestamp=extract[0], remove_timestamp=reserve_flink_ids(1)[0])
        return stream

    def get_side_output(self, output_tag: OutputTag) -> "DataStream":
        node = SideOutputTransformation(name="SideOutput[%s]" % output_tag.tag_id,
                                        output_type=output_tag.type_info,
                                        input=self._transformation, tag_id=output_tag.tag_id)
        node.plan_helpers["side_output_map"] = reserve_flink_ids(1)[0]   # PyFlink's map(i: i)
        return DataStream(_env=self._env, _transformation=node)

    def window_all(self, window_assigner) -> "AllWindowedStream":
        """Windows over the whole (non-keyed) stream: every element under one key."""
        return AllWindowedStream(self, window_assigner)

    def count_window_all(self, size: int, slide: int = 0) -> "AllWindowedStream":
        """Count windows over the whole stream (Java Flink's countWindowAll; not in PyFlink
        1.20's Python API). Windows fire as PyFlink's count_window does."""
        from pyflink_on_spark.datastream.window import (
            CountSlidingWindowAssigner, CountTumblingWindowAssigner)
        if slide == 0:
            return AllWindowedStream(self, CountTumblingWindowAssigner(size))
        return AllWindowedStream(self, CountSlidingWindowAssigner(size, slide))

    def cache(self) -> "CachedDataStream":
        """The same stream, reusable by later jobs. PyFlink keeps the computed result of a
        bounded stream for the next jobs; the shim computes it again in each job (same
        records for a deterministic pipeline; side effects of its functions repeat)."""
        return CachedDataStream._of(self)

    # -- sinks ------------------------------------------------------------------------------
    def _sink(self, spec, name: str, plan_helpers: Optional[dict] = None) -> "DataStreamSink":
        node = SinkTransformation(name=name, input=self._transformation, spec=spec,
                                  input_type=self._transformation.output_type)
        node.plan_helpers.update(plan_helpers or {})
        self._env._add_sink(node)
        return DataStreamSink(node)

    def print(self, sink_identifier: str = None) -> "DataStreamSink":
        return self._print(sink_identifier, {})

    def _print(self, sink_identifier, plan_helpers: dict) -> "DataStreamSink":
        # PyFlink maps pickled records and Rows to strings in a Python "Map" before its Java
        # print sink (DataStream._align_output_type)
        output_type = self._transformation.output_type
        if is_pickled(output_type) or _is_row_type(output_type):
            plan_helpers["align_map"] = reserve_flink_ids(1)[0]
        # a collection source's records with nulls only Java takes print as "null"
        as_java_holds = getattr(getattr(self._transformation, "source", None),
                                "python_input_error", None) is not None
        return self._sink(PrintSinkSpec(sink_identifier, self._transformation.output_type,
                                        as_java_holds),
                          "Print to Std. Out", plan_helpers)

    def add_sink(self, sink_func: SinkFunction) -> "DataStreamSink":
        if getattr(sink_func, "_sink_definition", None) is None:  # Java-backed SinkFunction
            _unsupported("DataStream.add_sink(%s) (Java SinkFunction)"
                         % type(sink_func).__name__,
                         "Use sink_to(FileSink...), print() or execute_and_collect().")
        # PyFlink names an add_sink() sink "Unnamed" (its plan shows "Sink: Unnamed")
        return self._external_sink(sink_func, "Unnamed")

    def sink_to(self, sink) -> "DataStreamSink":
        if getattr(sink, "_sink_definition", None) is None:
            _unsupported("DataStream.sink_to(%s)" % type(sink).__name__,
                         "Supported sinks: FileSink, KafkaSink; or print() / "
                         "execute_and_collect().")
        return self._external_sink(sink)

    def _external_sink(self, sink, name: Optional[str] = None) -> "DataStreamSink":
        """Sinks that write outside the driver (files, Kafka: specs/sinks.py), after the
        sink's own preprocessing (SupportsPreprocessing.get_transformer, as PyFlink applies
        it)."""
        ds = self
        get_transformer = getattr(sink, "get_transformer", None)
        transformer = get_transformer() if get_transformer is not None else None
        if transformer is not None:
            ds = transformer.apply(self)
        spec = sink._sink_definition(ds._transformation.output_type)
        # sink_to(): a Sink (v2) Flink expands into writer and committer operators
        helpers = {"sink_v2": 1} if getattr(sink, "_sink_name", "") in SINK_V2_NAMES else {}
        return ds._sink(spec, name or getattr(sink, "_sink_name", type(sink).__name__), helpers)

    def execute_and_collect(self, job_execution_name: str = None, limit: int = None):
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            raise ValueError("limit must be a non-negative int, got %r" % (limit,))
        node = SinkTransformation(name="Collect Sink", input=self._transformation,
                                  spec=CollectSinkSpec(),
                                  input_type=self._transformation.output_type)
        node.parallelism = 1
        iterator = self._env._execute_collect(node, job_execution_name)
        if limit is None:
            return iterator
        # as Java's DataStream.executeAndCollect(limit): take records while fewer than
        # `limit` are taken, then close the iterator (which ends the job): the n-th record
        # returns at once, nothing waits for an (n+1)-th that an unbounded source may never
        # bring
        result = []
        with iterator:
            while len(result) < limit:
                try:
                    result.append(next(iterator))
                except StopIteration:
                    break
        return result


class KeyedStream(DataStream):
    """A DataStream partitioned by key: keyed state and timers are available downstream."""

    class AccumulateType(Enum):
        MIN = 1
        MAX = 2
        MIN_BY = 3
        MAX_BY = 4
        SUM = 5

    def __init__(self, j_keyed_stream=None, original_data_type_info=None,
                 origin_stream: DataStream = None):
        raise NotImplementedError("KeyedStream(j_keyed_stream, ...): there is no Flink JVM in "
                                  "pyflink_on_spark; use DataStream.key_by()")

    @classmethod
    def _create(cls, origin: DataStream, key_selector: KeySelector, key_type) -> "KeyedStream":
        stream = cls.__new__(cls)
        key_by_map = reserve_flink_ids(1)[0]   # PyFlink's "_stream_key_by_map_operator"
        partition = PartitionTransformation(
            name="Keyed", output_type=origin._transformation.output_type,
            input=origin._transformation,
            partitioning=KeyedPartitioning(key_selector, key_type))
        partition.plan_helpers["key_by_map"] = key_by_map
        DataStream.__init__(stream, _env=origin._env, _transformation=partition)
        stream._origin_stream = origin
        stream._key_selector = key_selector
        stream._key_type = key_type
        return stream

    def _keyed(self, spec_class, name: str, function, output_type=None) -> DataStream:
        """A keyed operator: its spec gets this stream's key selector and key type."""
        spec = spec_class(function, key_selector=self._key_selector, key_type=self._key_type)
        return self._one_input(spec, name, output_type)

    def map(self, func, output_type=None) -> DataStream:
        return self._keyed(op.KeyedMapSpec, "Map", wrap_map(func), output_type)

    def flat_map(self, func, output_type=None) -> DataStream:
        return self._keyed(op.KeyedFlatMapSpec, "FlatMap", wrap_flat_map(func), output_type)

    def filter(self, func) -> DataStream:
        return self._keyed(op.KeyedFilterSpec, "Filter", wrap_filter(func),
                           self._origin_stream._transformation.output_type)

    def process(self, func: KeyedProcessFunction, output_type=None) -> DataStream:
        if not isinstance(func, KeyedProcessFunction):
            raise TypeError("KeyedStream.process() expects a KeyedProcessFunction, got %r"
                            % (func,))
        return self._keyed(op.KeyedProcessSpec, "KEYED PROCESS", func, output_type)

    def reduce(self, func: Union[Callable, ReduceFunction]) -> DataStream:
        return self._keyed(op.ReduceSpec, "Reduce", wrap_reduce(func),
                           self._origin_stream._transformation.output_type)

    def _accumulate(self, position, acc_type: "KeyedStream.AccumulateType") -> DataStream:
        if not isinstance(position, (int, str)):
            raise TypeError("The field position must be of int or str type to locate the value "
                            "to sum, got %r" % (position,))
        spec = op.AggregationSpec(op.Aggregation[acc_type.name], position,
                                  self._key_selector, self._key_type)
        return self._one_input(spec, "Reduce", self._origin_stream._transformation.output_type)

    def sum(self, position_to_sum: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_sum, KeyedStream.AccumulateType.SUM)

    def min(self, position_to_min: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_min, KeyedStream.AccumulateType.MIN)

    def max(self, position_to_max: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_max, KeyedStream.AccumulateType.MAX)

    def min_by(self, position_to_min_by: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_min_by, KeyedStream.AccumulateType.MIN_BY)

    def max_by(self, position_to_max_by: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_max_by, KeyedStream.AccumulateType.MAX_BY)

    def key_by(self, key_selector, key_type=None) -> "KeyedStream":
        return self._origin_stream.key_by(key_selector, key_type)

    def union(self, *streams) -> DataStream:
        # PyFlink unions the keyed stream's values map, made first
        return self._values()._union(streams, {0: reserve_flink_ids(1)[0]})

    def _values(self) -> DataStream:
        return DataStream(_env=self._env, _transformation=self._transformation)

    # A KeyedStream's partitioning is its key (PyFlink raises for every other one).
    def shuffle(self) -> DataStream:
        raise Exception("Cannot override partitioning for KeyedStream.")

    def rebalance(self) -> DataStream:
        raise Exception("Cannot override partitioning for KeyedStream.")

    def rescale(self) -> DataStream:
        raise Exception("Cannot override partitioning for KeyedStream.")

    def forward(self) -> DataStream:
        raise Exception("Cannot override partitioning for KeyedStream.")

    def broadcast(self, *args):
        raise Exception("Cannot override partitioning for KeyedStream.")

    def partition_custom(self, partitioner, key_selector) -> DataStream:
        raise Exception("Cannot override partitioning for KeyedStream.")

    def project(self, *field_indexes) -> DataStream:
        return self._origin_stream.project(*field_indexes)

    def print(self, sink_identifier=None):
        # PyFlink prints through a Python map taking the values out of its keyed records, and
        # drops the identifier (`self._values().print()` in 1.20): no "identifier> " prefix
        values_map = reserve_flink_ids(1)[0]
        return self._values()._print(None, {"values_map": values_map})

    def execute_and_collect(self, job_execution_name: str = None, limit: int = None):
        """PyFlink collects a KeyedStream's internal records: Row(f0=key, f1=value), the key
        as Java holds it (its declared key type, else its pickle as a bytearray)."""
        from pyflink_on_spark.common.typeinfo import Types
        key_type, get_key = self._key_type, self._key_selector.get_key

        def internal_record(value):
            from pyflink_on_spark.common.types import Row
            from pyflink_on_spark.common._key_hash import pickle_key
            key = get_key(value)
            return Row(f0=key if key_type is not None else bytearray(pickle_key(key)),
                       f1=value)

        # PyFlink makes these records in its key-by operator, which runs before the keyed
        # exchange at the parallelism of its input (source at p=1: the collect sink gets the
        # records in input order), not behind it at the default parallelism.
        row_type = Types.ROW([key_type or Types.PICKLED_BYTE_ARRAY(), self.get_type()])
        origin = self._origin_stream
        records = origin._one_input(op.MapSpec(wrap_map(internal_record)),
                                    "_stream_key_by_map_operator", row_type)
        records._transformation.parallelism = origin._transformation.parallelism
        return records.execute_and_collect(job_execution_name, limit)

    def window(self, window_assigner) -> "WindowedStream":
        """Groups each key's elements into the windows the assigner gives them."""
        return WindowedStream(self, window_assigner)

    def count_window(self, size: int, slide: int = 0) -> "WindowedStream":
        """Tumbling (slide 0) or sliding windows of ``size`` elements per key."""
        from pyflink_on_spark.datastream.window import (
            CountSlidingWindowAssigner, CountTumblingWindowAssigner)
        if slide == 0:
            return WindowedStream(self, CountTumblingWindowAssigner(size))
        return WindowedStream(self, CountSlidingWindowAssigner(size, slide))

    # PyFlink raises for every operator attribute of a KeyedStream (observed).
    def name(self, name: str):
        raise Exception("Set name for KeyedStream is not supported.")

    def uid(self, uid: str):
        raise Exception("Set uid for KeyedStream is not supported.")

    def set_uid_hash(self, uid_hash: str):
        raise Exception("Set uid hash for KeyedStream is not supported.")

    def get_name(self) -> str:
        raise Exception("Get name of KeyedStream is not supported.")

    def cache(self):
        raise Exception("Cache for KeyedStream is not supported.")

    def set_parallelism(self, parallelism: int):
        raise Exception("Set parallelism for KeyedStream is not supported.")

    def set_max_parallelism(self, max_parallelism: int):
        raise Exception("Set max parallelism for KeyedStream is not supported.")

    def force_non_parallel(self):
        raise Exception("Set force non-parallel for KeyedStream is not supported.")

    def set_buffer_timeout(self, timeout_millis: int):
        raise Exception("Set buffer timeout for KeyedStream is not supported.")

    def start_new_chain(self) -> DataStream:
        raise Exception("Start new chain for KeyedStream is not supported.")

    def disable_chaining(self) -> DataStream:
        raise Exception("Disable chaining for KeyedStream is not supported.")

    def slot_sharing_group(self, slot_sharing_group) -> DataStream:
        raise Exception("Setting slot sharing group for KeyedStream is not supported.")


class DataStreamSink(object):
    """The end of a stream: a sink with its own name, parallelism and uid."""

    def __init__(self, j_data_stream_sink=None):
        if not isinstance(j_data_stream_sink, SinkTransformation):
            raise NotImplementedError("DataStreamSink(j_data_stream_sink): no Flink JVM here")
        self._transformation = j_data_stream_sink

    def name(self, name: str) -> "DataStreamSink":
        self._transformation.name = name
        return self

    def uid(self, uid: str) -> "DataStreamSink":
        self._transformation.uid = uid
        return self

    def set_uid_hash(self, uid_hash: str) -> "DataStreamSink":
        self._transformation.uid_hash = uid_hash
        return self

    def set_description(self, description: str) -> "DataStreamSink":
        self._transformation.description = description
        return self

    def set_parallelism(self, parallelism: int) -> "DataStreamSink":
        self._transformation.parallelism = parallelism
        return self

    def disable_chaining(self) -> "DataStreamSink":
        self._transformation.chaining = CHAIN_NEVER
        return self

    def slot_sharing_group(self, slot_sharing_group) -> "DataStreamSink":
        name = slot_sharing_group if isinstance(slot_sharing_group, str) \
            else slot_sharing_group.get_name()
        self._transformation.slot_sharing_group = name
        return self


class CloseableIterator(object):
    """Results of execute_and_collect(): iterate, or use as a context manager."""

    def __init__(self, j_closeable_iterator=None, type_info=None):
        self._iterator = iter(j_closeable_iterator if j_closeable_iterator is not None else ())
        self._type_info = type_info
        self._closed = False

    def __iter__(self):
        return self

    def __next__(self):
        if self._closed:
            raise StopIteration
        return next(self._iterator)

    def next(self):
        return self.__next__()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()

    def close(self):
        if not self._closed:
            self._closed = True
            close = getattr(self._iterator, "close", None)
            if close is not None:
                close()


class ConnectedStreams(object):
    """Two connected streams of possibly different types, processed together by a co-function
    (CoMapFunction, CoFlatMapFunction, CoProcessFunction; KeyedCoProcessFunction once both
    are keyed). Keyed state is shared by both inputs of a key."""

    def __init__(self, stream1: DataStream, stream2: DataStream):
        self.stream1 = stream1
        self.stream2 = stream2

    def key_by(self, key_selector1: Union[Callable, KeySelector],
               key_selector2: Union[Callable, KeySelector],
               key_type=None) -> "ConnectedStreams":
        ds1 = self.stream1._origin_stream if isinstance(self.stream1, KeyedStream) \
            else self.stream1
        ds2 = self.stream2._origin_stream if isinstance(self.stream2, KeyedStream) \
            else self.stream2
        return ConnectedStreams(ds1.key_by(key_selector1, key_type),
                                ds2.key_by(key_selector2, key_type))

    def map(self, func: CoMapFunction, output_type=None) -> DataStream:
        if not isinstance(func, CoMapFunction):
            raise TypeError("The input function must be a CoMapFunction!")
        return self._co(op.CoMapSpec, op.KeyedCoMapSpec, func, output_type).name("Co-Map")

    def flat_map(self, func: CoFlatMapFunction, output_type=None) -> DataStream:
        if not isinstance(func, CoFlatMapFunction):
            raise TypeError("The input must be a CoFlatMapFunction!")
        return self._co(op.CoFlatMapSpec, op.KeyedCoFlatMapSpec, func, output_type) \
            .name("Co-Flat Map")

    def process(self, func: Union[CoProcessFunction, KeyedCoProcessFunction],
                output_type=None) -> DataStream:
        if not isinstance(func, (CoProcessFunction, KeyedCoProcessFunction)):
            raise TypeError("The input must be a CoProcessFunction or KeyedCoProcessFunction!")
        return self._co(op.CoProcessSpec, op.KeyedCoProcessSpec, func, output_type)

    def _co(self, spec_class, keyed_spec_class, func, output_type) -> DataStream:
        # As in PyFlink, the operator is keyed when both inputs are KeyedStreams, whatever
        # the function class; a keyed stream connected to a non-keyed one is a plain
        # co-process whose keyed side sees PyFlink's internal Row(key, value) records.
        keyed = self._is_keyed_stream()
        if keyed:
            spec = keyed_spec_class(func, self.stream1._key_selector,
                                    self.stream2._key_selector, self.stream1._key_type)
        else:
            spec = spec_class(func, tuple(
                s._key_selector if isinstance(s, KeyedStream) else None
                for s in (self.stream1, self.stream2)))
        node = TwoInputTransformation(
            name="Keyed Co-Process" if keyed else "Co-Process", output_type=output_type,
            input1=self.stream1._transformation, input2=self.stream2._transformation,
            spec=spec)
        return DataStream(_env=self.stream1._env, _transformation=node)

    def _is_keyed_stream(self) -> bool:
        return isinstance(self.stream1, KeyedStream) and isinstance(self.stream2, KeyedStream)


# defined in their own module, exported here where PyFlink defines them
from pyflink_on_spark.datastream.windowed_stream import (  # noqa: E402
    AllWindowedStream, WindowedStream)


class BroadcastStream(object):
    """A stream whose elements maintain broadcast states (DataStream.broadcast(descriptors)).
    It can only be connected to a DataStream or KeyedStream."""

    def __init__(self, input_stream: Union[DataStream, KeyedStream],
                 broadcast_state_descriptors: List[MapStateDescriptor]):
        self.input_stream = input_stream
        self.broadcast_state_descriptors = broadcast_state_descriptors


class BroadcastConnectedStream(object):
    """A (keyed or non-keyed) stream connected to a BroadcastStream: process() it with a
    BroadcastProcessFunction or KeyedBroadcastProcessFunction."""

    def __init__(self, non_broadcast_stream: Union[DataStream, KeyedStream],
                 broadcast_stream: BroadcastStream,
                 broadcast_state_descriptors: List[MapStateDescriptor]):
        self.non_broadcast_stream = non_broadcast_stream
        self.broadcast_stream = broadcast_stream
        self.broadcast_state_descriptors = broadcast_state_descriptors

    def process(self, func: Union[BroadcastProcessFunction, KeyedBroadcastProcessFunction],
                output_type=None) -> DataStream:
        from pyflink_on_spark.common.typeinfo import RowTypeInfo, TypeInformation
        keyed = self._is_keyed_stream()
        if isinstance(func, BroadcastProcessFunction) and keyed:
            raise TypeError("BroadcastProcessFunction should be applied to non-keyed DataStream")
        if isinstance(func, KeyedBroadcastProcessFunction) and not keyed:
            raise TypeError("KeyedBroadcastProcessFunction should be applied to keyed DataStream")
        if isinstance(output_type, list):
            output_type = RowTypeInfo(output_type)
        elif output_type is not None and not isinstance(output_type, TypeInformation):
            raise TypeError("output_type must be None, list or TypeInformation")
        stream = self.non_broadcast_stream
        node = TwoInputTransformation(
            name="Keyed-Co-Process-Broadcast" if keyed else "Co-Process-Broadcast",
            output_type=output_type, input1=stream._transformation,
            input2=self.broadcast_stream.input_stream._transformation,
            spec=op.KeyedBroadcastProcessSpec(func, stream._key_selector, stream._key_type)
            if keyed else op.BroadcastProcessSpec(func))
        # PyFlink fixes the operator's parallelism to the environment's when it is created.
        node.parallelism = stream._env.get_parallelism()
        return DataStream(_env=stream._env, _transformation=node)

    def _is_keyed_stream(self) -> bool:
        return isinstance(self.non_broadcast_stream, KeyedStream)


class CachedDataStream(DataStream):
    """A DataStream from DataStream.cache(); its operator's attributes are fixed (PyFlink
    raises for each setter)."""

    def __init__(self, j_data_stream=None):
        _unsupported("CachedDataStream(j_data_stream)", "use DataStream.cache()")

    @classmethod
    def _of(cls, stream: DataStream) -> "CachedDataStream":
        cached = cls.__new__(cls)
        DataStream.__init__(cached, _env=stream._env, _transformation=stream._transformation)
        return cached

    def invalidate(self) -> None:
        """Releases the cached result: nothing is kept between jobs here."""

    def set_parallelism(self, parallelism: int):
        raise Exception("Set parallelism for CachedDataStream is not supported.")

    def name(self, name: str):
        raise Exception("Set name for CachedDataStream is not supported.")

    def get_name(self) -> str:
        raise Exception("Get name of CachedDataStream is not supported.")

    def uid(self, uid: str):
        raise Exception("Set uid for CachedDataStream is not supported.")

    def set_uid_hash(self, uid_hash: str):
        raise Exception("Set uid hash for CachedDataStream is not supported.")

    def set_max_parallelism(self, max_parallelism: int):
        raise Exception("Set max parallelism for CachedDataStream is not supported.")

    def force_non_parallel(self):
        raise Exception("Set force non-parallel for CachedDataStream is not supported.")

    def set_buffer_timeout(self, timeout_millis: int):
        raise Exception("Set buffer timeout for CachedDataStream is not supported.")

    def start_new_chain(self):
        raise Exception("Start new chain for CachedDataStream is not supported.")

    def disable_chaining(self):
        raise Exception("Disable chaining for CachedDataStream is not supported.")

    def slot_sharing_group(self, slot_sharing_group):
        raise Exception("Setting slot sharing group for CachedDataStream is not supported.")

