"""A throwaway PostgreSQL server for the JDBC tests: Debian's `postgresql` package (installed
with apt-get when its binaries are missing), a fresh cluster in a temporary directory, trust
authentication, listening on loopback only on a free port, stopped and removed at the end.

Run as root (CI containers), the server runs as the `postgres` user the package creates:
PostgreSQL refuses to run as root."""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Optional

from pyflink_on_spark.tests.server_installs import installed_once
from pyflink_on_spark.tests.server_tools import apt_install, free_port

URL_ENV = "PYFLINK_ON_SPARK_TEST_POSTGRES_URL"   # the running server's JDBC URL


def _bin_dir() -> Optional[str]:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return os.path.dirname(found[-1]) if found else None


@installed_once("postgresql")
def ensure_installed() -> str:
    """The directory of initdb / pg_ctl, installing Debian's postgresql package if needed."""
    bin_dir = _bin_dir()
    if bin_dir is not None:
        return bin_dir
    apt_install(["postgresql"])
    bin_dir = _bin_dir()
    if bin_dir is None:
        raise RuntimeError("apt-get install postgresql left no /usr/lib/postgresql/*/bin/initdb")
    return bin_dir


@dataclass
class PostgresServer:
    bin_dir: str
    root: str
    port: int
    user: Optional[str]        # the OS user the server runs as (None: this process's)

    @property
    def data_dir(self) -> str:
        return os.path.join(self.root, "data")

    @property
    def url(self) -> str:
        return "jdbc:postgresql://127.0.0.1:%d/postgres?user=postgres" % self.port

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([os.path.join(self.bin_dir, args[0]), *args[1:]],
                              user=self.user, capture_output=True, text=True, cwd=self.root)

    def start(self) -> None:
        init = self._run("initdb", "-D", self.data_dir, "-U", "postgres", "--auth=trust",
                         "-E", "UTF8", "--no-locale", "--no-sync")
        if init.returncode != 0:
            raise RuntimeError("initdb failed:\n" + init.stdout + init.stderr)
        options = ("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off"
                   % (self.port, self.root))
        started = self._run("pg_ctl", "-D", self.data_dir, "-o", options, "-w", "-t", "60",
                            "-l", os.path.join(self.root, "server.log"), "start")
        if started.returncode != 0:
            log = os.path.join(self.root, "server.log")
            text = open(log).read() if os.path.exists(log) else ""
            raise RuntimeError("pg_ctl start failed:\n" + started.stdout + started.stderr + text)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", self.data_dir, "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def start_server() -> PostgresServer:
    bin_dir = ensure_installed()
    root = tempfile.mkdtemp(prefix="pyflink-on-spark-pg-")
    user = None
    if os.geteuid() == 0:
        user = "postgres"
        entry = pwd.getpwnam(user)
        os.chown(root, entry.pw_uid, entry.pw_gid)
        os.chmod(root, 0o700)
    server = PostgresServer(bin_dir, root, free_port(), user)
    try:
        server.start()
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return server
