"""Word count: an unmodified PyFlink DataStream program.

Run on Spark:      pyflink-on-spark run examples/word_count.py
Run on PyFlink:    python examples/word_count.py   (with apache-flink installed)
"""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment, RuntimeExecutionMode

TEXT = [
    "To be, or not to be,--that is the question:--",
    "Whether 'tis nobler in the mind to suffer",
    "The slings and arrows of outrageous fortune",
    "Or to take arms against a sea of troubles,",
    "And by opposing end them?--To die,--to sleep,--",
    "No more; and by a sleep to say we end",
]


def split(line):
    for word in line.lower().replace(",", " ").replace("-", " ").split():
        yield word.strip(";:?'.")


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    env.set_parallelism(1)
    (env.from_collection(TEXT, type_info=Types.STRING())
        .flat_map(split, output_type=Types.STRING())
        .map(lambda word: (word, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
        .key_by(lambda pair: pair[0])
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
        .print())
    env.execute("word_count")


if __name__ == "__main__":
    main()
