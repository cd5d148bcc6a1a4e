"""The driver's side of the task channel (spark/task_channel.py is the tasks' side): what
the tasks send to the driver while the job runs, in one deterministic order, in bounded
driver memory.

Why a channel and not the stage's output rows: Spark returns a task's rows only once the
task has finished (a job over a huge source printed nothing for minutes where PyFlink prints
at once), and what user functions print in the workers never reached the job's stdout.

Each task attempt connects, proves it holds the job's channel key and says which stream it
is (stage, subtask) in a fixed-size hello checked before anything else it sends is read
(spark/channel_protocol.py: nothing a connection sends is decoded before it has proved
the key, and no message is a pickle), then sends numbered
messages: text the user code printed, driver-sink rows (print lines, collected values, file
sink committables), then "end". The driver hands them on in stream order: stage by stage
(the job's topological order), subtask by subtask, each stream's messages in their order.
The stream at the front is handed on live; the others are spilled to disk until their turn,
so the driver's memory does not grow with the output. The order gives way when a stream has
waited HOLD_SECONDS or the spill has grown past HOLD_BYTES (a job over an endless source,
whose front stream never ends): what waited is handed on, stream by stream, and from then on
every message as it arrives, each stream still in its own order (PyFlink interleaves the
subtasks' output too; a short job keeps the deterministic order).

A retried attempt (a killed worker) sends its stream again from message 0: messages the
driver already has are dropped, so the output is that of an undisturbed run. A task whose
code raised reports the error before failing: the driver cancels the job at once, and an
attempt that starts afterwards is told to stop before it runs user code (Flink without a
restart strategy fails the job at the first exception; Spark would retry the task).
"""
from __future__ import annotations

import os
import queue
import socket
import sys
import tempfile
import threading
import time
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from pyflink_on_spark.spark.channel_protocol import (
    ACK, END, ERROR, OUT, ROW, TASK_HELLO_BYTES, MessageTooLarge, challenge, check_task_hello, new_key, read_message, signed_args, verdict, write_message)

__all__ = ["DriverChannel", "StreamOrder", "OUT", "ROW", "END", "ERROR", "channel_host",
           "channel_bind_address", "channel_off_because", "spark_guards_its_network",
           "ordered_streams"]

Stream = Tuple[int, int]          # (stage id, subtask)

QUEUE_MESSAGES = 64               # messages in flight between receivers and the consumer
HOLD_SECONDS = 30.0               # longest a stream's messages wait for their turn
HOLD_BYTES = 64 << 20             # most spilled bytes before the order gives way
# A connection has this long to prove it is one of the job's tasks (a task sends its hello
# at once); one that dawdles (a slow-loris) is closed, and at most this many wait at once,
# each on its own thread, so none of them holds up the tasks.
HANDSHAKE_SECONDS = 10.0
MAX_PENDING_HANDSHAKES = 64


class _Spill:
    """One stream's messages waiting for their turn, in a temporary file."""

    def __init__(self, directory: str) -> None:
        fd, self.path = tempfile.mkstemp(dir=directory, suffix=".spill")
        self._file = os.fdopen(fd, "wb")

    def append(self, message: tuple) -> int:
        """Spills the message; returns the bytes it took."""
        return write_message(self._file, message)

    def drain(self) -> Iterator[tuple]:
        self._file.close()
        try:
            with open(self.path, "rb") as f:
                while True:
                    message = read_message(f)
                    if message is None:
                        return
                    yield message
        finally:
            os.unlink(self.path)

    def discard(self) -> None:
        self._file.close()
        if os.path.exists(self.path):
            os.unlink(self.path)


