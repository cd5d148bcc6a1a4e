"""pyflink.java_gateway mirror: PyFlink's py4j gateway into Flink's JVM. pyflink_on_spark has
no such JVM, so what programs reach through it (usually jars or Java classes) raises an error
saying what to use instead."""


def _no_gateway(api: str):
    raise NotImplementedError(
        "pyflink.java_gateway.%s: pyflink_on_spark runs without Flink's JVM, so there is no py4j "
        "gateway. Flink jars are not needed: Spark's connectors come from Spark packages "
        "(pyflink-on-spark run --conf spark.jars.packages=GROUP:ARTIFACT:VERSION); "
        "configuration keys go in with "
        "env.configure(Configuration) or pyflink.util.java_utils.get_j_env_configuration("
        "env._j_stream_execution_environment)." % api)


def is_launch_gateway_disabled() -> bool:
    return True


def get_gateway():
    _no_gateway("get_gateway()")


def launch_gateway():
    _no_gateway("launch_gateway()")


def import_flink_view(gateway):
    _no_gateway("import_flink_view()")
