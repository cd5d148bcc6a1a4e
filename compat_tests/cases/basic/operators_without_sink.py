"""execute() runs operators no sink consumes (their side effects happen), alongside a job's
sinks; a job without any operator still fails."""
import os
import tempfile

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

out = os.path.join(tempfile.mkdtemp(), "side_effects.txt")


def remember(x):
    with open(out, "a") as f:
        f.write("%d\n" % x)
    return x


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([1, 2, 3], Types.INT()).map(remember, Types.INT())
env.execute("map without sink")
print("side effects:", sorted(open(out).read().split()), flush=True)

os.remove(out)
source = env.from_collection([4, 5], Types.INT())
source.map(remember, Types.INT()).filter(lambda x: x > 4)
source.map(lambda x: x * 100, Types.INT()).print()
env.execute("one branch printed, one without sink")
print("side effects:", sorted(open(out).read().split()), flush=True)

try:
    env.from_collection([6], Types.INT())
    env.execute("source only")
    print("source only: ran")
except Exception as e:
    print("source only fails:", "No operators defined in streaming topology" in str(e))
