"""What the test servers' modules share (Kafka, Cassandra, Elasticsearch, PostgreSQL, MariaDB,
RabbitMQ, the Spark cluster): a free loopback port, a JDK tool, the end of a log, and jars
fetched from Maven Central into a cache directory once (a stamp file marks a complete
install, so an interrupted fetch is done again, never half used)."""
from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import socket
import subprocess
import tempfile
from typing import Callable, Iterator, Optional, Sequence

STAMP = "COMPLETE"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def file_lock(path: str) -> Iterator[None]:
    """Holds an exclusive lock on the file `path` (created if missing): a lock that test
    processes side by side (pytest-xdist workers, two runs on one machine) wait for."""
    with open(path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def apt_install(packages: Sequence[str]) -> None:
    """Installs Debian packages with apt-get (through `sudo -n` unless root), updating the
    package lists once if the first try fails. dpkg holds one lock for the whole machine:
    an install that another process runs (another pytest-xdist worker's) is waited for,
    up to 10 minutes, instead of failing."""
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    apt = sudo + ["apt-get", "-o", "DPkg::Lock::Timeout=600", "-q"]
    install = apt + ["install", "-y", "--no-install-recommends"] + list(packages)
    if subprocess.run(install, env=env, capture_output=True).returncode != 0:
        subprocess.run(apt + ["update"], env=env, check=True, capture_output=True)
        subprocess.run(install, env=env, check=True, capture_output=True)


def jdk_tool(name: str = "java") -> str:
    """`name` from JAVA_HOME/bin, else from PATH."""
    home = os.environ.get("JAVA_HOME")
    if home and os.path.exists(os.path.join(home, "bin", name)):
        return os.path.join(home, "bin", name)
    found = shutil.which(name)
    if found is None:
        raise RuntimeError("The test servers need '%s' (a JDK) on PATH or in JAVA_HOME" % name)
    return found


def log_tail(path: str, chars: int = 4000) -> str:
    try:
        with open(path, errors="replace") as f:
            return f.read()[-chars:]
    except OSError:
        return "(no log at %s)" % path


def install_from_maven(home: str, pom: str, artifact: str, server: str,
                       maven_args: Sequence[str] = (),
                       build: Optional[Callable[[str, str], None]] = None) -> str:
    """`home` holding libs/ (the jars `pom` depends on, fetched with Maven's
    copy-dependencies) and whatever `build(work, libs)` adds beside libs/ in the work
    directory; done once: `home`'s stamp file says a previous install completed. `artifact`
    and `server` name what is fetched and for what in the errors."""
    stamp = os.path.join(home, STAMP)
    if os.path.exists(stamp):
        return home
    mvn = shutil.which("mvn")
    if mvn is None:
        raise RuntimeError("The %s needs Maven ('mvn' on PATH) to fetch %s" % (server, artifact))
    os.makedirs(home, exist_ok=True)
    work = tempfile.mkdtemp(prefix="maven-install-", dir=home)
    try:
        with open(os.path.join(work, "pom.xml"), "w") as f:
            f.write(pom)
        staging = os.path.join(work, "libs")
        result = subprocess.run(
            [mvn, "-q", "-B", "dependency:copy-dependencies", *maven_args,
             "-DoutputDirectory=" + staging], cwd=work, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError("Fetching %s with Maven failed:\n%s"
                               % (artifact, (result.stdout + result.stderr)[-4000:]))
        if build is not None:
            build(work, staging)
        for name in os.listdir(work):
            if os.path.isdir(os.path.join(work, name)):
                shutil.rmtree(os.path.join(home, name), ignore_errors=True)
                os.replace(os.path.join(work, name), os.path.join(home, name))
        with open(stamp, "w") as f:
            f.write(artifact + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return home
