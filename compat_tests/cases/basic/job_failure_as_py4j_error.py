"""A failed execute() raises py4j's Py4JJavaError on PyFlink (its Java client throws through
Py4J): programs and PyFlink's own tests catch it as such, and the message names the user's
error. PyFlink's Python workers see the interpreter they run as in $python ("python" unless
python.executable says otherwise)."""
import os

from py4j.protocol import Py4JJavaError
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment


def check(x):
    if x == 2:
        raise ValueError("no twos here")
    return x


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
# the job prints nothing (what reached a print sink before a failure is not deterministic)
env.from_collection([1, 2, 3]).map(check, output_type=Types.INT()) \
    .filter(lambda x: False).print()
try:
    env.execute("a job whose function raises")
    print("no error")
except Py4JJavaError as e:
    print("caught a Py4JJavaError:", "no twos here" in str(e))

env.from_collection([1]).map(lambda x: "worker $python: %s" % os.environ.get("python"),
                             output_type=Types.STRING()).print()
env.execute("the worker's environment")
