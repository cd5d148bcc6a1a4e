"""KeyedStream.execute_and_collect() at a default parallelism of 2: PyFlink turns the records
into Row(key, value) in its key-by operator, which runs at its input's parallelism (1 behind
a collection source) before the keyed exchange, so the single collect subtask receives them
in input order, whatever subtask their key belongs to."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
words = env.from_collection(["pyflink", "datastream", "pyflink", "collect", "spark", "key"],
                            Types.STRING())
with words.key_by(lambda w: w, Types.STRING()).execute_and_collect() as results:
    print([row[1] for row in results])

numbers = env.from_collection([5, 3, 8, 1, 9, 2, 7], Types.INT()) \
    .map(lambda x: x * 10, Types.INT()).set_parallelism(1)
print([row[1] for row in numbers.key_by(lambda x: x % 3).execute_and_collect()])
