"""A throwaway MariaDB server for the JDBC tests: Debian's `mariadb-server` package (installed
with apt-get when its binaries are missing), a fresh data directory (mariadb-install-db) in a
temporary directory, listening on loopback only on a free port with a socket of its own,
stopped and removed at the end.

`root` connects over TCP without a password (mariadb-install-db's "normal" authentication for
root); the tests' database is `test`. Run as root (CI containers), mariadbd needs to be told
so (`--user=root`): it refuses to run as root otherwise."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import List, Optional

from pyflink_on_spark.tests.server_installs import installed_once
from pyflink_on_spark.tests.server_tools import apt_install, free_port

URL_ENV = "PYFLINK_ON_SPARK_TEST_MARIADB_URL"   # the running server's JDBC URL
DATABASE = "test"
_BINARIES = ("mariadbd", "mariadb-install-db")
_SEARCH = "/usr/sbin:/usr/bin:/usr/local/sbin:/usr/local/bin"


def _binary(name: str) -> Optional[str]:
    return shutil.which(name, path=_SEARCH + ":" + os.environ.get("PATH", ""))


@installed_once("mariadb-server")
def ensure_installed() -> None:
    """Installs Debian's mariadb-server package when mariadbd or mariadb-install-db is missing
    (once per process; server_installs.py starts it early, in the background)."""
    if all(_binary(b) for b in _BINARIES):
        return
    apt_install(["mariadb-server"])
    missing = [b for b in _BINARIES if not _binary(b)]
    if missing:
        raise RuntimeError("apt-get install mariadb-server left no %s" % ", ".join(missing))


@dataclass
class MariaDBServer:
    root: str
    port: int
    process: Optional[subprocess.Popen] = None

    @property
    def data_dir(self) -> str:
        return os.path.join(self.root, "data")

    @property
    def socket_path(self) -> str:
        return os.path.join(self.root, "mariadb.sock")

    @property
    def log_path(self) -> str:
        return os.path.join(self.root, "server.log")

    @property
    def url(self) -> str:
        return "jdbc:mariadb://127.0.0.1:%d/%s?user=root" % (self.port, DATABASE)

    def _user(self) -> List[str]:
        # mariadbd refuses to run as root unless told to; the data dir is root's then too
        return ["--user=root"] if os.geteuid() == 0 else []

    def start(self, timeout: float = 60) -> None:
        init = subprocess.run(
            [_binary("mariadb-install-db"), "--no-defaults", "--datadir=" + self.data_dir,
             "--auth-root-authentication-method=normal", "--skip-test-db",
             "--skip-name-resolve", *self._user()],
            capture_output=True, text=True, cwd=self.root)
        if init.returncode != 0:
            raise RuntimeError("mariadb-install-db failed:\n" + init.stdout + init.stderr)
        # small and unsafe on a crash (a throwaway server): starts in about a second
        self.process = subprocess.Popen(
            [_binary("mariadbd"), "--no-defaults", "--datadir=" + self.data_dir,
             "--bind-address=127.0.0.1", "--port=%d" % self.port,
             "--socket=" + self.socket_path, "--pid-file=" + os.path.join(self.root, "pid"),
             "--log-error=" + self.log_path, "--skip-name-resolve", "--skip-log-bin",
             "--performance-schema=OFF", "--innodb-buffer-pool-size=32M",
             "--innodb-log-file-size=16M", "--innodb-flush-log-at-trx-commit=0",
             "--innodb-doublewrite=0", "--max-connections=200",
             "--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci",
             *self._user()],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=self.root, start_new_session=True)
        deadline = time.monotonic() + timeout
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop(remove=False)
                text = open(self.log_path).read() if os.path.exists(self.log_path) else ""
                raise RuntimeError("mariadbd did not start on 127.0.0.1:%d:\n%s"
                                   % (self.port, text[-4000:]))
            time.sleep(0.1)
        self.sql("CREATE DATABASE IF NOT EXISTS %s" % DATABASE)

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.settimeout(1)
                return bool(s.recv(1))          # the server's greeting packet
        except OSError:
            return False

    def sql(self, statement: str) -> str:
        """Runs one statement with the `mariadb` client over the server's socket."""
        done = subprocess.run(["mariadb", "--no-defaults", "-S", self.socket_path, "-uroot",
                               "-N", "-B", "-e", statement], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError("mariadb -e %r failed: %s" % (statement, done.stderr.strip()))
        return done.stdout

    def stop(self, remove: bool = True) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGKILL)     # nothing to keep: no clean shutdown
            process.wait(30)
        if remove:
            shutil.rmtree(self.root, ignore_errors=True)


def start_server() -> MariaDBServer:
    ensure_installed()
    root = tempfile.mkdtemp(prefix="pyflink-on-spark-mariadb-")
    server = MariaDBServer(root, free_port())
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    return server
