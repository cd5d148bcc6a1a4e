"""The driver channel's wire format (spark/driver_channel.py, spark/task_channel.py): how a
task proves it belongs to the job before the driver reads anything else from it, and the
plain framing of the messages that follow.

Why no pickle on the wire: the driver listens on a TCP port while a job runs, and whoever
reaches that port could send bytes. Unpickling a stranger's bytes runs their code
(`__reduce__`), so the first bytes the driver reads are a fixed-size hello that it checks
with a MAC before it reads on; and the messages after it (printed text, driver rows, end,
error) are plain fields, never pickles. A driver row's payload is the engine's record
chunk, decoded only after its task has authenticated.

The handshake is a challenge-response over the job's channel key (32 random bytes per job
run, which reach the tasks inside their Spark task, never on this channel):

    driver -> task   MAGIC, driver nonce                                   (20 bytes)
    task -> driver   MAGIC, task nonce, stage, subtask, attempt, want_args,
                     HMAC(key, "task" | both nonces | those fields)        (65 bytes)
    driver -> task   verdict (GO or STOP), HMAC(key, "driver" | both nonces | verdict)
                     [GO with want_args: the stage's arguments, and their HMAC]

The key itself never crosses the channel, fresh nonces make a recorded hello useless, and
the task checks the driver's MAC before it trusts the verdict or unpickles the stage's
arguments (a process that took the port cannot hand it code)."""
from __future__ import annotations

import hashlib
import hmac
import os
import struct
from typing import Optional, Tuple

MAGIC = b"PFS1"                   # the channel's protocol and its version
NONCE_BYTES = 16
KEY_BYTES = 32
MAC_BYTES = 32                    # HMAC-SHA256
LENGTH = struct.Struct("!I")
# what a task says of itself: stage id, subtask, attempt, whether it wants its arguments
TASK_FIELDS = struct.Struct("!IIIB")
CHALLENGE_BYTES = len(MAGIC) + NONCE_BYTES
TASK_HELLO_BYTES = len(MAGIC) + NONCE_BYTES + TASK_FIELDS.size + MAC_BYTES
VERDICT_BYTES = 1 + MAC_BYTES
GO, STOP = b"G", b"S"
ACK = b"A"

# Messages (a tuple each, its first element the kind): ("out", seq, text) what user code
# printed; ("row", seq, edge, payload) driver rows; ("end", seq); ("error", text).
OUT, ROW, END, ERROR = "out", "row", "end", "error"
_CODES = {OUT: 1, ROW: 2, END: 3, ERROR: 4}
_SEQ = struct.Struct("!BQ")       # kind code, message number
_EDGE = struct.Struct("!i")
# The largest message the driver reads (a chunk of driver rows, or text). Records can be big
# (a chunk holds up to 2048 of them), so this is generous; it bounds a broken task's claim,
# not a stranger's, who never gets past the fixed-size hello.
MAX_MESSAGE_BYTES = 1 << 30


class ChannelAuthError(ConnectionError):
    """The other end did not prove it holds the job's channel key."""


class MessageTooLarge(ValueError):
    pass


def new_key() -> str:
    """A new channel key, as the hex text that travels in the tasks' address."""
    return os.urandom(KEY_BYTES).hex()


def _mac(key: bytes, *parts: bytes) -> bytes:
    return hmac.new(key, b"".join(parts), hashlib.sha256).digest()


def challenge() -> Tuple[bytes, bytes]:
    """(the bytes the driver sends first, its nonce)."""
    nonce = os.urandom(NONCE_BYTES)
    return MAGIC + nonce, nonce


def task_hello(key: bytes, challenge_bytes: bytes, stage_id: int, subtask: int,
               attempt: int, want_args: bool) -> Tuple[bytes, bytes]:
    """(the task's hello answering the driver's challenge, the task's nonce)."""
    if len(challenge_bytes) != CHALLENGE_BYTES or not challenge_bytes.startswith(MAGIC):
        raise ChannelAuthError("the driver channel at this address does not speak this "
                               "version of the protocol")
    driver_nonce = challenge_bytes[len(MAGIC):]
    nonce = os.urandom(NONCE_BYTES)
    fields = TASK_FIELDS.pack(stage_id, subtask, attempt, 1 if want_args else 0)
    return MAGIC + nonce + fields + _mac(key, b"task", driver_nonce, nonce, fields), nonce


