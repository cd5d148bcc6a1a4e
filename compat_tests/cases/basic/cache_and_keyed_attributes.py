"""DataStream.cache() gives a CachedDataStream later jobs can reuse (also after invalidate());
KeyedStream and CachedDataStream refuse operator attributes as PyFlink does."""
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
cached = env.from_collection([1, 2, 3], Types.INT()).map(lambda x: x * 10, Types.INT()).cache()
print(type(cached).__name__, flush=True)
cached.print()
env.execute("first")
cached.map(lambda x: x + 1, Types.INT()).print()
env.execute("second")
cached.invalidate()
cached.map(lambda x: x + 2, Types.INT()).print()
env.execute("third")


def attempt(label, fn):
    try:
        fn()
        print(label, "accepted")
    except Exception as e:
        print(label, "raises:", e)


keyed = env.from_collection([1, 2], Types.INT()).key_by(lambda x: x)
attempt("KeyedStream.name", lambda: keyed.name("k"))
attempt("KeyedStream.uid", lambda: keyed.uid("u"))
attempt("KeyedStream.set_uid_hash", lambda: keyed.set_uid_hash("h"))
attempt("KeyedStream.get_name", lambda: keyed.get_name())
attempt("KeyedStream.cache", lambda: keyed.cache())
attempt("CachedDataStream.set_parallelism", lambda: cached.set_parallelism(2))
attempt("CachedDataStream.name", lambda: cached.name("n"))
attempt("CachedDataStream.uid", lambda: cached.uid("u"))
attempt("CachedDataStream.disable_chaining", lambda: cached.disable_chaining())
