"""ExecutionConfig: defaults, validation and recorded values as in PyFlink 1.20 (observed on
``StreamExecutionEnvironment.get_execution_environment().get_config()``)."""
import warnings

import pytest

from pyflink_on_spark.common import ExecutionConfig, ExecutionMode, InputDependencyConstraint, \
    RestartStrategies


def test_defaults():
    config = ExecutionConfig()
    assert config.get_auto_watermark_interval() == 200
    assert config.get_latency_tracking_interval() == 0
    # the environment sets the parallelism; the config itself starts at PARALLELISM_DEFAULT
    assert config.get_parallelism() == ExecutionConfig.PARALLELISM_DEFAULT == -1
    assert ExecutionConfig.PARALLELISM_UNKNOWN == -2
    assert config.get_max_parallelism() == -1
    assert config.get_task_cancellation_interval() == 30000
    assert config.get_task_cancellation_timeout() == 180000
    assert isinstance(config.get_restart_strategy(),
                      RestartStrategies.FallbackRestartStrategyConfiguration)
    assert config.get_execution_mode() == ExecutionMode.PIPELINED
    with pytest.warns(DeprecationWarning):
        assert config.get_default_input_dependency_constraint() == InputDependencyConstraint.ANY
    assert (config.is_force_kryo_enabled(), config.has_generic_types_disabled(),
            config.has_auto_generated_uids_enabled(), config.is_force_avro_enabled(),
            config.is_object_reuse_enabled(), config.is_auto_type_registration_disabled(),
            config.is_use_snapshot_compression(), config.is_closure_cleaner_enabled()) == \
        (False, False, True, False, False, False, False, True)
    assert config.get_global_job_parameters() == {}
    assert config.get_registered_types_with_kryo_serializer_classes() == {}
    assert config.get_default_kryo_serializer_classes() == {}
    assert config.get_registered_kryo_types() == []
    assert config.get_registered_pojo_types() == []


def test_validation_messages():
    config = ExecutionConfig()
    for bad in (0, -5):
        with pytest.raises(ValueError, match="Parallelism must be at least one, or "
                                             r"ExecutionConfig.PARALLELISM_DEFAULT"):
            config.set_parallelism(bad)
    assert config.set_parallelism(-1).get_parallelism() == -1
    assert config.set_parallelism(3).set_parallelism(-2).get_parallelism() == 3
    with pytest.raises(ValueError, match="The maximum parallelism must be greater than 0."):
        config.set_max_parallelism(0)
    assert config.set_max_parallelism(40000).get_max_parallelism() == 40000
    with pytest.raises(ValueError, match="Auto watermark interval must not be negative."):
        config.set_auto_watermark_interval(-3)
    assert config.set_latency_tracking_interval(-3).get_latency_tracking_interval() == -3
    with pytest.raises(ValueError, match="Timeout needs to be >= 0."):
        config.set_task_cancellation_timeout(-1)


def test_setters_are_recorded_and_chain():
    config = ExecutionConfig()
    assert config.set_global_job_parameters({"a": 1, "b": "x", "c": True}) is config
    assert config.get_global_job_parameters() == {'a': '1', 'b': 'x', 'c': 'True'}
    with pytest.warns(DeprecationWarning, match="Deprecated since version 1.19"):
        config.set_restart_strategy(RestartStrategies.fixed_delay_restart(3, 1000))
    assert config.get_restart_strategy() == RestartStrategies.fixed_delay_restart(3, 1000)
    assert config.set_execution_mode(ExecutionMode.BATCH).get_execution_mode() == \
        ExecutionMode.BATCH
    assert config.register_kryo_type("java.lang.String").get_registered_kryo_types() == \
        ['java.lang.String']
    assert config.register_pojo_type("java.lang.Integer").get_registered_pojo_types() == \
        ['java.lang.Integer']
    config.register_type_with_kryo_serializer("com.a.T", "com.a.S")
    config.add_default_kryo_serializer("com.b.T", "com.b.S")
    assert config.get_registered_types_with_kryo_serializer_classes() == {"com.a.T": "com.a.S"}
    assert config.get_default_kryo_serializer_classes() == {"com.b.T": "com.b.S"}
    assert config.enable_object_reuse().is_object_reuse_enabled() is True
    assert config.disable_closure_cleaner().is_closure_cleaner_enabled() is False
    assert config.set_task_cancellation_interval(5).get_task_cancellation_interval() == 5
    assert config.disable_generic_types().has_generic_types_disabled() is True
    assert config.disable_auto_generated_uids().has_auto_generated_uids_enabled() is False
    assert config.enable_force_kryo().is_force_kryo_enabled() is True
    assert config.enable_force_avro().is_force_avro_enabled() is True
    assert config.disable_auto_type_registration().is_auto_type_registration_disabled()
    assert config.set_use_snapshot_compression(True).is_use_snapshot_compression()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        config.set_default_input_dependency_constraint(InputDependencyConstraint.ALL)
        assert config.get_default_input_dependency_constraint() == InputDependencyConstraint.ALL


def test_equality():
    assert ExecutionConfig() == ExecutionConfig()
    assert ExecutionConfig().set_parallelism(2) != ExecutionConfig()
    assert ExecutionConfig().set_global_job_parameters({"a": 1}) == \
        ExecutionConfig().set_global_job_parameters({"a": "1"})


def test_no_jvm_constructor():
    with pytest.raises(NotImplementedError, match="ExecutionConfig"):
        ExecutionConfig(object())
