"""The public state / state backend / checkpoint API surface (mirror of PyFlink 1.20).

Expected defaults and messages were read off PyFlink 1.20 (getters called on fresh objects).
"""
import inspect
import warnings

import pytest

from pyflink_on_spark.common.time import Duration, Time
from pyflink_on_spark.common.typeinfo import Types
from pyflink_on_spark.datastream import checkpoint_config as cc_mod
from pyflink_on_spark.datastream import checkpoint_storage as cs_mod
from pyflink_on_spark.datastream import state as state_mod
from pyflink_on_spark.datastream import state_backend as sb_mod
from pyflink_on_spark.datastream.checkpoint_config import (
    CheckpointConfig, ExternalizedCheckpointCleanup)
from pyflink_on_spark.datastream.checkpoint_storage import (
    CheckpointStorage, CustomCheckpointStorage, FileSystemCheckpointStorage,
    JobManagerCheckpointStorage)
from pyflink_on_spark.datastream.checkpointing_mode import CheckpointingMode
from pyflink_on_spark.datastream.externalized_checkpoint_retention import \
    ExternalizedCheckpointRetention
from pyflink_on_spark.datastream.functions import AggregateFunction, ReduceFunction
from pyflink_on_spark.datastream.state import (
    AggregatingState, AggregatingStateDescriptor, AppendingState, BroadcastState, ListState,
    ListStateDescriptor, MapState, MapStateDescriptor, MergingState, OperatorStateStore,
    ReadOnlyBroadcastState, ReducingState, ReducingStateDescriptor, State, StateDescriptor,
    StateTtlConfig, ValueState, ValueStateDescriptor)
from pyflink_on_spark.datastream.state_backend import (
    CustomStateBackend, EmbeddedRocksDBStateBackend, FsStateBackend, HashMapStateBackend,
    MemoryStateBackend, OptionsFactory, PredefinedOptions, RocksDBStateBackend, StateBackend)


def _millis(d):
    return state_mod._to_millis(d)


# -- inventory ---------------------------------------------------------------------------------