def check_task_hello(key: bytes, driver_nonce: bytes,
                     hello: bytes) -> Optional[Tuple[bytes, Tuple[int, int, int, bool]]]:
    """(the task's nonce, (stage id, subtask, attempt, want_args)) when `hello` proves the
    key; None otherwise. The MAC is compared in constant time."""
    if len(hello) != TASK_HELLO_BYTES or not hello.startswith(MAGIC):
        return None
    start = len(MAGIC)
    nonce = hello[start:start + NONCE_BYTES]
    fields = hello[start + NONCE_BYTES:start + NONCE_BYTES + TASK_FIELDS.size]
    mac = hello[start + NONCE_BYTES + TASK_FIELDS.size:]
    if not hmac.compare_digest(mac, _mac(key, b"task", driver_nonce, nonce, fields)):
        return None
    stage_id, subtask, attempt, want_args = TASK_FIELDS.unpack(fields)
    return nonce, (stage_id, subtask, attempt, bool(want_args))


def verdict(key: bytes, driver_nonce: bytes, task_nonce: bytes, go: bool) -> bytes:
    answer = GO if go else STOP
    return answer + _mac(key, b"driver", driver_nonce, task_nonce, answer)


def check_verdict(key: bytes, driver_nonce: bytes, task_nonce: bytes, data: bytes) -> bool:
    """Whether the driver said go; ChannelAuthError when it did not prove the key."""
    answer, mac = data[:1], data[1:]
    if len(data) != VERDICT_BYTES or answer not in (GO, STOP) or not hmac.compare_digest(
            mac, _mac(key, b"driver", driver_nonce, task_nonce, answer)):
        raise ChannelAuthError("the process at the driver channel's address did not prove "
                               "it is this job's driver")
    return answer == GO


def signed_args(key: bytes, driver_nonce: bytes, task_nonce: bytes, args: bytes) -> bytes:
    """The stage's arguments (a pickle) as the driver sends them: length, bytes, MAC."""
    return LENGTH.pack(len(args)) + args + _mac(key, b"args", driver_nonce, task_nonce, args)


def check_args(key: bytes, driver_nonce: bytes, task_nonce: bytes, args: bytes,
               mac: bytes) -> bytes:
    if not hmac.compare_digest(mac, _mac(key, b"args", driver_nonce, task_nonce, args)):
        raise ChannelAuthError("the stage's arguments from the driver channel failed their "
                               "check")
    return args


def encode_message(message: tuple) -> bytes:
    """A message as its frame: length, kind code, fields."""
    kind = message[0]
    if kind == ERROR:
        body = bytes((_CODES[ERROR],)) + message[1].encode("utf-8", "surrogatepass")
    else:
        body = _SEQ.pack(_CODES[kind], message[1])
        if kind == OUT:
            body += message[2].encode("utf-8", "surrogatepass")
        elif kind == ROW:
            body += _EDGE.pack(message[2]) + message[3]
    return LENGTH.pack(len(body)) + body


def decode_message(body: bytes) -> tuple:
    """The message of a frame's body; ValueError for one that is not a message."""
    if not body:
        raise ValueError("an empty message")
    code = body[0]
    if code == _CODES[ERROR]:
        return (ERROR, body[1:].decode("utf-8", "surrogatepass"))
    if len(body) < _SEQ.size:
        raise ValueError("a message cut short")
    code, seq = _SEQ.unpack_from(body)
    if code == _CODES[OUT]:
        return (OUT, seq, body[_SEQ.size:].decode("utf-8", "surrogatepass"))
    if code == _CODES[ROW]:
        (edge,) = _EDGE.unpack_from(body, _SEQ.size)
        return (ROW, seq, edge, body[_SEQ.size + _EDGE.size:])
    if code == _CODES[END]:
        return (END, seq)
    raise ValueError("an unknown message kind %d" % code)


def write_message(stream, message: tuple) -> int:
    """Writes the message's frame; returns its bytes."""
    frame = encode_message(message)
    stream.write(frame)
    return len(frame)


def read_exactly(stream, size: int) -> Optional[bytes]:
    """`size` bytes, or None when the stream ends first."""
    data = stream.read(size)
    return data if data is not None and len(data) == size else None


def read_message(stream, limit: int = MAX_MESSAGE_BYTES) -> Optional[tuple]:
    """The next message, None at the end of the stream; MessageTooLarge for a frame over
    `limit` bytes (nothing of it is read)."""
    head = read_exactly(stream, LENGTH.size)
    if head is None:
        return None
    (size,) = LENGTH.unpack(head)
    if size > limit:
        raise MessageTooLarge("a message of %d bytes, over the channel's limit of %d"
                              % (size, limit))
    body = read_exactly(stream, size)
    if body is None:
        return None
    return decode_message(body)
