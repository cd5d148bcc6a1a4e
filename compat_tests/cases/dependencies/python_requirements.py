"""set_python_requirements with a cache directory (offline install): the workers install the
requirement from the cache and the job's functions import it. The cache holds a small wheel
written here, so the case needs no network."""
import os
import shutil
import tempfile
import zipfile

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

work = tempfile.mkdtemp(prefix="compat-requirements-")
cache = os.path.join(work, "cache")
os.makedirs(cache)
files = {
    "compat_tinydep/__init__.py": "def tag(s):\n    return '<' + s + '>'\n",
    "compat_tinydep-1.0.dist-info/METADATA":
        "Metadata-Version: 2.1\nName: compat-tinydep\nVersion: 1.0\n",
    "compat_tinydep-1.0.dist-info/WHEEL":
        "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
record = "".join("%s,,\n" % name for name in files) + "compat_tinydep-1.0.dist-info/RECORD,,\n"
with zipfile.ZipFile(os.path.join(cache, "compat_tinydep-1.0-py3-none-any.whl"), "w") as z:
    for name, text in files.items():
        z.writestr(name, text)
    z.writestr("compat_tinydep-1.0.dist-info/RECORD", record)
requirements = os.path.join(work, "requirements.txt")
with open(requirements, "w") as f:
    f.write("compat-tinydep==1.0\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.set_python_requirements(requirements, cache)


def tagged(value):
    import compat_tinydep
    return compat_tinydep.tag(value)


env.from_collection(["a", "b"], Types.STRING()).map(tagged, Types.STRING()).print()
env.execute("python requirements")
shutil.rmtree(work)
