"""The configuration idiom of pyflink.util.java_utils: on PyFlink (checked with 1.20.5)
`get_j_env_configuration(env._j_stream_execution_environment)` is the environment's live
Configuration: keys set through it take effect (parallelism.default changed
env.get_parallelism()) and are listed with the environment's other keys."""
import pytest

from pyflink_on_spark.common import Configuration
from pyflink_on_spark.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink_on_spark.util import java_utils
from pyflink_on_spark.util.java_utils import get_j_env_configuration


def test_wrapped_environment_configuration_takes_effect():
    env = StreamExecutionEnvironment.get_execution_environment()
    config = Configuration(j_configuration=get_j_env_configuration(
        env._j_stream_execution_environment))
    config.set_integer("parallelism.default", 3)
    config.set_string("execution.runtime-mode", "BATCH")
    config.set_integer("python.fn-execution.bundle.size", 10)
    assert env.get_parallelism() == 3
    assert env._runtime_mode == RuntimeExecutionMode.BATCH
    assert config.get_integer("python.fn-execution.bundle.size", 0) == 10
    j_config = get_j_env_configuration(env._j_stream_execution_environment)
    assert j_config.getString("python.fn-execution.bundle.size", None) == "10"
    assert j_config.containsKey("parallelism.default")


def test_java_method_names_on_the_configuration():
    env = StreamExecutionEnvironment.get_execution_environment()
    j_config = env._j_stream_execution_environment.getConfiguration()
    j_config.setString("pipeline.auto-watermark-interval", "7 ms")
    assert env.get_config().get_auto_watermark_interval() == 7
    j_config.setInteger("parallelism.default", 2).setBoolean("some.flag", True)
    assert env.get_parallelism() == 2
    assert j_config.getBoolean("some.flag", False) is True
    assert j_config.toMap()["parallelism.default"] == "2"
    assert java_utils.get_field_value(env._j_stream_execution_environment,
                                      "configuration").getInteger("parallelism.default", 0) == 2
    assert java_utils.invoke_method(
        env._j_stream_execution_environment,
        "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment",
        "getConfiguration").getInteger("parallelism.default", 0) == 2
    with pytest.raises(NotImplementedError, match="setString/getString"):
        j_config.getValue("x")


def test_other_java_calls_say_what_to_call_instead():
    env = StreamExecutionEnvironment.get_execution_environment()
    with pytest.raises(NotImplementedError, match=r"env\.set_parallelism\(\.\.\.\) instead"):
        env._j_stream_execution_environment.setParallelism(2)
    with pytest.raises(NotImplementedError, match="spark.jars.packages"):
        java_utils.add_jars_to_context_class_loader(["file:///x.jar"])
    with pytest.raises(NotImplementedError, match="env.configure"):
        get_j_env_configuration(object())
    with pytest.raises(NotImplementedError, match="only an environment's configuration"):
        Configuration(j_configuration=object())


def test_jvm_modules_import_and_explain():
    from pyflink_on_spark import java_gateway, version
    from pyflink_on_spark.util.exceptions import JavaException, TableException
    assert version.__version__.startswith("1.20.")
    assert issubclass(TableException, JavaException) and str(TableException("t")) == "t"
    with pytest.raises(NotImplementedError, match="spark.jars.packages"):
        java_gateway.get_gateway()
