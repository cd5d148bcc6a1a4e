"""A job whose functions need files only add_python_file / add_python_archive ship: a module
file, a directory (its contents go on the workers' path), a zip of a package, and a zip
archive read by relative path from the worker's working directory, under its own name and
under a target directory. The dependencies are written to a temporary directory outside the
job's own, so nothing beside the script makes them importable."""
import os
import shutil
import tempfile
import zipfile

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

deps = tempfile.mkdtemp(prefix="compat-deps-")
with open(os.path.join(deps, "shouting.py"), "w") as f:
    f.write("def shout(s):\n    return s.upper() + '!'\n")
os.makedirs(os.path.join(deps, "helpers"))
with open(os.path.join(deps, "helpers", "doubling.py"), "w") as f:
    f.write("def double(s):\n    return s + s\n")
with zipfile.ZipFile(os.path.join(deps, "packaged.zip"), "w") as z:
    z.writestr("greeting/__init__.py", "PREFIX = 'hello '\n")
with zipfile.ZipFile(os.path.join(deps, "lookup.zip"), "w") as z:
    z.writestr("colours/a.txt", "red\n")
    z.writestr("b.txt", "blue\n")

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.add_python_file(os.path.join(deps, "shouting.py"))
env.add_python_file(os.path.join(deps, "helpers"))
env.add_python_file(os.path.join(deps, "packaged.zip"))
env.add_python_archive(os.path.join(deps, "lookup.zip"))
env.add_python_archive(os.path.join(deps, "lookup.zip"), "tables")


def use_dependencies(value):
    import doubling
    import greeting
    import shouting
    with open("tables/colours/a.txt") as f:
        colour = f.read().strip()
    with open("lookup.zip/b.txt") as f:
        other = f.read().strip()
    return " ".join([greeting.PREFIX + value, shouting.shout(value), doubling.double(value),
                     colour, other])


try:
    import shouting  # noqa: F401
    print("importable in the client")
except ImportError:
    print("not importable in the client")
env.from_collection(["a", "b"], Types.STRING()).map(use_dependencies, Types.STRING()).print()
env.execute("python dependencies")
shutil.rmtree(deps)
