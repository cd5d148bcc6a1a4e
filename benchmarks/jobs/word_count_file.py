"""Benchmark job (unmodified PyFlink program): word count over a text file read with
FileSource -> flat_map -> key_by -> sum, BATCH mode (one final count per word).
Prints one line: RESULT records=<words> keys=<distinct words> seconds=T checksum=<sum>.
argv: PATH [PARALLELISM]
"""
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

PATH = sys.argv[1]
PARALLELISM = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def split(line):
    return [(word, 1) for word in line.split()]


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(PARALLELISM)
    env.set_runtime_mode(RuntimeExecutionMode.BATCH)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), PATH).build()
    start = time.perf_counter()
    counts = list(
        env.from_source(source, WatermarkStrategy.no_watermarks(), "text")
        .flat_map(split, output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
        .key_by(lambda pair: pair[0], key_type=Types.STRING())
        .sum(1)
        .execute_and_collect())
    seconds = time.perf_counter() - start
    words = sum(count for _, count in counts)
    print("RESULT records=%d keys=%d seconds=%.3f checksum=%d" % (words, len(counts), seconds,
                                                                  words))


if __name__ == "__main__":
    main()
