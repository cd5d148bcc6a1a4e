"""pyflink.util.java_utils mirror (PyFlink 1.20). PyFlink's helpers reach into its JVM through
py4j; pyflink_on_spark has no JVM. What programs use them for most, setting configuration
(`get_j_env_configuration(env._j_stream_execution_environment)`), works on the environment's
configuration (see java_env.py); the rest raise NotImplementedError saying what to call.
"""
from __future__ import annotations

from typing import Any, List

from pyflink_on_spark.util.java_env import JavaConfigurationView, JavaEnvironmentHandle

_STREAM_ENV_CLASS = "org.apache.flink.streaming.api.environment.StreamExecutionEnvironment"


def _no_jvm(api: str, instead: str) -> NotImplementedError:
    return NotImplementedError(
        "pyflink.util.java_utils.%s needs Flink's JVM, which pyflink_on_spark does not have: %s"
        % (api, instead))


def _environment_handle(j_env: Any, api: str) -> JavaEnvironmentHandle:
    if not isinstance(j_env, JavaEnvironmentHandle):
        raise _no_jvm(api, "pass env._j_stream_execution_environment (a StreamExecutionEnvironment"
                           "'s), or set keys with env.configure(Configuration) / "
                           "StreamExecutionEnvironment.get_execution_environment(configuration)."
                      )
    return j_env


def get_j_env_configuration(j_env):
    """The environment's configuration: Configuration(j_configuration=...) wraps it, and keys
    set through it take effect as with env.configure(...)."""
    return _environment_handle(j_env, "get_j_env_configuration").getConfiguration()


def get_field_value(java_obj, field_name):
    if isinstance(java_obj, JavaEnvironmentHandle) and field_name == "configuration":
        return java_obj.getConfiguration()
    raise _no_jvm("get_field_value(%r)" % (field_name,),
                  "only get_field_value(env._j_stream_execution_environment, 'configuration') "
                  "is available.")


def invoke_method(obj, object_type, method_name, args=None, arg_types=None):
    if isinstance(obj, JavaEnvironmentHandle) and object_type == _STREAM_ENV_CLASS \
            and method_name == "getConfiguration" and not args:
        return obj.getConfiguration()
    raise _no_jvm("invoke_method(%s.%s)" % (object_type, method_name),
                  "only the environment's getConfiguration is available.")


def is_local_deployment(j_configuration):
    if not isinstance(j_configuration, JavaConfigurationView):
        raise _no_jvm("is_local_deployment", "pass get_j_env_configuration(...)'s result.")
    return j_configuration.getString("execution.target", None) in ("local", "minicluster")


def to_jarray(j_type, arr):
    raise _no_jvm("to_jarray", "Java arrays do not exist here; pass Python lists to the API.")


def to_j_flink_time(time_delta):
    raise _no_jvm("to_j_flink_time", "use pyflink.common.Time / Duration.")


def from_j_flink_time(j_flink_time):
    raise _no_jvm("from_j_flink_time", "use pyflink.common.Time / Duration.")


def load_java_class(class_name):
    raise _no_jvm("load_java_class(%r)" % (class_name,),
                  "Java classes cannot be loaded; use the Python API's classes.")


def is_instance_of(java_object, java_class):
    raise _no_jvm("is_instance_of", "there are no Java objects to test.")


def get_field(cls, field_name):
    raise _no_jvm("get_field(%r)" % (field_name,), "there are no Java classes to reflect on.")


def add_jars_to_context_class_loader(jar_urls: List[str]):
    raise _no_jvm("add_jars_to_context_class_loader",
                  "Flink jars are not needed on Spark: its connectors come from Spark packages "
                  "(pyflink-on-spark run --conf spark.jars.packages=GROUP:ARTIFACT:VERSION).")


def to_j_explain_detail_arr(p_extra_details):
    raise _no_jvm("to_j_explain_detail_arr", "the Table API is not supported.")


def create_url_class_loader(urls, parent_class_loader):
    raise _no_jvm("create_url_class_loader",
                  "Flink jars are not needed on Spark: its connectors come from Spark packages "
                  "(pyflink-on-spark run --conf spark.jars.packages=GROUP:ARTIFACT:VERSION).")