# (module, qualified name, parameter names) from the PyFlink 1.20 API inventory.
SIGNATURES = [
    (state_mod, "OperatorStateStore.get_broadcast_state", ["self", "state_descriptor"]),
    (state_mod, "State.clear", ["self"]),
    (state_mod, "ValueState.value", ["self"]),
    (state_mod, "ValueState.update", ["self", "value"]),
    (state_mod, "AppendingState.get", ["self"]),
    (state_mod, "AppendingState.add", ["self", "value"]),
    (state_mod, "ListState.update", ["self", "values"]),
    (state_mod, "ListState.add_all", ["self", "values"]),
    (state_mod, "ListState.__iter__", ["self"]),
    (state_mod, "MapState.get", ["self", "key"]),
    (state_mod, "MapState.put", ["self", "key", "value"]),
    (state_mod, "MapState.put_all", ["self", "dict_value"]),
    (state_mod, "MapState.remove", ["self", "key"]),
    (state_mod, "MapState.contains", ["self", "key"]),
    (state_mod, "MapState.items", ["self"]),
    (state_mod, "MapState.keys", ["self"]),
    (state_mod, "MapState.values", ["self"]),
    (state_mod, "MapState.is_empty", ["self"]),
    (state_mod, "MapState.__getitem__", ["self", "key"]),
    (state_mod, "MapState.__setitem__", ["self", "key", "value"]),
    (state_mod, "MapState.__delitem__", ["self", "key"]),
    (state_mod, "MapState.__contains__", ["self", "key"]),
    (state_mod, "MapState.__iter__", ["self"]),
    (state_mod, "ReadOnlyBroadcastState.get", ["self", "key"]),
    (state_mod, "ReadOnlyBroadcastState.contains", ["self", "key"]),
    (state_mod, "ReadOnlyBroadcastState.items", ["self"]),
    (state_mod, "ReadOnlyBroadcastState.keys", ["self"]),
    (state_mod, "ReadOnlyBroadcastState.values", ["self"]),
    (state_mod, "ReadOnlyBroadcastState.is_empty", ["self"]),
    (state_mod, "ReadOnlyBroadcastState.__getitem__", ["self", "key"]),
    (state_mod, "ReadOnlyBroadcastState.__contains__", ["self", "key"]),
    (state_mod, "ReadOnlyBroadcastState.__iter__", ["self"]),
    (state_mod, "BroadcastState.put", ["self", "key", "value"]),
    (state_mod, "BroadcastState.put_all", ["self", "dict_value"]),
    (state_mod, "BroadcastState.remove", ["self", "key"]),
    (state_mod, "BroadcastState.__setitem__", ["self", "key", "value"]),
    (state_mod, "BroadcastState.__delitem__", ["self", "key"]),
    (state_mod, "StateDescriptor.__init__", ["self", "name", "type_info"]),
    (state_mod, "StateDescriptor.get_name", ["self"]),
    (state_mod, "StateDescriptor.enable_time_to_live", ["self", "ttl_config"]),
    (state_mod, "ValueStateDescriptor.__init__", ["self", "name", "value_type_info"]),
    (state_mod, "ListStateDescriptor.__init__", ["self", "name", "elem_type_info"]),
    (state_mod, "MapStateDescriptor.__init__",
     ["self", "name", "key_type_info", "value_type_info"]),
    (state_mod, "ReducingStateDescriptor.__init__",
     ["self", "name", "reduce_function", "type_info"]),
    (state_mod, "ReducingStateDescriptor.get_reduce_function", ["self"]),
    (state_mod, "AggregatingStateDescriptor.__init__",
     ["self", "name", "agg_function", "state_type_info"]),
    (state_mod, "AggregatingStateDescriptor.get_agg_function", ["self"]),
    (state_mod, "StateTtlConfig.__init__",
     ["self", "update_type", "state_visibility", "ttl_time_characteristic", "ttl",
      "cleanup_strategies"]),
    (state_mod, "StateTtlConfig.new_builder", ["ttl"]),
    (state_mod, "StateTtlConfig.get_update_type", ["self"]),
    (state_mod, "StateTtlConfig.get_state_visibility", ["self"]),
    (state_mod, "StateTtlConfig.get_ttl", ["self"]),
    (state_mod, "StateTtlConfig.get_ttl_time_characteristic", ["self"]),
    (state_mod, "StateTtlConfig.is_enabled", ["self"]),
    (state_mod, "StateTtlConfig.get_cleanup_strategies", ["self"]),
    (state_mod, "StateTtlConfig.Builder.__init__", ["self", "ttl"]),
    (state_mod, "StateTtlConfig.Builder.build", ["self"]),
    (state_mod, "StateTtlConfig.Builder.cleanup_full_snapshot", ["self"]),
    (state_mod, "StateTtlConfig.Builder.cleanup_in_rocksdb_compact_filter",
     ["self", "query_time_after_num_entries", "periodic_compaction_time"]),
    (state_mod, "StateTtlConfig.Builder.cleanup_incrementally",
     ["self", "cleanup_size", "run_cleanup_for_every_record"]),
    (state_mod, "StateTtlConfig.Builder.disable_cleanup_in_background", ["self"]),
    (state_mod, "StateTtlConfig.Builder.never_return_expired", ["self"]),
    (state_mod, "StateTtlConfig.Builder.return_expired_if_not_cleaned_up", ["self"]),
    (state_mod, "StateTtlConfig.Builder.set_state_visibility", ["self", "state_visibility"]),
    (state_mod, "StateTtlConfig.Builder.set_ttl", ["self", "ttl"]),
    (state_mod, "StateTtlConfig.Builder.set_ttl_time_characteristic",
     ["self", "ttl_time_characteristic"]),
    (state_mod, "StateTtlConfig.Builder.set_update_type", ["self", "update_type"]),
    (state_mod, "StateTtlConfig.Builder.update_ttl_on_create_and_write", ["self"]),
    (state_mod, "StateTtlConfig.Builder.update_ttl_on_read_and_write", ["self"]),
    (state_mod, "StateTtlConfig.Builder.use_processing_time", ["self"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.__init__",
     ["self", "strategies", "is_cleanup_in_background"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.get_incremental_cleanup_strategy", ["self"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.get_rocksdb_compact_filter_cleanup_strategy",
     ["self"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.in_full_snapshot", ["self"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.is_cleanup_in_background", ["self"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.IncrementalCleanupStrategy.__init__",
     ["self", "cleanup_size", "run_cleanup_for_every_record"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.IncrementalCleanupStrategy.get_cleanup_size",
     ["self"]),
    (state_mod,
     "StateTtlConfig.CleanupStrategies.IncrementalCleanupStrategy.run_cleanup_for_every_record",
     ["self"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.RocksdbCompactFilterCleanupStrategy.__init__",
     ["self", "query_time_after_num_entries", "periodic_compaction_time"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.RocksdbCompactFilterCleanupStrategy."
                "get_periodic_compaction_time", ["self"]),
    (state_mod, "StateTtlConfig.CleanupStrategies.RocksdbCompactFilterCleanupStrategy."
                "get_query_time_after_num_entries", ["self"]),
    (sb_mod, "StateBackend.__init__", ["self", "j_state_backend"]),
    (sb_mod, "HashMapStateBackend.__init__", ["self", "j_hashmap_state_backend"]),
    (sb_mod, "CustomStateBackend.__init__", ["self", "j_custom_state_backend"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.__init__",
     ["self", "enable_incremental_checkpointing", "j_embedded_rocks_db_state_backend"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.get_db_storage_paths", ["self"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.get_number_of_transfer_threads", ["self"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.get_options", ["self"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.get_predefined_options", ["self"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.is_incremental_checkpoints_enabled", ["self"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.set_db_storage_paths", ["self", "paths"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.set_number_of_transfer_threads",
     ["self", "number_of_transfering_threads"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.set_options", ["self", "options_factory_class_name"]),
    (sb_mod, "EmbeddedRocksDBStateBackend.set_predefined_options", ["self", "options"]),
    (sb_mod, "FsStateBackend.__init__",
     ["self", "checkpoint_directory_uri", "default_savepoint_directory_uri",
      "file_state_size_threshold", "write_buffer_size", "using_asynchronous_snapshots",
      "j_fs_state_backend"]),
    (sb_mod, "FsStateBackend.get_checkpoint_path", ["self"]),
    (sb_mod, "FsStateBackend.get_min_file_size_threshold", ["self"]),
    (sb_mod, "FsStateBackend.get_write_buffer_size", ["self"]),
    (sb_mod, "FsStateBackend.is_using_asynchronous_snapshots", ["self"]),
    (sb_mod, "MemoryStateBackend.__init__",
     ["self", "checkpoint_path", "savepoint_path", "max_state_size",
      "using_asynchronous_snapshots", "j_memory_state_backend"]),
    (sb_mod, "MemoryStateBackend.get_max_state_size", ["self"]),
    (sb_mod, "MemoryStateBackend.is_using_asynchronous_snapshots", ["self"]),
    (sb_mod, "RocksDBStateBackend.__init__",
     ["self", "checkpoint_data_uri", "enable_incremental_checkpointing",
      "checkpoint_stream_backend", "j_rocks_db_state_backend"]),
    (sb_mod, "RocksDBStateBackend.get_checkpoint_backend", ["self"]),
    (sb_mod, "RocksDBStateBackend.get_db_storage_paths", ["self"]),
    (sb_mod, "RocksDBStateBackend.get_number_of_transfering_threads", ["self"]),
    (sb_mod, "RocksDBStateBackend.get_options", ["self"]),
    (sb_mod, "RocksDBStateBackend.get_predefined_options", ["self"]),
    (sb_mod, "RocksDBStateBackend.is_incremental_checkpoints_enabled", ["self"]),
    (sb_mod, "RocksDBStateBackend.set_db_storage_paths", ["self", "paths"]),
    (sb_mod, "RocksDBStateBackend.set_number_of_transfering_threads",
     ["self", "number_of_transfering_threads"]),
    (sb_mod, "RocksDBStateBackend.set_options", ["self", "options_factory_class_name"]),
    (sb_mod, "RocksDBStateBackend.set_predefined_options", ["self", "options"]),
    (cs_mod, "CheckpointStorage.__init__", ["self", "j_checkpoint_storage"]),
    (cs_mod, "CustomCheckpointStorage.__init__", ["self", "j_custom_checkpoint_storage"]),
    (cs_mod, "FileSystemCheckpointStorage.__init__",
     ["self", "checkpoint_path", "file_state_size_threshold", "write_buffer_size",
      "j_filesystem_checkpoint_storage"]),
    (cs_mod, "FileSystemCheckpointStorage.get_checkpoint_path", ["self"]),
    (cs_mod, "FileSystemCheckpointStorage.get_min_file_size_threshold", ["self"]),
    (cs_mod, "FileSystemCheckpointStorage.get_savepoint_path", ["self"]),
    (cs_mod, "FileSystemCheckpointStorage.get_write_buffer_size", ["self"]),
    (cs_mod, "JobManagerCheckpointStorage.__init__",
     ["self", "checkpoint_path", "max_state_size", "j_jobmanager_checkpoint_storage"]),
    (cs_mod, "JobManagerCheckpointStorage.get_checkpoint_path", ["self"]),
    (cs_mod, "JobManagerCheckpointStorage.get_max_state_size", ["self"]),
    (cs_mod, "JobManagerCheckpointStorage.get_savepoint_path", ["self"]),
    (cc_mod, "CheckpointConfig.__init__", ["self", "j_checkpoint_config"]),
    (cc_mod, "CheckpointConfig.disable_unaligned_checkpoints", ["self"]),
    (cc_mod, "CheckpointConfig.enable_externalized_checkpoints", ["self", "cleanup_mode"]),
    (cc_mod, "CheckpointConfig.enable_unaligned_checkpoints", ["self", "enabled"]),
    (cc_mod, "CheckpointConfig.get_alignment_timeout", ["self"]),
    (cc_mod, "CheckpointConfig.get_checkpoint_interval", ["self"]),
    (cc_mod, "CheckpointConfig.get_checkpoint_storage", ["self"]),
    (cc_mod, "CheckpointConfig.get_checkpoint_timeout", ["self"]),
    (cc_mod, "CheckpointConfig.get_checkpointing_mode", ["self"]),
    (cc_mod, "CheckpointConfig.get_externalized_checkpoint_cleanup", ["self"]),
    (cc_mod, "CheckpointConfig.get_externalized_checkpoint_retention", ["self"]),
    (cc_mod, "CheckpointConfig.get_max_concurrent_checkpoints", ["self"]),
    (cc_mod, "CheckpointConfig.get_min_pause_between_checkpoints", ["self"]),
    (cc_mod, "CheckpointConfig.get_tolerable_checkpoint_failure_number", ["self"]),
    (cc_mod, "CheckpointConfig.is_checkpointing_enabled", ["self"]),
    (cc_mod, "CheckpointConfig.is_externalized_checkpoints_enabled", ["self"]),
    (cc_mod, "CheckpointConfig.is_fail_on_checkpointing_errors", ["self"]),
    (cc_mod, "CheckpointConfig.is_force_unaligned_checkpoints", ["self"]),
    (cc_mod, "CheckpointConfig.is_unaligned_checkpoints_enabled", ["self"]),
    (cc_mod, "CheckpointConfig.set_alignment_timeout", ["self", "alignment_timeout"]),
    (cc_mod, "CheckpointConfig.set_checkpoint_interval", ["self", "checkpoint_interval"]),
    (cc_mod, "CheckpointConfig.set_checkpoint_storage", ["self", "storage"]),
    (cc_mod, "CheckpointConfig.set_checkpoint_storage_dir", ["self", "checkpoint_path"]),
    (cc_mod, "CheckpointConfig.set_checkpoint_timeout", ["self", "checkpoint_timeout"]),
    (cc_mod, "CheckpointConfig.set_checkpointing_mode", ["self", "checkpointing_mode"]),
    (cc_mod, "CheckpointConfig.set_externalized_checkpoint_cleanup", ["self", "cleanup_mode"]),
    (cc_mod, "CheckpointConfig.set_externalized_checkpoint_retention",
     ["self", "retention_mode"]),
    (cc_mod, "CheckpointConfig.set_fail_on_checkpointing_errors",
     ["self", "fail_on_checkpointing_errors"]),
    (cc_mod, "CheckpointConfig.set_force_unaligned_checkpoints",
     ["self", "force_unaligned_checkpoints"]),
    (cc_mod, "CheckpointConfig.set_max_concurrent_checkpoints",
     ["self", "max_concurrent_checkpoints"]),
    (cc_mod, "CheckpointConfig.set_min_pause_between_checkpoints",
     ["self", "min_pause_between_checkpoints"]),
    (cc_mod, "CheckpointConfig.set_tolerable_checkpoint_failure_number",
     ["self", "tolerable_checkpoint_failure_number"]),
]


@pytest.mark.parametrize("module,qualname,params", SIGNATURES,
                         ids=[s[0].__name__.rsplit(".", 1)[1] + "." + s[1] for s in SIGNATURES])
def test_signatures_match_pyflink(module, qualname, params):
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    assert list(inspect.signature(obj).parameters) == params


def test_module_exports():
    assert set(state_mod.__all__) == {
        'ValueStateDescriptor', 'ValueState', 'ListStateDescriptor', 'ListState',
        'MapStateDescriptor', 'MapState', 'ReducingStateDescriptor', 'ReducingState',
        'AggregatingStateDescriptor', 'AggregatingState', 'ReadOnlyBroadcastState',
        'BroadcastState', 'StateTtlConfig', 'OperatorStateStore'}
    assert {'StateBackend', 'HashMapStateBackend', 'EmbeddedRocksDBStateBackend',
            'MemoryStateBackend', 'FsStateBackend', 'RocksDBStateBackend',
            'CustomStateBackend', 'PredefinedOptions'} <= set(sb_mod.__all__)
    assert set(cs_mod.__all__) == {'CheckpointStorage', 'JobManagerCheckpointStorage',
                                   'FileSystemCheckpointStorage', 'CustomCheckpointStorage'}
    assert set(cc_mod.__all__) == {'CheckpointConfig', 'ExternalizedCheckpointCleanup'}
    import pyflink_on_spark.datastream as ds
    for name in ["CheckpointConfig", "CheckpointingMode", "ExternalizedCheckpointCleanup",
                 "ExternalizedCheckpointRetention", "HashMapStateBackend",
                 "EmbeddedRocksDBStateBackend", "PredefinedOptions",
                 "FileSystemCheckpointStorage"]:
        assert hasattr(ds, name)


def test_class_hierarchy():
    assert issubclass(ValueState, State)
    assert issubclass(AppendingState, State)
    assert issubclass(MergingState, AppendingState)
    for cls in (ReducingState, AggregatingState, ListState):
        assert issubclass(cls, MergingState)
    assert issubclass(MapState, State) and not issubclass(MapState, AppendingState)
    assert issubclass(BroadcastState, ReadOnlyBroadcastState)
    assert issubclass(ReadOnlyBroadcastState, State)
    for cls in (ValueStateDescriptor, ListStateDescriptor, MapStateDescriptor,
                ReducingStateDescriptor, AggregatingStateDescriptor):
        assert issubclass(cls, StateDescriptor)
    for cls in (State, ValueState, ListState, MapState, OperatorStateStore, StateDescriptor):
        assert inspect.isabstract(cls) or cls is StateDescriptor
    for cls in (HashMapStateBackend, EmbeddedRocksDBStateBackend, MemoryStateBackend,
                FsStateBackend, RocksDBStateBackend, CustomStateBackend):
        assert issubclass(cls, StateBackend)
    for cls in (JobManagerCheckpointStorage, FileSystemCheckpointStorage,
                CustomCheckpointStorage):
        assert issubclass(cls, CheckpointStorage)


def test_enum_members_and_values():
    assert [(m.name, m.value) for m in CheckpointingMode] == [
        ("EXACTLY_ONCE", 0), ("AT_LEAST_ONCE", 1)]
    expected = [("DELETE_ON_CANCELLATION", 0), ("RETAIN_ON_CANCELLATION", 1),
                ("NO_EXTERNALIZED_CHECKPOINTS", 2)]
    assert [(m.name, m.value) for m in ExternalizedCheckpointCleanup] == expected
    assert [(m.name, m.value) for m in ExternalizedCheckpointRetention] == expected
    assert [(m.name, m.value) for m in PredefinedOptions] == [
        ("DEFAULT", 0), ("SPINNING_DISK_OPTIMIZED", 1),
        ("SPINNING_DISK_OPTIMIZED_HIGH_MEM", 2), ("FLASH_SSD_OPTIMIZED", 3)]
    assert [(m.name, m.value) for m in StateTtlConfig.UpdateType] == [
        ("Disabled", 0), ("OnCreateAndWrite", 1), ("OnReadAndWrite", 2)]
    assert [(m.name, m.value) for m in StateTtlConfig.StateVisibility] == [
        ("ReturnExpiredIfNotCleanedUp", 0), ("NeverReturnExpired", 1)]
    assert [m.name for m in StateTtlConfig.TtlTimeCharacteristic] == ["ProcessingTime"]
    assert [(m.name, m.value) for m in StateTtlConfig.CleanupStrategies.Strategies] == [
        ("FULL_STATE_SCAN_SNAPSHOT", 0), ("INCREMENTAL_CLEANUP", 1),
        ("ROCKSDB_COMPACTION_FILTER", 2)]


# -- descriptors --------------------------------------------------------------------------------

def test_descriptors():
    v = ValueStateDescriptor("v", Types.INT())
    assert v.get_name() == "v" and v.name == "v" and v.type_info == Types.INT()
    assert v._ttl_config is None
    l_ = ListStateDescriptor("l", Types.STRING())
    assert l_.type_info == Types.LIST(Types.STRING())
    m = MapStateDescriptor("m", Types.STRING(), Types.LONG())
    assert m.type_info == Types.MAP(Types.STRING(), Types.LONG())
    assert m.get_name() == "m"


def test_reducing_descriptor_wraps_callables():
    d = ReducingStateDescriptor("r", lambda a, b: a * b, Types.LONG())
    f = d.get_reduce_function()
    assert isinstance(f, ReduceFunction) or hasattr(f, "reduce")
    assert f.reduce(3, 4) == 12

    class Max(ReduceFunction):
        def reduce(self, a, b):
            return max(a, b)

    m = Max()
    assert ReducingStateDescriptor("r", m, Types.LONG()).get_reduce_function() is m
    with pytest.raises(TypeError, match="ReduceFunction or a callable"):
        ReducingStateDescriptor("r", 42, Types.LONG())


def test_aggregating_descriptor_requires_aggregate_function():
    class A(AggregateFunction):
        def create_accumulator(self):
            return 0

        def add(self, value, accumulator):
            return accumulator + value

        def get_result(self, accumulator):
            return accumulator

        def merge(self, a, b):
            return a + b

    a = A()
    assert AggregatingStateDescriptor("a", a, Types.LONG()).get_agg_function() is a
    with pytest.raises(TypeError, match="AggregateFunction"):
        AggregatingStateDescriptor("a", lambda x: x, Types.LONG())


def test_enable_time_to_live():
    d = ValueStateDescriptor("v", Types.INT())
    cfg = StateTtlConfig.new_builder(Time.seconds(1)).build()
    assert d.enable_time_to_live(cfg) is None
    assert d._ttl_config is cfg


# -- StateTtlConfig -------------------------------------------------------------------------------

def test_ttl_builder_defaults():
    cfg = StateTtlConfig.new_builder(Time.seconds(5)).build()
    assert cfg.get_update_type() is StateTtlConfig.UpdateType.OnCreateAndWrite
    assert cfg.get_state_visibility() is StateTtlConfig.StateVisibility.NeverReturnExpired
    assert cfg.get_ttl_time_characteristic() is \
        StateTtlConfig.TtlTimeCharacteristic.ProcessingTime
    assert cfg.get_ttl() == Time.seconds(5)
    assert cfg.is_enabled()
    cs = cfg.get_cleanup_strategies()
    assert cs.is_cleanup_in_background()
    assert not cs.in_full_snapshot()
    inc = cs.get_incremental_cleanup_strategy()
    assert (inc.get_cleanup_size(), inc.run_cleanup_for_every_record()) == (5, False)
    rdb = cs.get_rocksdb_compact_filter_cleanup_strategy()
    assert rdb.get_query_time_after_num_entries() == 1000
    assert _millis(rdb.get_periodic_compaction_time()) == 30 * 24 * 3600 * 1000
    # PyFlink's text, its missing and misplaced spaces included (compat case state_ttl_config)
    assert repr(cfg) == (
        "StateTtlConfig<update_type=UpdateType.OnCreateAndWrite, "
        "state_visibility=StateVisibility.NeverReturnExpired,ttl_time_characteristic "
        "=TtlTimeCharacteristic.ProcessingTime,ttl=5000 ms>")


def test_ttl_builder_every_method_chains():
    b = StateTtlConfig.new_builder(Time.seconds(1))
    assert b.update_ttl_on_read_and_write() is b
    assert b.return_expired_if_not_cleaned_up() is b
    assert b.use_processing_time() is b
    assert b.cleanup_full_snapshot() is b
    assert b.cleanup_incrementally(10, True) is b
    assert b.cleanup_in_rocksdb_compact_filter(500, Duration.of_days(1)) is b
    assert b.set_ttl(Time.minutes(2)) is b
    cfg = b.build()
    assert cfg.get_update_type() is StateTtlConfig.UpdateType.OnReadAndWrite
    assert cfg.get_state_visibility() is \
        StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp
    assert cfg.get_ttl() == Time.minutes(2)
    assert cfg._ttl_millis() == 120_000
    cs = cfg.get_cleanup_strategies()
    assert cs.in_full_snapshot()
    assert cs.get_incremental_cleanup_strategy().get_cleanup_size() == 10
    assert cs.get_incremental_cleanup_strategy().run_cleanup_for_every_record() is True
    r = cs.get_rocksdb_compact_filter_cleanup_strategy()
    assert r.get_query_time_after_num_entries() == 500
    assert _millis(r.get_periodic_compaction_time()) == 24 * 3600 * 1000
    full = cs._strategies[StateTtlConfig.CleanupStrategies.Strategies.FULL_STATE_SCAN_SNAPSHOT]
    assert full is StateTtlConfig.CleanupStrategies.EMPTY_STRATEGY
    assert isinstance(full, StateTtlConfig.CleanupStrategies.EmptyCleanupStrategy)
    assert isinstance(full, StateTtlConfig.CleanupStrategies.CleanupStrategy)

    b2 = StateTtlConfig.new_builder(Time.seconds(1))
    assert b2.set_update_type(StateTtlConfig.UpdateType.Disabled) is b2
    assert b2.set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired) is b2
    assert b2.set_ttl_time_characteristic(
        StateTtlConfig.TtlTimeCharacteristic.ProcessingTime) is b2
    assert b2.never_return_expired() is b2
    assert b2.update_ttl_on_create_and_write().update_ttl_on_read_and_write() is b2
    assert b2.disable_cleanup_in_background() is b2
    cfg2 = b2.build()
    assert cfg2.is_enabled()
    cs2 = cfg2.get_cleanup_strategies()
    assert not cs2.is_cleanup_in_background()
    assert cs2.get_incremental_cleanup_strategy() is None
    assert cs2.get_rocksdb_compact_filter_cleanup_strategy() is None


def test_ttl_disabled_update_type():
    cfg = StateTtlConfig.new_builder(Time.seconds(1)).set_update_type(
        StateTtlConfig.UpdateType.Disabled).build()
    assert not cfg.is_enabled()


def test_ttl_builds_are_independent():
    b = StateTtlConfig.new_builder(Time.seconds(1))
    first = b.build()
    b.cleanup_full_snapshot()
    assert not first.get_cleanup_strategies().in_full_snapshot()
    assert b.build().get_cleanup_strategies().in_full_snapshot()


def test_ttl_config_constructor_and_strategy_classes():
    cs = StateTtlConfig.CleanupStrategies({}, False)
    cfg = StateTtlConfig(StateTtlConfig.UpdateType.OnReadAndWrite,
                         StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp,
                         StateTtlConfig.TtlTimeCharacteristic.ProcessingTime,
                         Time.milliseconds(7), cs)
    assert cfg.get_cleanup_strategies() is cs
    assert cfg._ttl_millis() == 7
    inc = StateTtlConfig.CleanupStrategies.IncrementalCleanupStrategy(3, True)
    assert inc.get_cleanup_size() == 3 and inc.run_cleanup_for_every_record()
    r = StateTtlConfig.CleanupStrategies.RocksdbCompactFilterCleanupStrategy(9)
    assert r.get_query_time_after_num_entries() == 9
    assert _millis(r.get_periodic_compaction_time()) == 30 * 24 * 3600 * 1000


# -- state backends -----------------------------------------------------------------------------

def test_hashmap_state_backend():
    b = HashMapStateBackend()
    assert isinstance(b, StateBackend)
    assert "HashMapStateBackend" in str(b)
    assert b == HashMapStateBackend()


def test_embedded_rocksdb_defaults_and_setters(tmp_path):
    b = EmbeddedRocksDBStateBackend()
    assert b.get_db_storage_paths() == []
    assert b.get_number_of_transfer_threads() == 4
    assert b.get_options() is None
    assert b.get_predefined_options() is PredefinedOptions.DEFAULT
    assert b.is_incremental_checkpoints_enabled() is False
    assert EmbeddedRocksDBStateBackend(True).is_incremental_checkpoints_enabled() is True
    assert EmbeddedRocksDBStateBackend(False).is_incremental_checkpoints_enabled() is False
    b.set_db_storage_paths(str(tmp_path / "a"), "file://" + str(tmp_path / "b"))
    assert b.get_db_storage_paths() == [str(tmp_path / "a"), str(tmp_path / "b")]
    b.set_db_storage_paths()
    assert b.get_db_storage_paths() == []
    b.set_predefined_options(PredefinedOptions.SPINNING_DISK_OPTIMIZED_HIGH_MEM)
    assert b.get_predefined_options() is PredefinedOptions.SPINNING_DISK_OPTIMIZED_HIGH_MEM
    b.set_number_of_transfer_threads(7)
    assert b.get_number_of_transfer_threads() == 7
    assert "numberOfTransferThreads=7" in str(b)


def test_embedded_rocksdb_argument_checks():
    with pytest.raises(TypeError, match="enable_incremental_checkpointing"):
        EmbeddedRocksDBStateBackend("yes")
    b = EmbeddedRocksDBStateBackend()
    with pytest.raises(ValueError, match="Relative paths are not supported"):
        b.set_db_storage_paths("relative/dir")
    with pytest.raises(ValueError, match="non-local scheme"):
        b.set_db_storage_paths("hdfs://nn/x")
    with pytest.raises(ValueError, match="greater than zero"):
        b.set_number_of_transfer_threads(0)
    with pytest.raises(TypeError):
        b.set_predefined_options("DEFAULT")


class MyOptions(OptionsFactory):
    pass


def test_set_options_python_factory_and_java_name():
    b = EmbeddedRocksDBStateBackend()
    b.set_options(MyOptions())
    assert b.get_options().endswith("MyOptions")
    assert isinstance(b._options_factory, MyOptions)
    b.set_options(MyOptions)
    assert isinstance(b._options_factory, MyOptions)
    b.set_options(__name__ + ".MyOptions")
    assert isinstance(b._options_factory, MyOptions)
    with pytest.warns(RuntimeWarning, match="Java RocksDBOptionsFactory"):
        b.set_options("com.example.MyJavaOptionsFactory")
    assert b.get_options() == "com.example.MyJavaOptionsFactory"
    assert b._options_factory is None
    with pytest.raises(ValueError, match="does not implement"):
        b.set_options("collections.OrderedDict")
    with pytest.raises(TypeError):
        b.set_options(42)


def test_memory_state_backend():
    b = MemoryStateBackend()
    assert b.get_max_state_size() == 5 * 1024 * 1024 == MemoryStateBackend.DEFAULT_MAX_STATE_SIZE
    assert b.is_using_asynchronous_snapshots() is True
    b2 = MemoryStateBackend("file:///tmp/cp", "file:///tmp/sp", 1000, False)
    assert b2.get_max_state_size() == 1000
    assert b2.is_using_asynchronous_snapshots() is True  # as Flink 1.20: always asynchronous
    assert str(b2) == ("MemoryStateBackend (data in heap memory / checkpoints to JobManager) "
                       "(checkpoints: 'file:/tmp/cp', savepoints: 'file:/tmp/sp, "
                       "maxStateSize: 1000)")
    with pytest.raises(TypeError, match="using_asynchronous_snapshots"):
        MemoryStateBackend(using_asynchronous_snapshots="x")
    with pytest.raises(ValueError, match="scheme"):
        MemoryStateBackend("/no/scheme")


def test_fs_state_backend():
    with pytest.raises(ValueError, match="'checkpoint_directory_uri' is required"):
        FsStateBackend()
    b = FsStateBackend("file:///tmp/cp")
    assert b.get_checkpoint_path() == "file:/tmp/cp"
    assert b.get_min_file_size_threshold() == 20480
    assert b.get_write_buffer_size() == 4096
    assert b.is_using_asynchronous_snapshots() is True
    b2 = FsStateBackend("hdfs://nn:8020/cp/", "file:///tmp/sp", 2048, 8192, False)
    assert b2.get_checkpoint_path() == "hdfs://nn:8020/cp"
    assert b2.get_min_file_size_threshold() == 2048
    assert b2.get_write_buffer_size() == 8192
    with pytest.raises(ValueError, match="The scheme"):
        FsStateBackend("/tmp/cp")


def test_rocksdb_state_backend_wraps_embedded(tmp_path):
    b = RocksDBStateBackend("file:///tmp/cp")
    cb = b.get_checkpoint_backend()
    assert isinstance(cb, FsStateBackend) and cb.get_checkpoint_path() == "file:/tmp/cp"
    assert b.get_db_storage_paths() == []
    assert b.get_number_of_transfering_threads() == 4
    assert b.get_options() is None
    assert b.get_predefined_options() is PredefinedOptions.DEFAULT
    assert b.is_incremental_checkpoints_enabled() is False
    b.set_db_storage_paths(str(tmp_path))
    b.set_number_of_transfering_threads(2)
    b.set_predefined_options(PredefinedOptions.FLASH_SSD_OPTIMIZED)
    b.set_options(MyOptions())
    e = b._get_embedded()
    assert isinstance(e, EmbeddedRocksDBStateBackend)
    assert e.get_db_storage_paths() == [str(tmp_path)] == b.get_db_storage_paths()
    assert e.get_number_of_transfer_threads() == 2
    assert b.get_predefined_options() is PredefinedOptions.FLASH_SSD_OPTIMIZED
    assert b.get_options().endswith("MyOptions")
    fs = FsStateBackend("file:///tmp/other")
    b2 = RocksDBStateBackend(checkpoint_stream_backend=fs, enable_incremental_checkpointing=True)
    assert b2.get_checkpoint_backend() is fs
    assert b2.is_incremental_checkpoints_enabled() is True
    assert "enableIncrementalCheckpointing=true" in str(b2)
    with pytest.raises(TypeError):
        RocksDBStateBackend("file:///tmp/cp", enable_incremental_checkpointing="x")


def test_jvm_only_constructs_raise_not_implemented():
    with pytest.raises(NotImplementedError) as e:
        CustomStateBackend(object())
    msg = str(e.value)
    assert "CustomStateBackend" in msg and "HashMapStateBackend" in msg \
        and "EmbeddedRocksDBStateBackend" in msg
    with pytest.raises(NotImplementedError, match="CustomCheckpointStorage"):
        CustomCheckpointStorage(object())
    with pytest.raises(NotImplementedError, match="j_hashmap_state_backend"):
        HashMapStateBackend(j_hashmap_state_backend=object())
    with pytest.raises(NotImplementedError, match="JVM"):
        EmbeddedRocksDBStateBackend(j_embedded_rocks_db_state_backend=object())
    with pytest.raises(NotImplementedError, match="JVM"):
        CheckpointConfig(object())
    with pytest.raises(NotImplementedError, match="_to_j_predefined_options"):
        PredefinedOptions.DEFAULT._to_j_predefined_options()
    with pytest.raises(NotImplementedError, match="JVM"):
        CheckpointingMode.EXACTLY_ONCE._to_j_checkpointing_mode()
    with pytest.raises(NotImplementedError, match="JVM"):
        ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION._to_j_externalized_checkpoint_cleanup()
    with pytest.raises(NotImplementedError, match="JVM"):
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION.\
            _to_j_externalized_checkpoint_retention()


def test_state_backends_pickle():
    import pickle
    b = EmbeddedRocksDBStateBackend(True)
    b.set_predefined_options(PredefinedOptions.SPINNING_DISK_OPTIMIZED)
    b2 = pickle.loads(pickle.dumps(b))
    assert b2.get_predefined_options() is PredefinedOptions.SPINNING_DISK_OPTIMIZED
    assert b2.is_incremental_checkpoints_enabled()
    assert pickle.loads(pickle.dumps(RocksDBStateBackend("file:///x"))).get_checkpoint_backend() \
        .get_checkpoint_path() == "file:/x"


# -- checkpoint storage ---------------------------------------------------------------------------

def test_job_manager_checkpoint_storage():
    s = JobManagerCheckpointStorage()
    assert s.get_checkpoint_path() is None
    assert s.get_max_state_size() == 5242880
    assert s.get_savepoint_path() is None
    assert str(s) == ("JobManagerCheckpointStorage (checkpoints to JobManager) "
                      "( maxStateSize: 5242880)")
    s2 = JobManagerCheckpointStorage("file:///tmp/cp", 1000)
    assert s2.get_checkpoint_path() == "file:/tmp/cp"
    assert s2.get_max_state_size() == 1000
    with pytest.raises(ValueError, match="maxStateSize must be > 0"):
        JobManagerCheckpointStorage(max_state_size=0)
    with pytest.raises(ValueError, match="The scheme"):
        JobManagerCheckpointStorage("/tmp/noscheme")


def test_file_system_checkpoint_storage():
    with pytest.raises(ValueError, match="checkpoint_path must not be None"):
        FileSystemCheckpointStorage()
    s = FileSystemCheckpointStorage("file:///tmp/cp")
    assert s.get_checkpoint_path() == "file:/tmp/cp"
    assert s.get_min_file_size_threshold() == 20480
    assert s.get_write_buffer_size() == 4096
    assert s.get_savepoint_path() is None
    s2 = FileSystemCheckpointStorage("s3://bucket/cp/", 100, 10)
    assert s2.get_checkpoint_path() == "s3://bucket/cp"
    assert s2.get_min_file_size_threshold() == 100
    assert s2.get_write_buffer_size() == 10
    assert FileSystemCheckpointStorage("file:///tmp/cp", -1).get_min_file_size_threshold() \
        == 20480
    with pytest.raises(ValueError, match=r"\[-1, 1048576\]"):
        FileSystemCheckpointStorage("file:///tmp/cp", 10 * 1024 * 1024)
    with pytest.raises(ValueError, match="The scheme"):
        FileSystemCheckpointStorage("/tmp/cp")
    assert FileSystemCheckpointStorage.MAX_FILE_STATE_THRESHOLD == 1024 * 1024


# -- checkpoint config ------------------------------------------------------------------------

def test_checkpoint_config_defaults():
    c = CheckpointConfig()
    assert c.is_checkpointing_enabled() is False
    assert c.get_checkpoint_interval() == -1
    assert c.get_checkpointing_mode() is CheckpointingMode.EXACTLY_ONCE
    assert c.get_checkpoint_timeout() == 600000 == CheckpointConfig.DEFAULT_TIMEOUT
    assert c.get_min_pause_between_checkpoints() == 0
    assert c.get_max_concurrent_checkpoints() == 1
    assert c.get_tolerable_checkpoint_failure_number() == 0
    assert c.is_fail_on_checkpointing_errors() is True
    assert c.get_externalized_checkpoint_cleanup() is \
        ExternalizedCheckpointCleanup.NO_EXTERNALIZED_CHECKPOINTS
    assert c.get_externalized_checkpoint_retention() is \
        ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS
    assert c.is_externalized_checkpoints_enabled() is False
    assert c.is_unaligned_checkpoints_enabled() is False
    assert c.is_force_unaligned_checkpoints() is False
    assert _millis(c.get_alignment_timeout()) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert c.get_checkpoint_storage() is None
    assert CheckpointConfig.DEFAULT_MODE is CheckpointingMode.EXACTLY_ONCE


def test_checkpoint_config_setters_chain_and_record():
    c = CheckpointConfig()
    assert c.set_checkpoint_interval(1000) is c
    assert c.is_checkpointing_enabled() and c.get_checkpoint_interval() == 1000
    assert c.set_checkpointing_mode(CheckpointingMode.AT_LEAST_ONCE) is c
    assert c.get_checkpointing_mode() is CheckpointingMode.AT_LEAST_ONCE
    assert c.set_checkpoint_timeout(5000).get_checkpoint_timeout() == 5000
    assert c.set_min_pause_between_checkpoints(300).get_min_pause_between_checkpoints() == 300
    assert c.set_max_concurrent_checkpoints(3).get_max_concurrent_checkpoints() == 3
    assert c.set_tolerable_checkpoint_failure_number(4) is c
    assert c.get_tolerable_checkpoint_failure_number() == 4
    assert c.enable_unaligned_checkpoints() is c and c.is_unaligned_checkpoints_enabled()
    assert c.disable_unaligned_checkpoints() is c and not c.is_unaligned_checkpoints_enabled()
    assert c.enable_unaligned_checkpoints(False) is c
    assert c.set_force_unaligned_checkpoints() is c and c.is_force_unaligned_checkpoints()
    assert c.set_alignment_timeout(Duration.of_seconds(3)) is c
    assert _millis(c.get_alignment_timeout()) == 3000
    d = c._to_dict()
    assert d["interval"] == 1000 and d["mode"] == "AT_LEAST_ONCE" and d["enabled"]
    assert "interval=1000" in repr(c)


def test_checkpoint_config_fail_on_errors_maps_to_tolerable_failures():
    c = CheckpointConfig()
    c.set_fail_on_checkpointing_errors(False)
    assert c.is_fail_on_checkpointing_errors() is False
    assert c.get_tolerable_checkpoint_failure_number() == 2 ** 31 - 1
    c.set_fail_on_checkpointing_errors(True)
    assert c.get_tolerable_checkpoint_failure_number() == 0


def test_checkpoint_config_externalized():
    c = CheckpointConfig()
    assert c.enable_externalized_checkpoints(
        ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION) is c
    assert c.get_externalized_checkpoint_cleanup() is \
        ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION
    assert c.get_externalized_checkpoint_retention() is \
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION
    assert c.is_externalized_checkpoints_enabled()
    c.set_externalized_checkpoint_cleanup(ExternalizedCheckpointCleanup.NO_EXTERNALIZED_CHECKPOINTS)
    assert not c.is_externalized_checkpoints_enabled()
    assert c.set_externalized_checkpoint_retention(
        ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION) is c
    assert c.get_externalized_checkpoint_cleanup() is \
        ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION
    assert c.is_externalized_checkpoints_enabled()
    with pytest.raises(TypeError):
        c.set_externalized_checkpoint_retention("RETAIN")


def test_checkpoint_config_storage_deprecated_methods():
    c = CheckpointConfig()
    with pytest.warns(DeprecationWarning):
        assert c.set_checkpoint_storage_dir("file:///tmp/ckp/") is c
    with pytest.warns(DeprecationWarning):
        s = c.get_checkpoint_storage()
    assert isinstance(s, FileSystemCheckpointStorage)
    assert s.get_checkpoint_path() == "file:/tmp/ckp"
    jm = JobManagerCheckpointStorage()
    with pytest.warns(DeprecationWarning):
        c.set_checkpoint_storage(jm)
    with pytest.warns(DeprecationWarning):
        assert c.get_checkpoint_storage() is jm
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="The scheme"):
        c.set_checkpoint_storage_dir("/tmp/x")
    assert c._to_dict()["storage"] == "JobManagerCheckpointStorage"


@pytest.mark.parametrize("call,message", [
    (lambda c: c.set_checkpoint_interval(5),
     "Checkpoint interval must be larger than or equal to 10 ms"),
    (lambda c: c.set_checkpoint_interval(-1),
     "Checkpoint interval must be larger than or equal to 10 ms"),
    (lambda c: c.set_checkpoint_timeout(0),
     "Checkpoint timeout must be larger than or equal to 10 ms"),
    (lambda c: c.set_min_pause_between_checkpoints(-1), "Pause value must be zero or positive"),
    (lambda c: c.set_max_concurrent_checkpoints(0),
     "The maximum number of concurrent attempts must be at least one."),
    (lambda c: c.set_tolerable_checkpoint_failure_number(-1),
     "The tolerable failure checkpoint number must be non-negative."),
])
def test_checkpoint_config_argument_checks(call, message):
    c = CheckpointConfig()
    with pytest.raises(ValueError) as e:
        call(c)
    assert str(e.value) == message
    assert c.get_checkpoint_interval() == -1


def test_checkpoint_config_copy():
    c = CheckpointConfig().set_checkpoint_interval(50)
    c2 = CheckpointConfig(c)
    assert c2.get_checkpoint_interval() == 50
    c2.set_checkpoint_interval(60)
    assert c.get_checkpoint_interval() == 50


def test_environment_uses_checkpoint_config():
    from pyflink_on_spark.datastream import StreamExecutionEnvironment
    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(1000, CheckpointingMode.AT_LEAST_ONCE)
    c = env.get_checkpoint_config()
    assert isinstance(c, CheckpointConfig)
    assert c.get_checkpoint_interval() == 1000
    assert c.get_checkpointing_mode() is CheckpointingMode.AT_LEAST_ONCE
    env.set_state_backend(EmbeddedRocksDBStateBackend())
    assert isinstance(env.get_state_backend(), EmbeddedRocksDBStateBackend)


def test_descriptors_and_ttl_config_pickle():
    import pickle
    d = ListStateDescriptor("l", Types.STRING())
    d.enable_time_to_live(StateTtlConfig.new_builder(Time.seconds(3))
                          .update_ttl_on_read_and_write().cleanup_incrementally(7, True).build())
    d2 = pickle.loads(pickle.dumps(d))
    assert d2.get_name() == "l" and d2.type_info == d.type_info
    cfg = d2._ttl_config
    assert cfg.get_update_type() is StateTtlConfig.UpdateType.OnReadAndWrite
    assert cfg.get_ttl() == Time.seconds(3)
    assert cfg.get_cleanup_strategies().get_incremental_cleanup_strategy().get_cleanup_size() == 7