class StreamOrder:
    """Puts the messages of many streams into stream order (pure logic, no sockets).
    `deliver` takes a message as it arrives and returns those that can be handed on now."""

    def __init__(self, streams: Sequence[Stream], spill_dir: str,
                 hold_seconds: float = HOLD_SECONDS, hold_bytes: int = HOLD_BYTES,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._order = list(streams)
        self._cursor = 0
        self._next_seq: Dict[Stream, int] = {s: 0 for s in self._order}
        self._ended: Dict[Stream, bool] = {s: False for s in self._order}
        self._spills: Dict[Stream, _Spill] = {}
        self._spill_dir = spill_dir
        self._hold_seconds = hold_seconds
        self._hold_bytes = hold_bytes
        self._clock = clock
        self._held_since: Optional[float] = None
        self._held_bytes = 0
        self.live = False   # the order has given way: messages go on as they arrive

    def deliver(self, stream: Stream, seq: int, message: tuple) -> Iterator[tuple]:
        if stream not in self._next_seq or seq != self._next_seq[stream]:
            return  # sent before by an earlier attempt of this task (or not ours)
        self._next_seq[stream] = seq + 1
        if message[0] == END:
            self._ended[stream] = True
        elif self.live or self._current() == stream:
            yield message
        else:
            spill = self._spills.get(stream)
            if spill is None:
                spill = self._spills[stream] = _Spill(self._spill_dir)
            self._held_bytes += spill.append(message)
            if self._held_since is None:
                self._held_since = self._clock()
        yield from self._advance()
        yield from self.release_if_held_too_long()

    def release_if_held_too_long(self) -> Iterator[tuple]:
        """Gives the order up once a stream has waited too long or the spill is too big:
        everything waiting goes on (stream by stream) and later messages go on at once."""
        if self.live or self._held_since is None:
            return
        if self._held_bytes < self._hold_bytes and \
                self._clock() - self._held_since < self._hold_seconds:
            return
        self.live = True
        for stream in self._order:
            if stream in self._spills:
                yield from self._spills.pop(stream).drain()

    def _current(self) -> Optional[Stream]:
        return self._order[self._cursor] if self._cursor < len(self._order) else None

    def _advance(self) -> Iterator[tuple]:
        while self._current() is not None and self._ended[self._current()]:
            self._cursor += 1
            current = self._current()
            if current is not None and current in self._spills:
                yield from self._spills.pop(current).drain()
        if not self._spills:
            self._held_since, self._held_bytes = None, 0

    def flush(self) -> Iterator[tuple]:
        """Everything received, in stream order (the job has ended: streams that never
        reported their end, e.g. of tasks that did not run, are skipped over)."""
        while self._current() is not None:
            self._ended[self._current()] = True
            yield from self._advance()

    def discard(self) -> None:
        for spill in self._spills.values():
            spill.discard()
        self._spills.clear()


_DONE = object()


def _no_stage_args(stage_id: int, subtask: int) -> bytes:
    raise RuntimeError("stage %d's task asked for its arguments, which this run does not "
                       "hold" % stage_id)


class DriverChannel:
    """A socket server on the driver for one job run. `address` and `token` (the job's
    channel key, spark/channel_protocol.py) go to the tasks inside their Spark tasks;
    `messages()` yields the tasks' messages in stream order until `job_finished` is called
    and every connection has closed. It listens on `bind_address` (the loopback for a local
    master: channel_bind_address); a connection that does not prove the key is closed
    before anything it sent is decoded, and counted (`refused`)."""

    def __init__(self, streams: Sequence[Stream], host: str = "127.0.0.1",
                 on_error: Callable[[str], None] = lambda text: None,
                 bind_address: Optional[str] = None) -> None:
        self.token = new_key()
        self._key = bytes.fromhex(self.token)
        self._spill_dir = tempfile.mkdtemp(prefix="pyflink-on-spark-driver-")
        self._order = StreamOrder(streams, self._spill_dir)
        self._queue: "queue.Queue" = queue.Queue(QUEUE_MESSAGES)
        self._lock = threading.Lock()
        self._open_connections = 0
        self._closed = threading.Event()
        self._on_error = on_error
        # (stage id, subtask) -> that subtask's pickled StageArgs, for tasks of shared stage
        # functions (spark/plan_cache.py); set before the job starts
        self.stage_args: Callable[[int, int], bytes] = _no_stage_args
        self.user_error: Optional[str] = None
        self.job_error: Optional[BaseException] = None
        self.refused = 0                  # connections that did not prove the key
        self._refused_from: set = set()
        self._handshakes = threading.BoundedSemaphore(MAX_PENDING_HANDSHAKES)
        self._server = _listening_socket(bind_address or host)
        self.address = (host, self._server.getsockname()[1])
        threading.Thread(target=self._accept, name="pyflink-on-spark-channel",
                         daemon=True).start()

    # ---- the tasks' side of the server (threads) ----

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                conn, peer = self._server.accept()
            except OSError:
                return
            if not self._handshakes.acquire(blocking=False):
                self._refuse(conn, peer)     # a flood of connections that do not speak
                continue
            threading.Thread(target=self._receive, args=(conn, peer), daemon=True,
                             name="pyflink-on-spark-channel-task").start()

    def _refuse(self, conn: socket.socket, peer) -> None:
        """Closes a connection that did not prove the key. Only its count and its host are
        kept (what it sent is neither decoded nor logged)."""
        conn.close()
        with self._lock:
            self.refused += 1
            if isinstance(peer, tuple) and peer:
                self._refused_from.add(str(peer[0]))

    def _authenticate(self, conn: socket.socket, peer):
        """(the task's nonce, its fields) when the connection proves the key within
        HANDSHAKE_SECONDS; else None (the connection is then refused)."""
        try:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            conn.settimeout(HANDSHAKE_SECONDS)
            challenge_bytes, nonce = challenge()
            conn.sendall(challenge_bytes)
            hello = _receive_within(conn, TASK_HELLO_BYTES, HANDSHAKE_SECONDS)
            checked = None if hello is None else check_task_hello(self._key, nonce, hello)
        except OSError:
            checked = None
        finally:
            self._handshakes.release()
        if checked is None:
            self._refuse(conn, peer)
            return None
        conn.settimeout(None)    # a task may go quiet for long (a slow source)
        return nonce, checked

    def _receive(self, conn: socket.socket, peer=None) -> None:
        authenticated = self._authenticate(conn, peer)
        if authenticated is None:
            return
        driver_nonce, (task_nonce, (stage_id, subtask, _attempt, want_args)) = authenticated
        stream = (stage_id, subtask)
        registered = False
        try:
            with self._lock:
                stopped = self.user_error is not None or self._closed.is_set()
                if not stopped:
                    self._open_connections += 1
                    registered = True
            answer = verdict(self._key, driver_nonce, task_nonce, not stopped)
            if not stopped and want_args:   # a shared stage function: its run's arguments
                answer += signed_args(self._key, driver_nonce, task_nonce,
                                      self.stage_args(*stream))
            # one write: a second small one would wait for the task's delayed ACK of the
            # first (Nagle's algorithm), 40 ms per task
            conn.sendall(answer)
            if stopped:
                return
            reader = conn.makefile("rb")
            while True:
                try:
                    message = read_message(reader)
                except (MessageTooLarge, ValueError) as e:
                    # a task of this job broke the protocol: the job fails, saying so
                    self._user_failed("stage %d, subtask %d sent the driver a message it "
                                      "cannot take: %s" % (stage_id, subtask, e))
                    return
                if message is None:
                    return
                if message[0] == ERROR:
                    self._user_failed(message[1])
                    conn.sendall(ACK)
                    continue
                self._put((stream, message))
        except OSError:
            return
        finally:
            conn.close()
            if registered:
                with self._lock:
                    self._open_connections -= 1
                self._put(None)   # wakes the consumer to see whether all have closed

    def _user_failed(self, text: str) -> None:
        with self._lock:
            first = self.user_error is None
            if first:
                self.user_error = text
        if first:
            self._on_error(text)   # cancels the job before the task's failure is reported
        self._put(None)

    def _put(self, item) -> None:
        while not self._closed.is_set():
            try:
                self._queue.put(item, timeout=0.5)
                return
            except queue.Full:
                continue

    # ---- the driver's side ----

    def job_finished(self, error: Optional[BaseException] = None) -> None:
        """Called by the thread running the Spark job when it has ended."""
        self.job_error = error
        self._put(_DONE)

    def messages(self) -> Iterator[tuple]:
        """The tasks' messages, in stream order, as they can be handed on. Stops at the
        first user error (the caller raises it; `remaining()` gives what arrived)."""
        done = False
        while True:
            if self.user_error is not None:
                return
            if done:
                with self._lock:
                    idle = self._open_connections == 0
                if idle and self._queue.empty():
                    yield from self._order.flush()
                    return
            try:
                item = self._queue.get(timeout=0.5)
            except queue.Empty:
                yield from self._order.release_if_held_too_long()
                continue
            if item is _DONE:
                done = True
                if self.job_error is not None:
                    return
            elif item is not None:
                stream, message = item
                yield from self._order.deliver(stream, message[1], message)

    def remaining(self) -> Iterator[tuple]:
        """After a failure: what the tasks had sent, in stream order."""
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None and item is not _DONE:
                stream, message = item
                yield from self._order.deliver(stream, message[1], message)
        yield from self._order.flush()

    def close(self) -> None:
        """Stops taking messages (idempotent): what tasks still send is read and dropped, so
        none of them blocks on a driver that stopped reading (a collect iterator closed
        early, a limit reached)."""
        if self._closed.is_set():
            return
        self._closed.set()
        try:
            self._server.close()
        except OSError:
            pass
        self._order.discard()
        import shutil
        shutil.rmtree(self._spill_dir, ignore_errors=True)
        if self.refused:
            # someone else reached the job's port: the user should know, and from where
            sys.stderr.write("pyflink-on-spark: the driver channel refused %d connection(s) "
                             "that did not prove this job's key (from %s)\n"
                             % (self.refused, ", ".join(sorted(self._refused_from)) or
                                "unknown hosts"))


def _listening_socket(bind_address: str) -> socket.socket:
    """A server socket on a free port of `bind_address` (IPv4 or IPv6, as it resolves)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            bind_address, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
        server = socket.socket(family, kind, proto)
        server.bind(address)
    except OSError as e:
        raise OSError("the driver channel cannot listen on %r (%s): set "
                      "spark.driver.bindAddress to an address of this machine"
                      % (bind_address, e)) from None
    server.listen(128)
    return server


def _receive_within(conn: socket.socket, size: int, seconds: float) -> Optional[bytes]:
    """Exactly `size` bytes arriving within `seconds` in all (a peer trickling a byte at a
    time does not get a new timeout per byte), or None."""
    deadline = time.monotonic() + seconds
    parts, got = [], 0
    while got < size:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        conn.settimeout(left)
        try:
            part = conn.recv(size - got)
        except socket.timeout:
            return None
        if not part:
            return None
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def channel_host(session) -> str:
    """Where the tasks reach the driver: the loopback in local mode, else the driver's host
    as Spark knows it."""
    master = session.sparkContext.master
    if master.startswith("local"):
        return "127.0.0.1"
    return session.sparkContext.getConf().get("spark.driver.host", socket.gethostname())


def channel_bind_address(session) -> str:
    """Where the channel listens: the loopback in local mode (the tasks run here), else
    where Spark's own driver endpoints listen (spark.driver.bindAddress, which defaults to
    spark.driver.host), never every interface."""
    if session.sparkContext.master.startswith("local"):
        return "127.0.0.1"
    conf = session.sparkContext.getConf()
    return conf.get("spark.driver.bindAddress", None) or channel_host(session)


# Spark settings under which its own endpoints authenticate or encrypt what they carry
SPARK_SECURITY_SETTINGS = ("spark.authenticate", "spark.network.crypto.enabled",
                           "spark.ssl.enabled", "spark.ssl.rpc.enabled")


# Turns the channel off (executors that cannot reach the driver on a port of its own): the
# driver rows then come back in Spark's results, as with SPARK_SECURITY_SETTINGS on
CHANNEL_ENABLED_KEY = "spark.pyflink_on_spark.driverChannel.enabled"


def channel_off_because(get: Callable[[str], Optional[str]]) -> Optional[str]:
    """Why a job runs without the driver channel (a setting, as the user would write it),
    or None when it runs with it."""
    value = get(CHANNEL_ENABLED_KEY)
    if value is not None and str(value).strip().lower() == "false":
        return "%s=false" % CHANNEL_ENABLED_KEY
    guard = spark_guards_its_network(get)
    return None if guard is None else "%s=true" % guard


def spark_guards_its_network(get: Callable[[str], Optional[str]]) -> Optional[str]:
    """The first of SPARK_SECURITY_SETTINGS that is on (`get` reads a Spark setting), or
    None. With one on, a job opens no port of its own: its driver rows come back in Spark's
    own authenticated (and encrypted) results instead of the driver channel, whose key
    would otherwise travel to the executors without Spark's protection, and whose data
    would cross the network in the clear (the executors' Python workers hold neither
    Spark's secret nor its TLS keys)."""
    for key in SPARK_SECURITY_SETTINGS:
        value = get(key)
        if value is not None and str(value).strip().lower() == "true":
            return key
    return None


def ordered_streams(job) -> List[Stream]:
    """The order the driver hands the streams on: stages in the job's (topological) order,
    subtasks ascending."""
    return [(stage.spec.stage_id, subtask) for stage in job.stages
            for subtask in range(stage.spec.parallelism)]
