"""An exception raised by a user function makes execute() raise; the error names the cause."""
import traceback

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)


def explode(x):
    return 10 // (x - 1)


env.from_collection([1, 2, 3], type_info=Types.INT()).map(explode, output_type=Types.INT()).print()
try:
    env.execute("failing job")
    print("no error")
except Exception as e:
    text = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    print("job failed")
    print("mentions ZeroDivisionError:", "ZeroDivisionError" in text)
    print("mentions user function:", "explode" in text)


class Boom(Exception):
    pass


def bad_key(x):
    raise Boom("no key for %d" % x)


env.from_collection([1], type_info=Types.INT()).key_by(bad_key).sum().print()
try:
    env.execute("failing key selector")
except Exception as e:
    text = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    print("key selector failed, mentions message:", "no key for 1" in text)
