"""The Elasticsearch sink's bulk writer, as Flink's ElasticsearchWriter (flink-connector-
elasticsearch 3.0.1) drives Elasticsearch's BulkProcessor:

- actions are buffered and sent as one `_bulk` request when `max_actions` are buffered or
  their size reaches `max_size_mb` (Flink sets a limit on the BulkProcessor only when it is not
  -1, so -1 leaves the BulkProcessor's own defaults: 1000 actions, 5 MB), when `interval_ms`
  passed since the last send (the owner calls `flush_if_due`), and at the end of input or of
  each checkpoint (the owner calls `flush`);
- a response whose failed items all failed with 429 (the node's queue is full) is retried for
  those items as the backoff policy says (CONSTANT: the same delay each time; EXPONENTIAL:
  Elasticsearch's delays, start + 10 * (int(e^(0.8 i)) - 1) ms; none by default);
- any other failed item fails the job: Flink throws "Single action ... of bulk request failed
  with status N." for each, nothing is skipped; a request that gets no answer (node down,
  refused, timed out) fails it with "Complete bulk has failed." (Elasticsearch's RestClient
  tries each host once per request: so does this writer, in turn).

Timeouts are the RestClient's defaults unless set: 1 s to connect, 30 s for an answer.
"""
from __future__ import annotations

import base64
import http.client
import json
import math
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple
from urllib.parse import urlsplit

DEFAULT_MAX_ACTIONS = 1000                  # BulkProcessor.Builder's default
DEFAULT_MAX_BYTES = 5 * 1024 * 1024         # BulkProcessor.Builder's default (5 MB)
DEFAULT_CONNECT_TIMEOUT_MS = 1000           # RestClientBuilder.DEFAULT_CONNECT_TIMEOUT_MILLIS
DEFAULT_SOCKET_TIMEOUT_MS = 30000           # RestClientBuilder.DEFAULT_SOCKET_TIMEOUT_MILLIS
TOO_MANY_REQUESTS = 429
_SHOWN_FAILURES = 5


class BulkError(RuntimeError):
    """A bulk request failed: the job fails, as Flink's writer makes it."""


@dataclass(frozen=True)
class BulkSettings:
    hosts: Tuple[str, ...]
    max_actions: int = DEFAULT_MAX_ACTIONS
    max_size_mb: int = -1
    interval_ms: int = -1
    backoff_type: str = "NONE"              # FlushBackoffType's name
    backoff_retries: int = -1
    backoff_delay_ms: int = -1
    username: Optional[str] = None
    password: Optional[str] = None
    path_prefix: Optional[str] = None
    connect_timeout_ms: Optional[int] = None
    socket_timeout_ms: Optional[int] = None


@dataclass(frozen=True)
class Host:
    scheme: str
    host: str
    port: int

    @property
    def address(self) -> str:
        return "%s:%d" % (self.host, self.port)


def parse_host(text: str) -> Host:
    """HttpHost.create: '[scheme://]host[:port]', http and the scheme's port by default."""
    parsed = urlsplit(text if "://" in text else "http://" + text)
    scheme = (parsed.scheme or "http").lower()
    if scheme not in ("http", "https") or not parsed.hostname:
        raise ValueError("Elasticsearch host %r: expected [http|https://]host[:port]" % text)
    return Host(scheme, parsed.hostname, parsed.port or (443 if scheme == "https" else 80))


def backoff_delays(kind: str, retries: int, delay_ms: int) -> Iterator[float]:
    """Elasticsearch's BackoffPolicy delays in seconds (constantBackoff, exponentialBackoff)."""
    if kind == "CONSTANT":
        for _ in range(retries):
            yield delay_ms / 1000.0
    elif kind == "EXPONENTIAL":
        for i in range(retries):
            yield (delay_ms + 10 * (int(math.exp(0.8 * i)) - 1)) / 1000.0


