"""FileSource with StreamFormat.text_line_format at parallelism 2 over a directory: files are
read recursively, hidden files ('.', '_') skipped, and each file's lines arrive in file order
(which subtask reads which file varies per run in Flink: the collected order is grouped per
file, and the subtask count is printed instead of the subtask)."""
import os
import tempfile

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import MapFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

root = tempfile.mkdtemp()
os.makedirs(os.path.join(root, "in", "sub"))
os.makedirs(os.path.join(root, "in", "_skipped_dir"))
for i in range(4):
    with open(os.path.join(root, "in", "part%d.txt" % i), "w") as f:
        f.write("".join("p%d line %d\n" % (i, j) for j in range(5)))
with open(os.path.join(root, "in", "sub", "nested.txt"), "w") as f:
    f.write("nested 0\nnested 1")
with open(os.path.join(root, "in", ".hidden.txt"), "w") as f:
    f.write("hidden\n")
with open(os.path.join(root, "in", "_underscore.txt"), "w") as f:
    f.write("underscore\n")
with open(os.path.join(root, "in", "_skipped_dir", "x.txt"), "w") as f:
    f.write("in a skipped directory\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                             os.path.join(root, "in")).build()
lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "text files")


class WithSubtask(MapFunction):
    def open(self, ctx):
        self.subtask = ctx.get_index_of_this_subtask()
        self.parallelism = ctx.get_number_of_parallel_subtasks()

    def map(self, line):
        return "%s|%d|%d" % (line, self.subtask, self.parallelism)


collected = list(lines.map(WithSubtask(), output_type=Types.STRING()).execute_and_collect())
by_file = {}
subtasks_of = {}
for item in collected:
    line, subtask, parallelism = item.split("|")
    name = line.split(" ")[0]
    by_file.setdefault(name, []).append(line)
    subtasks_of.setdefault(name, set()).add(subtask)
for name in sorted(by_file):
    print(name, by_file[name], "read by", len(subtasks_of[name]), "subtask")
print("records:", len(collected), "parallelism:", collected[0].split("|")[2])
print("type:", lines.get_type())
