"""StreamExecutionEnvironment (mirror of pyflink.datastream.stream_execution_environment).

Collects the job's graph and settings; execute() hands the sink nodes and the settings to the
executor's entry point (spark/entry.py), which compiles and runs them.
Settings with no meaning on Spark are accepted and recorded; those that cannot be honoured
raise NotImplementedError saying why.
"""
from __future__ import annotations

import os
from typing import Any, List, Optional

from pyflink_on_spark.common._collection_values import collection_element, python_input_error
from pyflink_on_spark.datastream._configuration_keys import apply_configuration, parse_millis
from pyflink_on_spark.datastream._job_files import check_uploads, check_urls
from pyflink_on_spark.datastream._unsunk_operators import OPERATOR_NODES, discard_sinks
from pyflink_on_spark.datastream.data_stream import DataStream
from pyflink_on_spark.datastream.execution_mode import RuntimeExecutionMode
from pyflink_on_spark.datastream.time_characteristic import TimeCharacteristic
from pyflink_on_spark.graph.sources import collection_source
from pyflink_on_spark.graph.transformations import SinkTransformation, SourceTransformation

__all__ = ["StreamExecutionEnvironment"]


def _no_jvm(api: str, why: str = "there is no Flink JVM in pyflink_on_spark"):
    raise NotImplementedError("%s is not supported: %s." % (api, why))


def _default_parallelism() -> int:
    # A local PyFlink mini-cluster uses one slot per CPU core; Spark's local[*] likewise.
    return max(os.cpu_count() or 1, 1)


