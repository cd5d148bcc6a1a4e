"""Mirror of `pyflink.datastream` (PyFlink 1.20): the same names, exported the same way."""
from pyflink_on_spark.datastream.checkpoint_config import CheckpointConfig, \
    ExternalizedCheckpointCleanup
from pyflink_on_spark.datastream.checkpointing_mode import CheckpointingMode
from pyflink_on_spark.datastream.checkpoint_storage import CheckpointStorage, \
    JobManagerCheckpointStorage, FileSystemCheckpointStorage, CustomCheckpointStorage
from pyflink_on_spark.datastream.data_stream import DataStream, KeyedStream, WindowedStream, \
    ConnectedStreams, DataStreamSink, BroadcastStream, BroadcastConnectedStream
from pyflink_on_spark.datastream.execution_mode import RuntimeExecutionMode
from pyflink_on_spark.datastream.externalized_checkpoint_retention import \
    ExternalizedCheckpointRetention
from pyflink_on_spark.datastream.functions import (
    MapFunction, CoMapFunction, FlatMapFunction, CoFlatMapFunction, ReduceFunction,
    FilterFunction, ProcessFunction, KeyedProcessFunction, CoProcessFunction,
    KeyedCoProcessFunction, WindowFunction, ProcessWindowFunction, AggregateFunction,
    BroadcastProcessFunction, KeyedBroadcastProcessFunction, RuntimeContext, KeySelector,
    Partitioner, SourceFunction, SinkFunction)
from pyflink_on_spark.datastream.output_tag import OutputTag
from pyflink_on_spark.datastream.slot_sharing_group import SlotSharingGroup, MemorySize
from pyflink_on_spark.datastream.state_backend import StateBackend, HashMapStateBackend, \
    EmbeddedRocksDBStateBackend, CustomStateBackend, MemoryStateBackend, RocksDBStateBackend, \
    FsStateBackend, PredefinedOptions
from pyflink_on_spark.datastream.stream_execution_environment import \
    StreamExecutionEnvironment
from pyflink_on_spark.datastream.time_characteristic import TimeCharacteristic
from pyflink_on_spark.datastream.time_domain import TimeDomain
from pyflink_on_spark.datastream.timerservice import TimerService
from pyflink_on_spark.datastream.window import Window, TimeWindow, CountWindow, WindowAssigner, \
    MergingWindowAssigner, TriggerResult, Trigger, GlobalWindow

__all__ = [
    "StreamExecutionEnvironment", "DataStream", "KeyedStream", "WindowedStream",
    "ConnectedStreams", "BroadcastStream", "BroadcastConnectedStream", "DataStreamSink",
    "MapFunction", "CoMapFunction", "FlatMapFunction", "CoFlatMapFunction", "ReduceFunction",
    "FilterFunction", "ProcessFunction", "KeyedProcessFunction", "CoProcessFunction",
    "KeyedCoProcessFunction", "WindowFunction", "ProcessWindowFunction", "AggregateFunction",
    "BroadcastProcessFunction", "KeyedBroadcastProcessFunction", "RuntimeContext",
    "TimerService", "CheckpointingMode", "CheckpointConfig", "ExternalizedCheckpointCleanup",
    "ExternalizedCheckpointRetention", "StateBackend", "HashMapStateBackend",
    "EmbeddedRocksDBStateBackend", "CustomStateBackend", "MemoryStateBackend",
    "RocksDBStateBackend", "FsStateBackend", "PredefinedOptions", "CheckpointStorage",
    "JobManagerCheckpointStorage", "FileSystemCheckpointStorage", "CustomCheckpointStorage",
    "RuntimeExecutionMode", "TimeCharacteristic", "TimeDomain", "KeySelector", "Partitioner",
    "SourceFunction", "SinkFunction", "SlotSharingGroup", "MemorySize", "OutputTag",
    "Window", "TimeWindow", "CountWindow", "GlobalWindow", "WindowAssigner",
    "MergingWindowAssigner", "TriggerResult", "Trigger",
]
