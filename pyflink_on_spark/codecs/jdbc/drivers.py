"""A JDBC URL -> the DB-API driver that reaches the same database.

jdbc:postgresql://host[:port][,host2[:port2]]/database[?user=..&password=..&sslmode=..]
    psycopg 3 (the `jdbc` extra: pip install 'pyflink-on-spark[jdbc]'), PostgreSQL's own `$n`
    parameters through a RawCursor (no client-side interpolation).
jdbc:mysql://host:port/database, jdbc:mariadb://host:port/database (?user=..&password=..)
    PyMySQL (the `mysql` extra: pip install 'pyflink-on-spark[mysql]'), see mysql.py.
jdbc:sqlite:<path>
    the standard library's sqlite3.
"""
from __future__ import annotations

import datetime
import decimal
import re
import sqlite3
import struct
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Tuple
from urllib.parse import parse_qsl

from pyflink_on_spark.codecs.jdbc.mysql import mysql_settings
from pyflink_on_spark.codecs.jdbc.statements import (FORMAT, MYSQL, NUMERIC_DOLLAR, POSTGRESQL,
                                                     QMARK)

SUPPORTED = ("jdbc:postgresql://host:port/database (psycopg 3), jdbc:mysql://host:port/database "
             "and jdbc:mariadb://host:port/database (PyMySQL), jdbc:sqlite:path (sqlite3)")

# PgJDBC connection properties psycopg (libpq) knows under another name; the others tune
# PgJDBC itself (reWriteBatchedInserts, prepareThreshold, ...) and mean nothing to libpq
_PG_PROPERTIES = {"user": "user", "password": "password", "sslmode": "sslmode",
                  "connectTimeout": "connect_timeout", "ApplicationName": "application_name",
                  "applicationName": "application_name"}


@dataclass(frozen=True)
class Driver:
    """How to reach one database: `connect()` opens a DB-API connection outside autocommit
    (each flushed batch is one transaction), `cursor(connection)` the cursor whose
    parameter style is `paramstyle` (statements read with the lexer of `dialect`),
    `adapt(value)` a field value the driver accepts, `adapt_as(value, sql_type)` one set as
    Flink's JDBC type `sql_type` (parameters.py) where the type decides. `target` (host:port)
    and `url` (without its password) name the database in messages."""
    name: str
    paramstyle: str
    connect: Callable[[], Any]
    cursor: Callable[[Any], Any]
    adapt: Optional[Callable[[Any], Any]] = None
    errors: Tuple[type, ...] = (Exception,)
    dialect: str = POSTGRESQL
    target: str = ""
    url: str = ""
    adapt_as: Optional[Callable[[Any, str], Any]] = None
    connect_errors: Tuple[type, ...] = ()     # connect() failing: the database is not reachable


def driver_for(url: str, user: Optional[str] = None, password: Optional[str] = None) -> Driver:
    if url.startswith("jdbc:postgresql:"):
        return _postgresql(url, user, password)
    if url.startswith(("jdbc:mysql:", "jdbc:mariadb:")):
        return _mysql(url, user, password)
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
    # connect_timeout: PgJDBC's connectTimeout defaults to 10 s (libpq's waits forever)
    settings = {"host": ",".join(names), "port": ",".join(ports),
                "dbname": database or (user or "postgres"), "connect_timeout": "10"}
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
        raise ImportError("JdbcSink / jdbc table with %s needs psycopg 3: pip install "
                          "'pyflink-on-spark[jdbc]' (or pip install 'psycopg[binary]')"
                          % redacted(url)) from None

    def connect():
        return psycopg.connect(autocommit=False, **settings)

    target = ",".join(("[%s]:%s" if ":" in h else "%s:%s") % (h, p) for h, p in
                      zip(settings["host"].split(","), settings["port"].split(",")))
    return Driver("psycopg", NUMERIC_DOLLAR, connect,
                  lambda connection: psycopg.RawCursor(connection),
                  errors=(psycopg.Error,), target=target, url=redacted(url),
                  connect_errors=(psycopg.OperationalError,))


def redacted(url: str) -> str:
    """The URL as messages show it: a password in it replaced by ***."""
    url = re.sub(r"(?i)(password=)[^&;]*", r"\1***", url)
    return re.sub(r"^(jdbc:mysql:(?:[a-z]+:)?//[^/@:]*:)[^@/]*@", r"\1***@", url)


def _float32_text(value: float) -> Any:
    """A FLOAT field as Java's Float.toString writes it (the shortest decimal that reads back
    as the same float32): what MySQL's and MariaDB's Connector/J send for setFloat."""
    if value != value or value in (float("inf"), float("-inf")):
        return value
    single = struct.unpack("f", struct.pack("f", value))[0]
    for digits in range(1, 10):
        text = "%.*g" % (digits, single)
        if struct.unpack("f", struct.pack("f", float(text)))[0] == single:
            return decimal.Decimal(text)
    return value


def _mysql_value(value: Any, sql_type: str) -> Any:
    if sql_type == "FLOAT" and isinstance(value, float):
        return _float32_text(value)
    return value


def _mysql(url: str, user: Optional[str], password: Optional[str]) -> Driver:
    settings = mysql_settings(url, user, password)
    try:
        import pymysql
    except ImportError:
        raise ImportError("JdbcSink with %s needs PyMySQL: pip install 'pyflink-on-spark[mysql]' "
                          "(or pip install pymysql)" % redacted(url)) from None

    def connect():
        # the hosts in order, the first that answers (the drivers' failover order)
        failures = []
        for host, port in settings.hosts:
            try:
                # binary_prefix: bytes go as _binary'...', never read as utf8mb4 text
                connection = pymysql.connect(binary_prefix=True,
                                             **settings.connect_kwargs(host, port))
            except pymysql.err.OperationalError as e:
                failures.append(e)
                continue
            # the handshake waited at most connectTimeout (a server that accepts and never
            # answers); the statements wait socketTimeout, as in Connector/J (0: forever)
            connection._read_timeout = connection._write_timeout = \
                settings.socket_timeout_ms / 1000 or None
            return connection
        raise failures[-1] if len(failures) == 1 else pymysql.err.OperationalError(
            failures[-1].args[0], "; ".join("%s:%d: %s" % (h, p, e.args[-1]) for (h, p), e
                                            in zip(settings.hosts, failures)))

    return Driver("PyMySQL", FORMAT, connect, lambda connection: connection.cursor(),
                  errors=(pymysql.err.MySQLError,), dialect=MYSQL, target=settings.target,
                  url=redacted(url), adapt_as=_mysql_value,
                  connect_errors=(pymysql.err.OperationalError,))


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


def adapt_row(driver: Driver, values: Sequence[Any],
              sql_types: Sequence[str] = ()) -> Tuple[Any, ...]:
    adapt = driver.adapt
    row = tuple(values) if adapt is None else tuple(adapt(v) for v in values)
    if driver.adapt_as is not None and sql_types:
        row = tuple(driver.adapt_as(v, t) for v, t in zip(row, sql_types)) + row[len(sql_types):]
    return row
