"""A JDBC URL -> the DB-API driver that reaches the same database.

jdbc:postgresql://host[:port][,host2[:port2]]/database[?user=..&password=..&sslmode=..]
    psycopg 3 (the `jdbc` extra: pip install 'pyflink-on-spark[jdbc]'), PostgreSQL's own `$n`
    parameters through a RawCursor (no client-side interpolation).
jdbc:sqlite:<path>
    the standard library's sqlite3.
"""
from __future__ import annotations

import datetime
import decimal
import sqlite3
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Tuple
from urllib.parse import parse_qsl

from pyflink_on_spark.codecs.jdbc.statements import NUMERIC_DOLLAR, QMARK

SUPPORTED = "jdbc:postgresql://host:port/database (psycopg 3), jdbc:sqlite:path (sqlite3)"

# PgJDBC connection properties psycopg (libpq) knows under another name; the others tune
# PgJDBC itself (reWriteBatchedInserts, prepareThreshold, ...) and mean nothing to libpq
_PG_PROPERTIES = {"user": "user", "password": "password", "sslmode": "sslmode",
                  "connectTimeout": "connect_timeout", "ApplicationName": "application_name",
                  "applicationName": "application_name"}


@dataclass(frozen=True)
class Driver:
    """How to reach one database: `connect()` opens a DB-API connection outside autocommit
    (each flushed batch is one transaction), `cursor(connection)` the cursor whose
    parameter style is `paramstyle`, `adapt(value)` a field value the driver accepts."""
    name: str
    paramstyle: str
    connect: Callable[[], Any]
    cursor: Callable[[Any], Any]
    adapt: Optional[Callable[[Any], Any]] = None
    errors: Tuple[type, ...] = (Exception,)


def driver_for(url: str, user: Optional[str] = None, password: Optional[str] = None) -> Driver:
    if url.startswith("jdbc:postgresql:"):
        return _postgresql(url, user, password)
    if url.startswith("jdbc:sqlite:"):
        return _sqlite(url[len("jdbc:sqlite:"):])
    scheme = ":".join(url.split(":")[:2]) if url.startswith("jdbc:") else url.split(":")[0]
    raise ValueError("JdbcSink: no Python database driver for the URL scheme '%s' (%s); "
                     "pyflink_on_spark runs the JDBC sink through DB-API drivers and supports %s"
                     % (scheme, url, SUPPORTED))


def postgresql_settings(url: str, user: Optional[str] = None,
                        password: Optional[str] = None) -> Dict[str, str]:
    """psycopg.connect() keywords for a PgJDBC URL; with_user_name / with_password win over
    the URL's user / password, as in PgJDBC."""
    rest = url[len("jdbc:postgresql:"):]
    if not rest.startswith("//"):
        raise ValueError("JdbcSink: a PostgreSQL URL reads jdbc:postgresql://host:port/database, "
                         "got %s" % url)
    rest, _, query = rest[2:].partition("?")
    hosts, _, database = rest.partition("/")
    names, ports = [], []
    for host in (hosts or "localhost").split(","):
        if host.startswith("["):                       # [IPv6]:port
            name, _, port = host[1:].partition("]")
            port = port.lstrip(":")
        else:
            name, _, port = host.partition(":")
        names.append(name or "localhost")
        ports.append(port or "5432")
    settings = {"host": ",".join(names), "port": ",".join(ports),
                "dbname": database or (user or "postgres")}
    for key, value in parse_qsl(query):
        if key in _PG_PROPERTIES:
            settings[_PG_PROPERTIES[key]] = value
        elif key == "currentSchema":
            settings["options"] = "-c search_path=%s" % value
    if user is not None:
        settings["user"] = user
    if password is not None:
        settings["password"] = password
    return settings


def _postgresql(url: str, user: Optional[str], password: Optional[str]) -> Driver:
    settings = postgresql_settings(url, user, password)
    try:
        import psycopg
    except ImportError:
        raise ImportError("JdbcSink with %s needs psycopg 3: pip install 'pyflink-on-spark[jdbc]' "
                          "(or pip install 'psycopg[binary]')" % url) from None

    def connect():
        return psycopg.connect(autocommit=False, **settings)

    return Driver("psycopg", NUMERIC_DOLLAR, connect,
                  lambda connection: psycopg.RawCursor(connection),
                  errors=(psycopg.Error,))


def _sqlite_value(value: Any) -> Any:
    # sqlite3 has no Decimal / time adapters and deprecates its date ones (Python 3.12):
    # they are stored as the ISO text SQLite's date functions read
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, datetime.datetime):
        return value.isoformat(" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return value


def _sqlite(path: str) -> Driver:
    def connect():
        return sqlite3.connect(path, timeout=30)

    return Driver("sqlite3", QMARK, connect, lambda connection: connection.cursor(),
                  adapt=_sqlite_value, errors=(sqlite3.Error,))


def adapt_row(driver: Driver, values: Sequence[Any]) -> Tuple[Any, ...]:
    adapt = driver.adapt
    return tuple(values) if adapt is None else tuple(adapt(v) for v in values)
