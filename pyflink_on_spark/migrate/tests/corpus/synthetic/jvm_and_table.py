# py4j internals and the Table API.
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.java_gateway import get_gateway
from pyflink.table import StreamTableEnvironment
from pyflink.util.java_utils import get_j_env_configuration

env = StreamExecutionEnvironment.get_execution_environment()
gateway = get_gateway()
j_conf = get_j_env_configuration(env._j_stream_execution_environment)
j_type = Types.STRING().get_java_type_info()
t_env = StreamTableEnvironment.create(env)
