# A package module that the job imports: its uses count for the job's verdict.
from pyflink.datastream import MapFunction, StreamExecutionEnvironment


def make_env():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    return env


class Upper(MapFunction):
    def map(self, value):
        return value.upper()
