"""A function that cannot be serialized (it captures a lock) fails at the map()/key_by() call
that receives it, before execute(), with cloudpickle's TypeError; a function capturing a file
opened for reading is accepted (cloudpickle ships the file's content)."""
import os
import tempfile
import threading

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
lock = threading.Lock()
ds = env.from_collection([1, 2], type_info=Types.INT())


def with_lock(x):
    with lock:
        return x


for call, build in [("map", lambda: ds.map(with_lock, output_type=Types.INT())),
                    ("key_by", lambda: ds.key_by(lambda x: (lock, x)[1])),
                    ("filter", lambda: ds.filter(lambda x: lock.locked() or x > 0))]:
    try:
        build()
        print(call, "accepted")
    except TypeError as e:
        print(call, "raised TypeError:", str(e).startswith("cannot pickle '_thread.lock' object"))

path = os.path.join(tempfile.mkdtemp(), "words.txt")
with open(path, "w") as f:
    f.write("hello\n")
words = open(path)
ds.map(lambda x: "%d %s" % (x, words.name.endswith("words.txt")), output_type=Types.STRING()) \
    .print()
env.execute("file captured")