class StreamExecutionEnvironment(object):
    """The context a streaming program runs in."""

    def __init__(self, j_stream_execution_environment=None, serializer=None):
        if j_stream_execution_environment is not None:
            _no_jvm("StreamExecutionEnvironment(j_stream_execution_environment)")
        from pyflink_on_spark.common.configuration import Configuration
        from pyflink_on_spark.common.execution_config import ExecutionConfig
        from pyflink_on_spark.datastream.checkpoint_config import CheckpointConfig
        from pyflink_on_spark.datastream.launch_configuration import launch_configuration
        self._configuration = Configuration()
        for key, value in launch_configuration().items():   # `run --from-savepoint ...`
            self._configuration.set_string(key, value)
        self._config = ExecutionConfig()
        self._checkpoint_config = CheckpointConfig()
        self._parallelism: Optional[int] = None
        self._max_parallelism: int = -1
        self._default_local_parallelism = _default_parallelism()
        self._runtime_mode = RuntimeExecutionMode.STREAMING
        self._chaining = True
        self._buffer_timeout = 100
        self._state_backend = None
        self._checkpoint_interval = -1
        self._checkpointing_mode = None
        self._restart_strategy = None
        self._time_characteristic = TimeCharacteristic.EventTime
        self._changelog: Optional[bool] = None
        self._savepoint_dir: Optional[str] = None
        self._sinks: List[SinkTransformation] = []
        # operator nodes by id, in creation order (PyFlink's env.transformations)
        self._operators: dict = {}
        self._python_files: List[str] = []
        self._jars: List[str] = []
        self._classpaths: List[str] = []
        self._slot_sharing_groups = {}
        self._cached_files = []
        self._python_executable: Optional[str] = None
        self._python_requirements = None
        self._python_archives = []
        self._registered_types = []

    @staticmethod
    def get_execution_environment(configuration=None) -> "StreamExecutionEnvironment":
        env = StreamExecutionEnvironment()
        if configuration is not None:
            env.configure(configuration)
        return env

    @property
    def _j_stream_execution_environment(self):
        """Programs pass this to pyflink.util.java_utils.get_j_env_configuration to set
        configuration keys; it gives access to this environment's configuration only."""
        from pyflink_on_spark.util.java_env import JavaEnvironmentHandle
        return JavaEnvironmentHandle(self)

    # -- configuration ------------------------------------------------------------------------
    def get_config(self):
        return self._config

    def configure(self, configuration):
        """Applies the configuration keys PyFlink's environment reads (see
        _configuration_keys.py); a key without effect here is reported once on stderr."""
        items = configuration.to_dict()
        for key, value in items.items():
            self._configuration.set_string(key, value)
        apply_configuration(self, items)

    def set_parallelism(self, parallelism: int) -> "StreamExecutionEnvironment":
        if not isinstance(parallelism, int) or parallelism < 1:
            raise ValueError("The parallelism must be at least one, got %r" % (parallelism,))
        self._parallelism = parallelism
        return self

    def get_parallelism(self) -> int:
        return self._parallelism if self._parallelism is not None \
            else self._default_local_parallelism

    def set_max_parallelism(self, max_parallelism: int) -> "StreamExecutionEnvironment":
        if not isinstance(max_parallelism, int) or not 0 < max_parallelism <= 32768:
            raise ValueError("maxParallelism is out of bounds 0 < maxParallelism <= 32768. "
                             "Found: %r" % (max_parallelism,))
        self._max_parallelism = max_parallelism
        return self

    def get_max_parallelism(self) -> int:
        return self._max_parallelism

    def set_default_local_parallelism(self, parallelism: int):
        self._default_local_parallelism = parallelism

    def get_default_local_parallelism(self) -> int:
        return self._default_local_parallelism

    def set_runtime_mode(self, execution_mode: RuntimeExecutionMode):
        if execution_mode == RuntimeExecutionMode.AUTOMATIC:
            execution_mode = RuntimeExecutionMode.BATCH  # every supported source is bounded
        self._runtime_mode = execution_mode
        return self

    def set_buffer_timeout(self, timeout_millis: int) -> "StreamExecutionEnvironment":
        self._buffer_timeout = timeout_millis
        return self

    def get_buffer_timeout(self) -> int:
        return self._buffer_timeout

    def disable_operator_chaining(self) -> "StreamExecutionEnvironment":
        self._chaining = False
        return self

    def is_chaining_enabled(self) -> bool:
        return self._chaining

    def is_chaining_of_operators_with_different_max_parallelism_enabled(self) -> bool:
        return True

    def get_checkpoint_config(self):
        return self._checkpoint_config

    def enable_checkpointing(self, interval: int, mode=None) -> "StreamExecutionEnvironment":
        self._checkpoint_interval = interval
        self._checkpoint_config.set_checkpoint_interval(interval)
        if mode is not None:
            self._checkpoint_config.set_checkpointing_mode(mode)
        return self

    def get_checkpoint_interval(self) -> int:
        return self._checkpoint_config.get_checkpoint_interval()

    def get_checkpointing_mode(self):
        return self._checkpoint_config.get_checkpointing_mode()

    def get_checkpointing_consistency_mode(self):
        return self._checkpoint_config.get_checkpointing_mode()

    def is_unaligned_checkpoints_enabled(self):
        return self._checkpoint_config.is_unaligned_checkpoints_enabled()

    def is_force_unaligned_checkpoints(self):
        return self._checkpoint_config.is_force_unaligned_checkpoints()

    def get_state_backend(self):
        return self._state_backend

    def set_state_backend(self, state_backend) -> "StreamExecutionEnvironment":
        from pyflink_on_spark.datastream.state_backend import CustomStateBackend
        if isinstance(state_backend, CustomStateBackend):
            _no_jvm("CustomStateBackend", "use HashMapStateBackend or "
                    "EmbeddedRocksDBStateBackend")
        self._state_backend = state_backend
        return self

    def enable_changelog_state_backend(self, enabled: bool) -> "StreamExecutionEnvironment":
        self._changelog = enabled
        return self

    def is_changelog_state_backend_enabled(self) -> Optional[bool]:
        return self._changelog

    def set_default_savepoint_directory(self, directory: str) -> "StreamExecutionEnvironment":
        self._savepoint_dir = directory
        return self

    def get_default_savepoint_directory(self) -> Optional[str]:
        return self._savepoint_dir

    def set_restart_strategy(self, restart_strategy_configuration):
        self._restart_strategy = restart_strategy_configuration

    def get_restart_strategy(self):
        if self._restart_strategy is None:
            from pyflink_on_spark.common.restart_strategy import RestartStrategies
            return RestartStrategies.fall_back_restart()
        return self._restart_strategy

    def add_default_kryo_serializer(self, type_class_name: str, serializer_class_name: str):
        self._registered_types.append(("kryo-default", type_class_name, serializer_class_name))

    def register_type_with_kryo_serializer(self, type_class_name: str,
                                           serializer_class_name: str):
        self._registered_types.append(("kryo", type_class_name, serializer_class_name))

    def register_type(self, type_class_name: str):
        self._registered_types.append(("type", type_class_name, None))

    def set_stream_time_characteristic(self, characteristic: TimeCharacteristic):
        self._time_characteristic = characteristic

    def get_stream_time_characteristic(self) -> TimeCharacteristic:
        return self._time_characteristic

    def register_slot_sharing_group(self, slot_sharing_group) -> "StreamExecutionEnvironment":
        self._slot_sharing_groups[slot_sharing_group.get_name()] = slot_sharing_group
        return self

    # -- Python dependencies: recorded here; the executor ships them to the Spark workers ---------
    # (spark/python_dependencies.py: SparkContext.addPyFile, addArchive with the target
    # directory as alias, a pip install on each worker, the workers' interpreter)
    def add_python_file(self, file_path: str):
        """A .py file, a zip / egg / wheel, or a directory; on the workers' sys.path."""
        self._python_files.append(file_path)

    def set_python_requirements(self, requirements_file_path: str,
                                requirements_cache_dir: str = None):
        """Installed with pip into each worker's environment before the job's tasks run
        (offline from `requirements_cache_dir` when given)."""
        self._python_requirements = (requirements_file_path, requirements_cache_dir)

    def add_python_archive(self, archive_path: str, target_dir: str = None):
        """A zip extracted into `target_dir` (default: the archive's file name) under the
        working directory of the job's tasks."""
        self._python_archives.append((archive_path, target_dir))

    def set_python_executable(self, python_exec: str):
        """The interpreter the Spark workers run (it needs pyspark and pyflink_on_spark, as
        PyFlink's needs apache-flink)."""
        self._python_executable = python_exec

    def _python_dependencies(self):
        from pyflink_on_spark.specs.stage import PythonDependencies
        return PythonDependencies(tuple(self._python_files), tuple(self._python_archives),
                                  self._python_requirements, self._python_executable)

    def add_jars(self, *jars_path: str):
        check_urls(jars_path)
        self._jars.extend(jars_path)

    def add_classpaths(self, *classpaths: str):
        check_urls(classpaths)
        self._classpaths.extend(classpaths)

    def register_cached_file(self, file_path: str, name: str, executable: bool = False):
        self._cached_files.append((file_path, name, executable))

    # -- sources --------------------------------------------------------------------------------
    def from_collection(self, collection: List[Any], type_info=None) -> DataStream:
        values = list(collection)
        refused = None
        if type_info is not None and hasattr(type_info, "_from_python"):
            values = [collection_element(type_info, v) for v in values]
            refused = python_input_error(type_info, values)
        node = SourceTransformation(name="Source: Collection Source", output_type=type_info,
                                    source=collection_source(values, refused))
        node.parallelism = 1
        node.parallelism_fixed = True
        return DataStream(_env=self, _transformation=node)

    def from_source(self, source, watermark_strategy, source_name: str,
                    type_info=None) -> DataStream:
        if type_info is None and getattr(source, "_declares_no_type", False):
            # Flink's words (seen on PyFlink 1.20.5, which raises them at the stream's first
            # use: map, print...; here at once)
            raise TypeError(
                "The return type of function '%s' could not be determined automatically, due "
                "to type erasure. You can give type information hints by using the "
                "returns(...) method on the result of the transformation call, or by letting "
                "your function implement the 'ResultTypeQueryable' interface. (%s does not "
                "declare its type: pass type_info to from_source.)"
                % (source_name, type(source).__name__))
        in_sequence = getattr(source, "_bounded_sources", None)
        if in_sequence is not None:
            # HybridSource of bounded sources: a union's consumer takes its inputs in order,
            # so each subtask sees every record of one source before the next source's
            streams = [self.from_source(s, watermark_strategy, source_name, type_info)
                       for s in in_sequence()]
            return streams[0].union(*streams[1:]) if len(streams) > 1 else streams[0]
        definition = getattr(source, "_source_definition", None)
        if definition is None:
            _no_jvm("from_source(%s)" % type(source).__name__,
                    "supported sources: FileSource, KafkaSource (bounded), "
                    "NumberSequenceSource")
        node = SourceTransformation(name="Source: %s" % source_name,
                                    output_type=type_info if type_info is not None
                                    else getattr(source, "_produced_type", None),
                                    source=definition(), watermark_strategy=watermark_strategy)
        return DataStream(_env=self, _transformation=node)

    def add_source(self, source_func, source_name: str = "Custom Source",
                   type_info=None) -> DataStream:
        if getattr(source_func, "_source_definition", None) is None:
            _no_jvm("add_source (Java SourceFunction %s)" % type(source_func).__name__,
                    "use from_collection(), from_source(FileSource / KafkaSource / "
                    "NumberSequenceSource, ...) or read_text_file()")
        stream = self.from_source(source_func, None, source_name, type_info)
        if getattr(source_func, "_non_parallel", False):
            # not a ParallelSourceFunction (RMQSource): Flink runs it at parallelism 1
            stream._transformation.parallelism = 1
            stream._transformation.parallelism_fixed = True
        return stream

    def read_text_file(self, file_path: str, charset_name: str = "UTF-8") -> DataStream:
        """The file's (or directory's) lines, read by Spark's text reader; like Flink's
        FileInputFormat, a large file's blocks are read by different subtasks. Lines split as
        Flink's TextInputFormat does: at "\n" only."""
        import dataclasses
        from pyflink_on_spark.common.typeinfo import Types
        from pyflink_on_spark.datastream.connectors.file_system import FileSource, StreamFormat
        from pyflink_on_spark.codecs.formats.text import TextInputFormat
        source = FileSource.for_record_stream_format(
            StreamFormat(TextInputFormat(charset_name)), file_path).build()
        definition = dataclasses.replace(source._source_definition(), split_files=True)
        node = SourceTransformation(name="Source: Custom File Source",
                                    output_type=Types.STRING(), source=definition)
        return DataStream(_env=self, _transformation=node)

    def create_input(self, input_format, type_info=None):
        if getattr(input_format, "_source_definition", None) is None:
            _no_jvm("create_input (Java InputFormat %s)" % type(input_format).__name__,
                    "supported: AvroInputFormat; or FileSource with a reader format")
        if type_info is None and hasattr(input_format, "get_produced_type"):
            type_info = input_format.get_produced_type()
        node = SourceTransformation(name="Source: Custom Source", output_type=type_info,
                                    source=input_format._source_definition())
        return DataStream(_env=self, _transformation=node)

    # -- execution ------------------------------------------------------------------------------
    def _add_sink(self, sink: SinkTransformation) -> None:
        self._sinks.append(sink)

    def _record_operator(self, node) -> None:
        if isinstance(node, OPERATOR_NODES):
            self._operators.setdefault(node.id, node)

    def _job_sinks(self, sinks: List[SinkTransformation]) -> List[SinkTransformation]:
        """The job's sinks plus a discarding one per operator no sink consumes (PyFlink runs
        those operators too); the environment's pending operators are taken by the job."""
        operators, self._operators = list(self._operators.values()), {}
        return sinks + discard_sinks(operators, sinks)

    def _job_settings(self, job_name: Optional[str] = None):
        """What the executor needs besides the sink nodes (specs.stage.JobSettings)."""
        from pyflink_on_spark.specs.stage import JobConfig, JobSettings
        params = {}
        global_params = getattr(self._config, "get_global_job_parameters", None)
        if global_params is not None:
            params = dict(global_params() or {})
        config = JobConfig(runtime_mode=self._runtime_mode.name,
                           auto_watermark_interval=self._config.get_auto_watermark_interval(),
                           job_parameters=params, state_backend=self._state_backend,
                           job_name=job_name or "Flink Streaming Job")
        return JobSettings(config, self.get_parallelism(), self._max_parallelism,
                           self._chaining, self._checkpoint_settings(),
                           self._python_dependencies(), tuple(sorted(
                               (key, value) for key, value in
                               self._configuration.to_dict().items()
                               if key.startswith("metrics.reporter."))))

    def _checkpoint_settings(self):
        """Interval and storage directory, from CheckpointConfig or the configuration
        (execution.checkpointing.interval / .dir, state.checkpoints.dir)."""
        from pyflink_on_spark.specs.stage import CheckpointSettings
        config = self._checkpoint_config
        interval = config.get_checkpoint_interval()
        if interval is None or interval <= 0:
            text = self._configuration.get_string("execution.checkpointing.interval", None)
            interval = parse_millis("execution.checkpointing.interval", text) if text else -1
        storage = config._storage
        directory = storage.get_checkpoint_path() if storage is not None else None
        if not directory:
            directory = self._configuration.get_string("execution.checkpointing.dir", None) \
                or self._configuration.get_string("state.checkpoints.dir", None)
        retention = config.get_externalized_checkpoint_retention()
        timeout = config.get_checkpoint_timeout()
        savepoint_dir = self._savepoint_dir or (
            storage.get_savepoint_path() if storage is not None else None) or \
            self._config_value("execution.checkpointing.savepoint-dir", "state.savepoints.dir")
        allow = self._config_value("execution.state-recovery.ignore-unclaimed-state",
                                   "execution.savepoint.ignore-unclaimed-state")
        return CheckpointSettings(
            interval, directory or None, min_pause_ms=config.get_min_pause_between_checkpoints(),
            timeout_ms=None if timeout == config.DEFAULT_TIMEOUT else timeout,
            tolerable_failures=config._tolerable_failures,
            retention=retention.name if retention is not None else None,
            savepoint_dir=savepoint_dir or None,
            restore_path=self._config_value("execution.state-recovery.path",
                                            "execution.savepoint.path"),
            allow_non_restored=(allow or "").strip().lower() == "true",
            # the shim's own key (`run --savepoint-at-end DIR`): spark/streaming/backfill.py
            savepoint_at_end=self._config_value("pyflink-on-spark.backfill.savepoint-dir"))

    def _config_value(self, *keys: str) -> Optional[str]:
        """The first of ``keys`` (a key and its deprecated names) set in the configuration."""
        for key in keys:
            value = self._configuration.get_string(key, None)
            if value:
                return value
        return None

    def _compile(self, sinks, job_name: Optional[str] = None):
        return _executor().compile_job(sinks, self._job_settings(job_name))

    def execute(self, job_name: str = None):
        sinks, self._sinks = self._job_sinks(self._sinks), []
        check_uploads(self._jars, [entry[0] for entry in self._cached_files])
        return _executor().execute(sinks, self._job_settings(job_name))

    def execute_async(self, job_name: str = "Flink Streaming Job"):
        sinks, self._sinks = self._job_sinks(self._sinks), []
        check_uploads(self._jars, [entry[0] for entry in self._cached_files])
        return _executor().execute_async(sinks, self._job_settings(job_name))

    def _execute_collect(self, collect_sink: SinkTransformation, job_name: Optional[str]):
        from pyflink_on_spark.datastream.data_stream import CloseableIterator
        sinks, self._sinks = self._job_sinks(self._sinks + [collect_sink]), []
        values = _executor().execute_and_collect(sinks, collect_sink.id,
                                                 self._job_settings(job_name))
        return CloseableIterator(values, collect_sink.input_type)

    def get_execution_plan(self) -> str:
        return _executor().execution_plan(list(self._sinks), list(self._operators.values()),
                                          self._job_settings())

    def close(self):
        self._sinks = []
        self._operators = {}


def _executor():
    """The one way from the API to the engine: the executor's entry point, imported lazily
    (so that building a job never loads Spark)."""
    from pyflink_on_spark.spark import entry
    return entry
