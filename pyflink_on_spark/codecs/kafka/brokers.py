"""Kafka brokers that do not answer: one clear error within a bounded time, and no client log
flood.

librdkafka (confluent-kafka) retries a broker it cannot reach for as long as the call lets it
and logs every failed attempt to stderr (a "Connection refused" line every ~0.5 s per client),
and Spark's Java Kafka reader retries its offset lookups for minutes (a job whose broker was
down failed after 39 s to 4 min, with ~700 lines of client logs). Flink's own Kafka clients
retry for long too (docs/compatibility.md, "Deliberate differences"): the shim fails such a job
fast instead, saying which servers it tried, what they answered and what to check.

How long a broker may stay silent: the Java client's setting that bounds the same wait in
Flink, when the job's properties give it (a source: `default.api.timeout.ms`, which bounds
FlinkKafkaConsumer's metadata fetch; a sink: `max.block.ms`, which bounds the producer's wait
for metadata), else BROKER_WAIT_S (Flink's clients: 60 s for both).

The shim's clients log through `error_cb` into a BrokerErrors (log_level 0: nothing on
stderr), unless the job asks for client logs itself (`debug` or `log_level` in its
properties).
"""
from __future__ import annotations

import re
import time
from typing import Dict, Iterable, List, Optional, Tuple

from pyflink_on_spark.common._job_errors import JobExecutionError

BROKER_WAIT_S = 5.0
SOURCE_WAIT = "default.api.timeout.ms"
SINK_WAIT = "max.block.ms"
# the errors a client keeps for the message: the newest few distinct texts
_KEPT = 3
# librdkafka's detail that differs between two attempts of the same failure
_ATTEMPT_DETAIL = re.compile(r" \(after \d+ms in state [A-Z_]+(, \d+ identical error\(s\) "
                             r"suppressed)?\)")


class KafkaUnreachableError(JobExecutionError):
    """No Kafka broker answered at the bootstrap servers (the message says what to check)."""


def broker_wait_seconds(properties: Dict[str, str], setting: str = SOURCE_WAIT) -> float:
    """How long the shim waits for a silent broker: the job's `setting` (ms), else
    BROKER_WAIT_S."""
    value = properties.get(setting)
    if value is None:
        return BROKER_WAIT_S
    try:
        return max(float(value) / 1000.0, 0.1)
    except ValueError:
        raise ValueError("Kafka property %s=%r is not a number of milliseconds"
                         % (setting, value)) from None


class BrokerErrors:
    """A client's error_cb: keeps the newest distinct error texts (for the message) and
    whether every broker is down."""

    def __init__(self) -> None:
        self.texts: List[str] = []
        self.all_down = False

    def __call__(self, error) -> None:
        from confluent_kafka import KafkaError
        code = error.code()
        if code == KafkaError._ALL_BROKERS_DOWN:
            self.all_down = True
            return
        text = _ATTEMPT_DETAIL.sub("", error.str())
        if text in self.texts:
            self.texts.remove(text)
        self.texts.append(text)
        del self.texts[:-_KEPT]

    def summary(self) -> str:
        return "; ".join(self.texts) if self.texts else "no answer"


def quiet_config(config: Dict[str, object], errors: BrokerErrors) -> Dict[str, object]:
    """`config` with the client's errors going to `errors` instead of stderr."""
    config = dict(config)
    config.setdefault("error_cb", errors)
    if "debug" not in config:
        config.setdefault("log_level", 0)
    return config


def unreachable_error(who: str, servers: str, wait_s: float, errors: BrokerErrors,
                      doing: str = "", setting: str = SOURCE_WAIT) -> KafkaUnreachableError:
    return KafkaUnreachableError(
        "%s: no Kafka broker answered at bootstrap.servers '%s' within %s s%s: %s. Check that "
        "the broker runs and listens there (host:port as its listeners advertise them) and "
        "that this machine can reach it; to wait longer, set the property %s (ms)."
        % (who, servers, ("%.1f" % wait_s).rstrip("0").rstrip("."),
           " " + doing if doing else "", errors.summary(), setting))


def is_unreachable(error: Exception) -> bool:
    """Whether a client call failed because no broker answered (transport, name
    resolution, all brokers down, or its own timeout)."""
    from confluent_kafka import KafkaError, KafkaException
    if not isinstance(error, KafkaException) or not error.args \
            or not isinstance(error.args[0], KafkaError):
        return False
    return error.args[0].code() in (KafkaError._TRANSPORT, KafkaError._ALL_BROKERS_DOWN,
                                    KafkaError._RESOLVE, KafkaError._TIMED_OUT)


def check_reachable(servers: str, properties: Iterable[Tuple[str, str]], who: str) -> None:
    """Raises KafkaUnreachableError unless a broker at `servers` answers a metadata request
    within the wait (broker_wait_seconds). One metadata round trip when it does."""
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import AdminClient
    props = dict(properties)
    wait_s = broker_wait_seconds(props)
    errors = BrokerErrors()
    config = {k: v for k, v in props.items() if k.startswith(("security.", "sasl.", "ssl."))
              or k in ("debug", "log_level", "client.dns.lookup")}
    config["bootstrap.servers"] = servers
    try:
        client = AdminClient(quiet_config(config, errors))
    except (KafkaException, ValueError, TypeError):
        return   # a setting librdkafka does not take: the job's own client reports it
    await_answer(client, errors, servers, wait_s, who)


def await_answer(client, errors: BrokerErrors, servers: str, wait_s: float, who: str,
                 doing: str = "", setting: str = SOURCE_WAIT) -> None:
    """Returns when a broker answers `client`'s metadata request; raises
    KafkaUnreachableError when none did within `wait_s` (`errors`: the client's
    error_cb)."""
    from confluent_kafka import KafkaException
    deadline = time.monotonic() + wait_s
    while True:
        try:
            client.list_topics(timeout=max(min(1.0, deadline - time.monotonic()), 0.05))
            return
        except KafkaException as e:
            if not is_unreachable(e):
                return   # the broker answered (with an error the job itself reports)
        client.poll(0)   # serves error_cb
        if time.monotonic() >= deadline:
            raise unreachable_error(who, servers, wait_s, errors, doing, setting) from None


def optional_check(servers: Optional[str], properties, who: str) -> None:
    """check_reachable when confluent-kafka is installed (a KafkaSource's bounded read does
    not need it otherwise)."""
    if not servers:
        return
    import importlib.util
    if importlib.util.find_spec("confluent_kafka") is None:
        return
    check_reachable(servers, properties, who)
