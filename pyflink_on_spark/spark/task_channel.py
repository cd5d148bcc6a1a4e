"""The tasks' side of the driver channel (spark/driver_channel.py): one connection per task
attempt, numbered messages in the order the task produces them, and the text user code
prints while the task runs (PyFlink shows it on the client's stdout; a Spark worker's stdout
goes to its stderr)."""
from __future__ import annotations

import io
import socket
import sys
import traceback
from contextlib import contextmanager
from typing import Iterator, List, Optional, Tuple

from pyflink_on_spark.spark.channel_protocol import (
    CHALLENGE_BYTES, END, ERROR, LENGTH, MAC_BYTES, OUT, ROW, VERDICT_BYTES, check_args,
    check_verdict, task_hello, write_message)

ChannelAddress = Tuple[str, int, str]      # host, port, the job's channel key (hex)
# how long a task waits for the driver to answer its connection (a busy driver's accept)
HANDSHAKE_TIMEOUT_S = 120.0
# how long a task tries to reach the driver at all (an address the executors cannot route
# to fails then, naming it, rather than hanging: Spark retries the task a few times)
CONNECT_TIMEOUT_S = 15.0


class JobAlreadyFailed(RuntimeError):
    """A task attempt started after the job failed (Spark retrying a failed task)."""


class CapturedStdout(io.TextIOBase):
    """sys.stdout while user code runs in the task: keeps what it prints."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: List[str] = []

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._parts.append(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self._parts)
        self._parts = []
        return text

    @contextmanager
    def active(self) -> Iterator[None]:
        previous = sys.stdout
        sys.stdout = self
        try:
            yield
        finally:
            sys.stdout = previous


class TaskChannel:
    """want_args: the driver sends the stage's StageArgs for this subtask (pickled) after its
    go-ahead (stage_task.shared_stage_function); they are in `stage_args`."""

    def __init__(self, address: ChannelAddress, stage_id: int, subtask: int,
                 attempt: int, want_args: bool = False) -> None:
        host, port, token = address
        key = bytes.fromhex(token)
        self._socket = _connect_to_driver(host, port)
        self._socket.settimeout(HANDSHAKE_TIMEOUT_S)
        # the handshake's small writes go at once (its messages are flushed in batches)
        self._socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.stage_args: Optional[bytes] = None
        try:
            # the driver's challenge, the task's answer, the driver's proof with its verdict
            # (spark/channel_protocol.py): the task trusts nothing before that proof
            challenge = self._receive_exactly(CHALLENGE_BYTES)
            hello, nonce = task_hello(key, challenge, stage_id, subtask, attempt, want_args)
            self._socket.sendall(hello)
            driver_nonce = challenge[-len(nonce):]
            go = check_verdict(key, driver_nonce, nonce, self._receive_exactly(VERDICT_BYTES))
            if not go:
                raise JobAlreadyFailed("the job has already failed; this attempt of stage "
                                       "%d, subtask %d does not run" % (stage_id, subtask))
            if want_args:
                (size,) = LENGTH.unpack(self._receive_exactly(LENGTH.size))
                args = self._receive_exactly(size)
                self.stage_args = check_args(key, driver_nonce, nonce, args,
                                             self._receive_exactly(MAC_BYTES))
            self._socket.settimeout(None)
        except BaseException:
            self._socket.close()
            raise
        self._out = self._socket.makefile("wb", buffering=1 << 16)
        self._seq = 0

    def _receive_exactly(self, size: int) -> bytes:
        parts = []
        while size:
            part = self._socket.recv(min(size, 1 << 20))
            if not part:
                raise ConnectionError("the driver closed the channel during its handshake")
            parts.append(part)
            size -= len(part)
        return b"".join(parts)

    def _send(self, kind: str, *fields) -> None:
        write_message(self._out, (kind, self._seq) + fields)
        self._seq += 1

    def send_output(self, text: str) -> None:
        if text:
            self._send(OUT, text)

    def send_row(self, edge: int, payload: bytes) -> None:
        self._send(ROW, edge, payload)

    def flush(self) -> None:
        self._out.flush()

    def end(self) -> None:
        self._send(END)
        self._out.flush()

    def report_error(self, error: BaseException) -> None:
        """Tell the driver before the task fails, and wait until it has cancelled the job
        (so that Spark does not start a retry of user code first)."""
        from pyflink_on_spark.runtime.errors import UserFunctionError
        if isinstance(error, UserFunctionError):
            text = str(error)
        else:
            text = "".join(traceback.format_exception(type(error), error,
                                                      error.__traceback__))
        try:
            write_message(self._out, (ERROR, text))
            self._out.flush()
            self._socket.settimeout(60)
            self._socket.recv(1)          # ACK (or the driver is gone)
        except OSError:
            pass

    def close(self) -> None:
        try:
            self._out.close()
        except OSError:
            pass
        self._socket.close()


class DriverUnreachable(ConnectionError):
    """The task cannot reach the driver channel: a deployment setting, not the job's code."""


def _connect_to_driver(host: str, port: int) -> socket.socket:
    try:
        return socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
    except OSError as e:
        raise DriverUnreachable(
            "this task (on %s) cannot reach the job's driver at %s:%d (%s). Executors send "
            "print lines and collected values to the driver there: set spark.driver.host to "
            "an address of the driver that the executors can reach (and "
            "spark.driver.bindAddress to the driver's interface, if it differs), or turn on "
            "spark.authenticate (then the job opens no port of its own; docs/security.md)"
            % (socket.gethostname(), host, port, e)) from None


def connect(address: Optional[ChannelAddress], stage_id: int, subtask: int,
            attempt: int, want_args: bool = False) -> Optional[TaskChannel]:
    if address is None:
        return None
    return TaskChannel(address, stage_id, subtask, attempt, want_args)
