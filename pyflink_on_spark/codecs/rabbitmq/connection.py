"""A pika connection for RMQConnectionConfig's settings, and the errors a person can act on.

The settings are RMQConnectionConfig's (datastream/connectors/rabbitmq.py), as a plain dict:
host / port / virtual_host / user_name / password, or a uri (amqp://user:pass@host:port/vhost),
and the tuning values (connection_timeout ms, requested_heartbeat s, requested_frame_max,
requested_channel_max, prefetch_count).

A broker that cannot be reached fails in one message within the connection timeout (the
config's, else the Java client's default Flink uses: 60 s; a refused connection fails at
once): what was tried (host:port, virtual host, user), pika's reason, and what to check.
pika's own log lines about the failed attempt are not printed (its logger gets a
NullHandler, unless the program configured logging for it).
"""
from __future__ import annotations

import logging
from typing import Any, Dict, Optional

DEFAULT_PORT = 5672
DEFAULT_CONNECTION_TIMEOUT_MS = 60_000      # the RabbitMQ Java client's default


class RabbitMQConnectionError(RuntimeError):
    """The broker could not be reached or refused the connection (the message says what to
    check)."""


def require_pika(who: str):
    try:
        import pika
    except ImportError:
        raise ImportError("%s talks to RabbitMQ with the pika package: pip install "
                          "'pyflink-on-spark[rabbitmq]' (or pika)" % who) from None
    _quiet_pika_logs()
    return pika


def _quiet_pika_logs() -> None:
    """pika logs every failed connection attempt at ERROR (a dozen lines with tracebacks);
    the error raised here says it once. A program that set up pika's logger keeps it."""
    logger = logging.getLogger("pika")
    if not logger.handlers and logger.level == logging.NOTSET:
        logger.addHandler(logging.NullHandler())
        logger.propagate = False


def where(settings: Dict[str, Any]) -> str:
    """host:port (virtual host, user) the settings name, for messages."""
    uri = settings.get("uri")
    if uri:
        pika = require_pika("RabbitMQ")
        p = pika.URLParameters(uri)
        return "%s:%d (virtual host %r, user %r)" % (p.host, p.port, p.virtual_host,
                                                     p.credentials.username)
    return "%s:%s (virtual host %r, user %r)" % (
        settings.get("host"), settings.get("port", DEFAULT_PORT),
        settings.get("virtual_host"), settings.get("user_name"))


def parameters(settings: Dict[str, Any]):
    """pika.ConnectionParameters for RMQConnectionConfig's settings: one attempt, bounded by
    the connection timeout."""
    pika = require_pika("RabbitMQ")
    timeout_s = (settings.get("connection_timeout") or DEFAULT_CONNECTION_TIMEOUT_MS) / 1000.0
    tuning: Dict[str, Any] = {"connection_attempts": 1, "retry_delay": 0,
                              "socket_timeout": timeout_s, "stack_timeout": timeout_s,
                              "blocked_connection_timeout": timeout_s}
    if settings.get("requested_heartbeat") is not None:
        tuning["heartbeat"] = int(settings["requested_heartbeat"])
    if settings.get("requested_frame_max"):
        tuning["frame_max"] = int(settings["requested_frame_max"])
    if settings.get("requested_channel_max"):
        tuning["channel_max"] = int(settings["requested_channel_max"])
    if settings.get("uri"):
        p = pika.URLParameters(settings["uri"])
        for name, value in tuning.items():
            setattr(p, name, value)
        return p
    return pika.ConnectionParameters(
        host=settings["host"], port=int(settings.get("port", DEFAULT_PORT)),
        virtual_host=settings["virtual_host"],
        credentials=pika.PlainCredentials(settings["user_name"], settings["password"]),
        **tuning)


def connect(settings: Dict[str, Any], who: str):
    """A pika BlockingConnection, or one RabbitMQConnectionError saying what to check."""
    pika = require_pika(who)
    try:
        return pika.BlockingConnection(parameters(settings))
    except pika.exceptions.ProbableAuthenticationError as e:
        raise RabbitMQConnectionError(
            "%s: RabbitMQ at %s refused the login (%s). Check the user name and password of "
            "the RMQConnectionConfig." % (who, where(settings), _reason(e))) from None
    except pika.exceptions.ProbableAccessDeniedError as e:
        raise RabbitMQConnectionError(
            "%s: RabbitMQ at %s denied access (%s). Check that the virtual host exists and "
            "that the user may use it." % (who, where(settings), _reason(e))) from None
    except (pika.exceptions.AMQPError, OSError) as e:   # OSError: a name that does not resolve
        raise RabbitMQConnectionError(
            "%s: cannot connect to RabbitMQ at %s: %s. Check that the broker runs and "
            "listens there (RMQConnectionConfig host / port or URI) and that this machine "
            "can reach it." % (who, where(settings), _reason(e))) from None


def _reason(error: Exception) -> str:
    """pika's reason, without its nesting (AMQPConnectionError wraps a connector error,
    which holds the socket error as `.exception`)."""
    inner: BaseException = error
    for _ in range(5):
        nested = getattr(inner, "exception", None)
        if not isinstance(nested, BaseException) and inner.args \
                and isinstance(inner.args[0], BaseException):
            nested = inner.args[0]
        if not isinstance(nested, BaseException):
            break
        inner = nested
    if isinstance(inner, ConnectionRefusedError):
        return "connection refused"
    if isinstance(inner, (TimeoutError, OSError)) and inner.strerror:
        return inner.strerror
    return str(inner) or type(inner).__name__


def declare_queue(channel, queue_name: str, settings: Dict[str, Any], who: str) -> None:
    """Flink's Util.declareQueueDefaults: durable, not exclusive, not auto-deleted, no
    arguments (RMQSource and RMQSink both declare their queue so)."""
    pika = require_pika(who)
    try:
        channel.queue_declare(queue_name, durable=True, exclusive=False, auto_delete=False)
    except pika.exceptions.ChannelClosedByBroker as e:
        raise RabbitMQConnectionError(
            "%s: declaring the queue %r on RabbitMQ at %s failed: %s %s. Flink declares it "
            "durable, not exclusive, not auto-deleted, without arguments: a queue of that "
            "name declared otherwise must be deleted or renamed."
            % (who, queue_name, where(settings), e.reply_code, e.reply_text)) from None


def connection_lost(settings: Dict[str, Any], who: str, error: Exception,
                    doing: str) -> RabbitMQConnectionError:
    return RabbitMQConnectionError(
        "%s: the connection to RabbitMQ at %s was lost while %s: %s. Check that the broker "
        "still runs (its log says why it closed the connection)."
        % (who, where(settings), doing, _reason(error) if str(error) else type(error).__name__))
