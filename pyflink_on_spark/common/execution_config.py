"""pyflink.common.execution_config mirror: ExecutionConfig with every setting recorded.

The values and their validation follow Flink 1.20's ExecutionConfig; the engine reads them
through the getters (parallelism, max parallelism, auto watermark interval, object reuse,
global job parameters, ...). Kryo/POJO registrations are recorded by class name only, since
there are no Java classes to load.
"""
import warnings
from typing import Dict, List

from pyflink_on_spark.common.configuration import Configuration
from pyflink_on_spark.common.execution_mode import ExecutionMode
from pyflink_on_spark.common.input_dependency_constraint import InputDependencyConstraint
from pyflink_on_spark.common.restart_strategy import RestartStrategies, \
    RestartStrategyConfiguration
from pyflink_on_spark.common.utils import no_jvm

__all__ = ['ExecutionConfig']


class ExecutionConfig(object):
    """Settings of a program's execution: default parallelism, max parallelism, watermark
    interval, object reuse, restart strategy, registered types, global job parameters...

    PARALLELISM_DEFAULT (-1) means "use the environment's default"; PARALLELISM_UNKNOWN (-2)
    means "leave unchanged".
    """

    PARALLELISM_DEFAULT = -1
    PARALLELISM_UNKNOWN = -2

    def __init__(self, j_execution_config=None):
        if j_execution_config is not None:
            no_jvm("ExecutionConfig(j_execution_config)",
                   "it wraps a Java ExecutionConfig; use env.get_config()")
        # defaults of Flink 1.20 (auto watermark interval as set by the streaming environment)
        self._closure_cleaner = True
        self._auto_watermark_interval = 200
        self._latency_tracking_interval = 0
        self._parallelism = ExecutionConfig.PARALLELISM_DEFAULT
        self._max_parallelism = -1
        self._task_cancellation_interval = 30000
        self._task_cancellation_timeout = 180000
        self._restart_strategy = RestartStrategies.fall_back_restart()
        self._execution_mode = ExecutionMode.PIPELINED
        self._input_dependency_constraint = InputDependencyConstraint.ANY
        self._force_kryo = False
        self._generic_types_disabled = False
        self._auto_generated_uids = True
        self._force_avro = False
        self._object_reuse = False
        self._global_job_parameters = Configuration()
        self._kryo_serializers: Dict[str, str] = {}
        self._default_kryo_serializers: Dict[str, str] = {}
        self._kryo_types: List[str] = []
        self._pojo_types: List[str] = []
        self._auto_type_registration_disabled = False
        self._use_snapshot_compression = False

    # -- closure cleaner -----------------------------------------------------------------------

    def enable_closure_cleaner(self) -> 'ExecutionConfig':
        self._closure_cleaner = True
        return self

    def disable_closure_cleaner(self) -> 'ExecutionConfig':
        self._closure_cleaner = False
        return self

    def is_closure_cleaner_enabled(self) -> bool:
        return self._closure_cleaner

    # -- intervals -----------------------------------------------------------------------------

    def set_auto_watermark_interval(self, interval: int) -> 'ExecutionConfig':
        """Interval (ms) of periodic watermark emission; 0 disables periodic watermarks."""
        if interval < 0:
            raise ValueError("Auto watermark interval must not be negative.")
        self._auto_watermark_interval = interval
        return self

    def get_auto_watermark_interval(self) -> int:
        return self._auto_watermark_interval

    def set_latency_tracking_interval(self, interval: int) -> 'ExecutionConfig':
        self._latency_tracking_interval = interval
        return self

    def get_latency_tracking_interval(self) -> int:
        return self._latency_tracking_interval

    # -- parallelism ---------------------------------------------------------------------------

    def get_parallelism(self) -> int:
        return self._parallelism

    def set_parallelism(self, parallelism: int) -> 'ExecutionConfig':
        if parallelism != ExecutionConfig.PARALLELISM_UNKNOWN:
            if parallelism < 1 and parallelism != ExecutionConfig.PARALLELISM_DEFAULT:
                raise ValueError("Parallelism must be at least one, or "
                                 "ExecutionConfig.PARALLELISM_DEFAULT (use system default).")
            self._parallelism = parallelism
        return self

    def get_max_parallelism(self) -> int:
        return self._max_parallelism

    def set_max_parallelism(self, max_parallelism: int) -> 'ExecutionConfig':
        if max_parallelism <= 0:
            raise ValueError("The maximum parallelism must be greater than 0.")
        self._max_parallelism = max_parallelism
        return self

    # -- task cancellation ---------------------------------------------------------------------

    def get_task_cancellation_interval(self) -> int:
        return self._task_cancellation_interval

    def set_task_cancellation_interval(self, interval: int) -> 'ExecutionConfig':
        self._task_cancellation_interval = interval
        return self

    def get_task_cancellation_timeout(self) -> int:
        return self._task_cancellation_timeout

    def set_task_cancellation_timeout(self, timeout: int) -> 'ExecutionConfig':
        if timeout < 0:
            raise ValueError("Timeout needs to be >= 0.")
        self._task_cancellation_timeout = timeout
        return self

    # -- restart strategy, execution mode, input dependency constraint -------------------------

    def set_restart_strategy(
            self,
            restart_strategy_configuration: RestartStrategyConfiguration) -> 'ExecutionConfig':
        warnings.warn("Deprecated since version 1.19: This method is deprecated and will be "
                      "removed in future FLINK major version. Use "
                      "`stream_execution_environment.configure` method instead to set the "
                      "restart strategy.", DeprecationWarning)
        if not isinstance(restart_strategy_configuration, RestartStrategyConfiguration):
            raise TypeError("set_restart_strategy() expects a RestartStrategyConfiguration, "
                            "got %s" % type(restart_strategy_configuration).__name__)
        self._restart_strategy = restart_strategy_configuration
        return self

    def get_restart_strategy(self) -> RestartStrategyConfiguration:
        return self._restart_strategy

    def set_execution_mode(self, execution_mode: ExecutionMode) -> 'ExecutionConfig':
        if not isinstance(execution_mode, ExecutionMode):
            raise TypeError("set_execution_mode() expects an ExecutionMode, got %s"
                            % type(execution_mode).__name__)
        self._execution_mode = execution_mode
        return self

    def get_execution_mode(self) -> 'ExecutionMode':
        return self._execution_mode

    def set_default_input_dependency_constraint(
            self, input_dependency_constraint: InputDependencyConstraint) -> 'ExecutionConfig':
        warnings.warn("Deprecated in 1.13. InputDependencyConstraint is not used anywhere. "
                      "Therefore, the method call set_default_input_dependency_constraint is "
                      "obsolete.", DeprecationWarning)
        self._input_dependency_constraint = input_dependency_constraint
        return self

    def get_default_input_dependency_constraint(self) -> 'InputDependencyConstraint':
        warnings.warn("Deprecated in 1.13. InputDependencyConstraint is not used anywhere. "
                      "Therefore, the method call get_default_input_dependency_constraint is "
                      "obsolete.", DeprecationWarning)
        return self._input_dependency_constraint

    # -- serialization flags -------------------------------------------------------------------

    def enable_force_kryo(self) -> 'ExecutionConfig':
        self._force_kryo = True
        return self

    def disable_force_kryo(self) -> 'ExecutionConfig':
        self._force_kryo = False
        return self

    def is_force_kryo_enabled(self) -> bool:
        return self._force_kryo

    def enable_generic_types(self) -> 'ExecutionConfig':
        self._generic_types_disabled = False
        return self

    def disable_generic_types(self) -> 'ExecutionConfig':
        self._generic_types_disabled = True
        return self

    def has_generic_types_disabled(self) -> bool:
        return self._generic_types_disabled

    def enable_auto_generated_uids(self) -> 'ExecutionConfig':
        self._auto_generated_uids = True
        return self

    def disable_auto_generated_uids(self) -> 'ExecutionConfig':
        self._auto_generated_uids = False
        return self

    def has_auto_generated_uids_enabled(self) -> bool:
        return self._auto_generated_uids

    def enable_force_avro(self) -> 'ExecutionConfig':
        self._force_avro = True
        return self

    def disable_force_avro(self) -> 'ExecutionConfig':
        self._force_avro = False
        return self

    def is_force_avro_enabled(self) -> bool:
        return self._force_avro

    def enable_object_reuse(self) -> 'ExecutionConfig':
        self._object_reuse = True
        return self

    def disable_object_reuse(self) -> 'ExecutionConfig':
        self._object_reuse = False
        return self

    def is_object_reuse_enabled(self) -> bool:
        return self._object_reuse

    # -- global job parameters -----------------------------------------------------------------

    def get_global_job_parameters(self) -> Dict[str, str]:
        return self._global_job_parameters.to_dict()

    def set_global_job_parameters(self, global_job_parameters_dict: Dict) -> 'ExecutionConfig':
        """Replace the global job parameters; values are stored as str(value)."""
        parameters = Configuration()
        for key, value in global_job_parameters_dict.items():
            parameters.set_string(key, value if isinstance(value, str) else str(value))
        self._global_job_parameters = parameters
        return self

    # -- type registrations (recorded by Java class name) --------------------------------------

    def add_default_kryo_serializer(self, type_class_name: str,
                                    serializer_class_name: str) -> 'ExecutionConfig':
        self._default_kryo_serializers[type_class_name] = serializer_class_name
        return self

    def register_type_with_kryo_serializer(self, type_class_name: str,
                                           serializer_class_name: str) -> 'ExecutionConfig':
        self._kryo_serializers[type_class_name] = serializer_class_name
        return self

    def register_pojo_type(self, type_class_name: str) -> 'ExecutionConfig':
        if type_class_name not in self._pojo_types:
            self._pojo_types.append(type_class_name)
        return self

    def register_kryo_type(self, type_class_name: str) -> 'ExecutionConfig':
        if type_class_name not in self._kryo_types:
            self._kryo_types.append(type_class_name)
        return self

    def get_registered_types_with_kryo_serializer_classes(self) -> Dict[str, str]:
        return dict(self._kryo_serializers)

    def get_default_kryo_serializer_classes(self) -> Dict[str, str]:
        return dict(self._default_kryo_serializers)

    def get_registered_kryo_types(self) -> List[str]:
        return list(self._kryo_types)

    def get_registered_pojo_types(self) -> List[str]:
        return list(self._pojo_types)

    def is_auto_type_registration_disabled(self) -> bool:
        return self._auto_type_registration_disabled

    def disable_auto_type_registration(self) -> 'ExecutionConfig':
        self._auto_type_registration_disabled = True
        return self

    def is_use_snapshot_compression(self) -> bool:
        return self._use_snapshot_compression

    def set_use_snapshot_compression(self, use_snapshot_compression: bool) -> 'ExecutionConfig':
        self._use_snapshot_compression = use_snapshot_compression
        return self

    # -- identity ------------------------------------------------------------------------------

    def __eq__(self, other):
        # every recorded setting takes part, as in Java's ExecutionConfig.equals
        return isinstance(other, self.__class__) and vars(self) == vars(other)

    def __hash__(self):
        return hash((self._parallelism, self._max_parallelism, self._auto_watermark_interval))
