"""set_python_executable: the job's Python functions run in the interpreter it names (here a
wrapper script around the client's own interpreter that marks its environment)."""
import os
import shutil
import stat
import sys
import tempfile

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

wrapper_dir = tempfile.mkdtemp(prefix="compat-python-")
wrapper = os.path.join(wrapper_dir, "marked-python")
with open(wrapper, "w") as f:
    f.write("#!/bin/sh\nexport MARKED_PYTHON=yes\nexec '%s' \"$@\"\n" % sys.executable)
os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IEXEC)

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_python_executable(wrapper)
env.from_collection(["x"], Types.STRING()) \
    .map(lambda v: v + " ran in the marked python: " + os.environ.get("MARKED_PYTHON", "no"),
         Types.STRING()) \
    .print()
env.execute("python executable")
shutil.rmtree(wrapper_dir)
