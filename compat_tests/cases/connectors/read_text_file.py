"""env.read_text_file: a file's lines as strings, with a charset; Java's line terminators
(\\n, \\r, \\r\\n), a last line without terminator and empty lines are kept."""
import os
import tempfile

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

root = tempfile.mkdtemp()
path = os.path.join(root, "lines.txt")
with open(path, "wb") as f:
    f.write(b"first\r\nsecond\rthird\n\nlast without newline")
latin = os.path.join(root, "latin1.txt")
with open(latin, "wb") as f:
    f.write("caf\u00e9\n\u00fcber\n".encode("latin-1"))

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ds = env.read_text_file(path)
print("type:", ds.get_type(), flush=True)
ds.map(lambda s: "[%s] %d" % (s, len(s)), output_type=Types.STRING()).print()
env.execute("read_text_file")

env.read_text_file(latin, "ISO-8859-1").print()
env.execute("charset")

print("-- parallelism 2, sorted", flush=True)
env.set_parallelism(2)
print(sorted(env.read_text_file(path).execute_and_collect()))