class BulkWriter:
    def __init__(self, settings: BulkSettings,
                 clock: Callable[[], int] = lambda: int(time.time() * 1000),
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.settings = settings
        self.hosts = [parse_host(h) for h in settings.hosts]
        self.max_actions = settings.max_actions if settings.max_actions != -1 \
            else DEFAULT_MAX_ACTIONS
        self.max_bytes = settings.max_size_mb * 1024 * 1024 if settings.max_size_mb != -1 \
            else DEFAULT_MAX_BYTES
        self._clock = clock
        self._sleep = sleep
        self._connections: Dict[int, http.client.HTTPConnection] = {}
        self._next_host = 0
        self._actions: List[bytes] = []
        self._descriptions: List[str] = []
        self._bytes = 0
        self._last_flush = clock()
        self._headers = {"Content-Type": "application/x-ndjson"}
        if settings.username is not None and settings.password is not None:
            token = base64.b64encode(("%s:%s" % (settings.username, settings.password))
                                     .encode("utf-8")).decode("ascii")
            self._headers["Authorization"] = "Basic " + token
        self._path = (settings.path_prefix or "").rstrip("/") + "/_bulk"
        if not self._path.startswith("/"):
            self._path = "/" + self._path

    @property
    def pending(self) -> int:
        return len(self._actions)

    def add(self, action: bytes, description: str) -> None:
        self._actions.append(action)
        self._descriptions.append(description)
        self._bytes += len(action)
        if len(self._actions) >= self.max_actions or self._bytes >= self.max_bytes:
            self.flush()

    def flush_if_due(self, now: int) -> None:
        if self.settings.interval_ms != -1 and now - self._last_flush >= \
                self.settings.interval_ms:
            self.flush()

    def flush(self) -> None:
        self._last_flush = self._clock()
        if not self._actions:
            return
        actions, descriptions = self._actions, self._descriptions
        self._actions, self._descriptions, self._bytes = [], [], 0
        self._send(actions, descriptions)

    def close(self) -> None:
        """Closes the connections; actions not flushed are dropped (the owner flushes at the
        end of input: after a failure, the task's retry sends them again)."""
        self._actions, self._descriptions, self._bytes = [], [], 0
        for connection in self._connections.values():
            try:
                connection.close()
            except Exception:
                pass
        self._connections.clear()

    # ------------------------------------------------------------------------------ internals

    def _send(self, actions: List[bytes], descriptions: List[str]) -> None:
        s = self.settings
        delays = backoff_delays(s.backoff_type, s.backoff_retries, s.backoff_delay_ms)
        todo = list(range(len(actions)))
        while True:
            status, answer = self._post(b"".join(actions[i] for i in todo))
            if status == TOO_MANY_REQUESTS:
                delay = next(delays, None)
                if delay is None:
                    raise BulkError("ElasticsearchSink: Complete bulk has failed: the node "
                                    "answered %d (too many requests) to a bulk of %d actions"
                                    % (status, len(todo)))
                self._sleep(delay)
                continue
            if status >= 300:
                raise BulkError("ElasticsearchSink: Complete bulk has failed: the node answered "
                                "HTTP %d: %s" % (status, _reason(answer)))
            failed = [(i, item) for i, item in zip(todo, answer.get("items", []))
                      if _failure(item) is not None]
            if not failed:
                return
            if all(_failure(item)[0] == TOO_MANY_REQUESTS for _, item in failed):
                delay = next(delays, None)
                if delay is not None:
                    self._sleep(delay)
                    todo = [i for i, _ in failed]
                    continue
            raise self._item_failures(failed, descriptions)

    def _item_failures(self, failed, descriptions: List[str]) -> BulkError:
        lines = []
        for i, item in failed[:_SHOWN_FAILURES]:
            status, error = _failure(item)
            lines.append("Single action %s of bulk request failed with status %d: %s"
                         % (descriptions[i], status, error))
        more = len(failed) - _SHOWN_FAILURES
        if more > 0:
            lines.append("... and %d more failed action%s" % (more, "" if more == 1 else "s"))
        return BulkError("ElasticsearchSink: %d of the bulk request's actions failed (Flink "
                         "fails the job for any failed action):\n  %s"
                         % (len(failed), "\n  ".join(lines)))

    def _post(self, body: bytes) -> Tuple[int, Dict[str, Any]]:
        """(HTTP status, JSON answer) from the first host that answers, trying each in turn."""
        errors = []
        for _ in range(len(self.hosts)):
            index = self._next_host
            self._next_host = (self._next_host + 1) % len(self.hosts)
            host = self.hosts[index]
            try:
                connection = self._connection(index, host)
                connection.request("POST", self._path, body=body, headers=self._headers)
                response = connection.getresponse()
                payload = response.read()
            except (OSError, http.client.HTTPException) as e:
                self._drop(index)
                errors.append("%s (%s: %s)" % (host.address, type(e).__name__, e))
                continue
            try:
                answer = json.loads(payload) if payload else {}
            except ValueError:
                answer = {"error": payload[:300].decode("utf-8", "replace")}
            return response.status, answer if isinstance(answer, dict) else {}
        raise BulkError("ElasticsearchSink: Complete bulk has failed: no Elasticsearch node "
                        "answered at %s; check set_hosts(...) and that the node is up and "
                        "reachable" % ", ".join(errors))

    def _connection(self, index: int, host: Host) -> http.client.HTTPConnection:
        connection = self._connections.get(index)
        if connection is None:
            s = self.settings
            connect_s = (s.connect_timeout_ms if s.connect_timeout_ms is not None
                         else DEFAULT_CONNECT_TIMEOUT_MS) / 1000.0
            socket_s = (s.socket_timeout_ms if s.socket_timeout_ms is not None
                        else DEFAULT_SOCKET_TIMEOUT_MS) / 1000.0
            kind = http.client.HTTPSConnection if host.scheme == "https" \
                else http.client.HTTPConnection
            connection = kind(host.host, host.port, timeout=connect_s or None)
            connection.connect()
            connection.sock.settimeout(socket_s or None)   # 0 means no timeout (Apache's)
            self._connections[index] = connection
        return connection

    def _drop(self, index: int) -> None:
        connection = self._connections.pop(index, None)
        if connection is not None:
            connection.close()


def _failure(item: Dict[str, Any]) -> Optional[Tuple[int, str]]:
    """(status, 'type: reason') of a failed bulk item, None when it succeeded."""
    for result in item.values():
        error = result.get("error")
        if error is not None:
            return int(result.get("status", 0)), _reason({"error": error})
    return None


def _reason(answer: Dict[str, Any]) -> str:
    error = answer.get("error")
    if isinstance(error, dict):
        text = "%s: %s" % (error.get("type"), error.get("reason"))
        cause = error.get("caused_by")
        if isinstance(cause, dict):
            text += " (caused by %s: %s)" % (cause.get("type"), cause.get("reason"))
        return text
    return str(error if error is not None else answer)[:500]
