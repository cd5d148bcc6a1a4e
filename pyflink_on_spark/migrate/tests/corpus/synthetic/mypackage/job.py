# Follows the package's own imports: make_env() returns an environment, Upper is a
# MapFunction defined in helpers.
from mypackage import helpers
from .helpers import Upper, make_env

env = make_env()
env.add_classpaths("file:///opt/jars/flink-connector-jdbc-3.1.2-1.18.jar")
words = env.from_collection(["a", "b"])
words.map(Upper()).print()
helpers.make_env().set_max_parallelism(64)
env.execute("package job")
