"""jdbc:mysql:// and jdbc:mariadb:// URLs -> PyMySQL (pure Python: the `mysql` extra, and shipped
to a cluster's executors with the shim, spark/package_shipping.py).

The URL forms of MySQL Connector/J and MariaDB Connector/J:

  jdbc:mysql:[loadbalance:|replication:]//[user[:password]@]hosts[/database][?key=value&...]
  jdbc:mariadb:[replication:|loadbalance:|sequential:]//hosts[/database][?key=value&...]

hosts: comma-separated `host`, `host:port`, `[IPv6]:port`, `address=(host=h)(port=p)(...)`
or (MySQL) `(host=h,port=p,...)`, optionally in [brackets] (MySQL); the port defaults to 3306.
PyMySQL reaches one server: the hosts are tried in order, the first that answers is used (the
drivers' failover order; load balancing and replication are not reproduced).

Properties read: user, password, connectTimeout and socketTimeout (milliseconds, as in Java;
0 waits forever), sslMode (MySQL: DISABLED / PREFERRED / REQUIRED / VERIFY_CA /
VERIFY_IDENTITY; MariaDB: disable / trust / verify-ca / verify-full), useSSL / useSsl, and
MariaDB's serverSslCert (a PEM file: the CA). PREFERRED connects without TLS (PyMySQL cannot
fall back). Other properties tune the Java drivers and mean nothing to PyMySQL.

Credentials, as observed with PyFlink 1.20.5's JdbcSink (flink-connector-jdbc 3.1.2-1.18):
with MySQL Connector/J 8.4 with_user_name / with_password win over the URL's user / password;
with MariaDB Connector/J 3.5 the URL's win and the builder's only fill in what the URL lacks
(compat case jdbc/mysql_credentials).
"""
from __future__ import annotations

import re
import ssl
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import unquote

DEFAULT_PORT = 3306
# the wait for a connection when the URL says nothing (milliseconds): MariaDB Connector/J 3.x's
# 30 s. MySQL Connector/J's 0 waits without limit, and a server that accepts and never
# answers would hang the job: it gets MariaDB's bound (only the failure's timing differs)
_DEFAULT_CONNECT_TIMEOUT_MS = {"mysql": 30000, "mariadb": 30000}
_PYMYSQL_MAX_TIMEOUT_S = 31536000           # PyMySQL refuses a longer connect_timeout (or None)
_MODES = {"mysql": ("loadbalance:", "replication:"),
          "mariadb": ("replication:", "loadbalance:", "sequential:")}
_ADDRESS_PART = re.compile(r"\(\s*([^=()]+?)\s*=\s*([^()]*?)\s*\)")


@dataclass(frozen=True)
class MySQLSettings:
    """Where and how PyMySQL connects, from one JDBC URL and the builder's credentials."""
    scheme: str                                   # "mysql" or "mariadb"
    hosts: Tuple[Tuple[str, int], ...]
    database: Optional[str]
    user: Optional[str]
    password: Optional[str]
    connect_timeout_ms: int
    socket_timeout_ms: int = 0
    tls: str = "off"                              # off | encrypt | verify-ca | verify-full
    ca_file: Optional[str] = None
    properties: Dict[str, str] = field(default_factory=dict)

    @property
    def target(self) -> str:
        """host:port[,host:port...] for messages."""
        return ",".join(("[%s]:%d" if ":" in h else "%s:%d") % (h, p) for h, p in self.hosts)

    def connect_kwargs(self, host: str, port: int) -> Dict[str, Any]:
        """PyMySQL's connect() keywords for one of the hosts, outside autocommit (a flushed
        batch is one transaction, as the Java sink commits a batch)."""
        kwargs: Dict[str, Any] = {"host": host, "port": port, "database": self.database,
                                  "autocommit": False, "charset": "utf8mb4"}
        if self.user is not None:
            kwargs["user"] = self.user
        if self.password is not None:
            kwargs["password"] = self.password
        # Java's 0 (no limit): PyMySQL's longest; the OS bounds a TCP connect anyway
        kwargs["connect_timeout"] = self.connect_timeout_ms / 1000 or _PYMYSQL_MAX_TIMEOUT_S
        # the handshake: PyMySQL reads it with read_timeout; drivers.py sets socketTimeout after
        handshake = self.connect_timeout_ms or self.socket_timeout_ms
        if handshake:
            kwargs["read_timeout"] = kwargs["write_timeout"] = handshake / 1000
        if self.tls != "off":
            kwargs["ssl"] = self.ssl_context()
        return kwargs

    def ssl_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(cafile=self.ca_file)
        context.check_hostname = self.tls == "verify-full"
        if self.tls == "encrypt":
            context.verify_mode = ssl.CERT_NONE
        return context


def _split_hosts(text: str) -> List[str]:
    """Comma-separated host descriptions; commas inside (...) or [...] stay."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _host(description: str, url: str) -> Tuple[str, int]:
    pairs: Dict[str, str] = {}
    if description.lower().startswith("address="):
        pairs = {k.lower(): v for k, v in _ADDRESS_PART.findall(description)}
    elif description.startswith("("):
        inner = description.strip("()")
        pairs = {k.strip().lower(): v.strip() for k, _, v in
                 (p.partition("=") for p in inner.split(","))}
    if pairs or description.lower().startswith("address="):
        name, port = pairs.get("host", "localhost"), pairs.get("port", "")
    elif description.startswith("["):                    # [IPv6]:port
        name, _, port = description[1:].partition("]")
        port = port.lstrip(":")
    else:
        name, _, port = description.rpartition(":") if description.count(":") == 1 \
            else (description, "", "")
    if port and not port.isdigit():
        raise ValueError("JdbcSink: the port of '%s' in %s is not a number" % (description, url))
    return name or "localhost", int(port) if port else DEFAULT_PORT


def mysql_settings(url: str, user: Optional[str] = None,
                   password: Optional[str] = None) -> MySQLSettings:
    """The settings of a jdbc:mysql: or jdbc:mariadb: URL; `user` / `password` are the
    builder's with_user_name / with_password."""
    scheme = "mariadb" if url.startswith("jdbc:mariadb:") else "mysql"
    rest = url[len("jdbc:%s:" % scheme):]
    for mode in _MODES[scheme]:
        if rest.startswith(mode):
            rest = rest[len(mode):]
            break
    if not rest.startswith("//"):
        raise ValueError("JdbcSink: a %s URL reads jdbc:%s://host:port/database, got %s"
                         % ("MariaDB" if scheme == "mariadb" else "MySQL", scheme, url))
    rest, _, query = rest[2:].partition("?")
    authority, _, database = rest.partition("/")
    url_user = url_password = None
    if scheme == "mysql" and "@" in re.split(r"[(\[]", authority, 1)[0]:
        credentials, _, authority = authority.partition("@")     # user:password@hosts
        url_user, _, url_password = credentials.partition(":")
        url_user = unquote(url_user)
        url_password = unquote(url_password) if ":" in credentials else None
    inner = authority[1:-1]
    if authority.startswith("[") and authority.endswith("]") and \
            ("," in inner or inner.count(":") <= 1):
        authority = inner                               # MySQL's [host1:port1,host2] list
    hosts = tuple(_host(d, url) for d in _split_hosts(authority)) or \
        (("localhost", DEFAULT_PORT),)
    properties: Dict[str, str] = {}
    for pair in query.split("&"):
        if not pair:
            continue
        key, _, value = pair.partition("=")
        # Connector/J decodes %XX in values; MariaDB Connector/J takes them as written
        properties[key] = unquote(value) if scheme == "mysql" else value
    url_user = properties.get("user", url_user)
    url_password = properties.get("password", url_password)
    if scheme == "mysql":       # Connector/J: the builder's credentials win
        user = user if user is not None else url_user
        password = password if password is not None else url_password
    else:                       # MariaDB Connector/J: the URL's win
        user = url_user if url_user is not None else user
        password = url_password if url_password is not None else password
    return MySQLSettings(
        scheme, hosts, unquote(database) or None, user, password,
        _milliseconds(properties, "connectTimeout", _DEFAULT_CONNECT_TIMEOUT_MS[scheme], url),
        _milliseconds(properties, "socketTimeout", 0, url), _tls(properties, url),
        properties.get("serverSslCert") if scheme == "mariadb" else None, properties)


def _milliseconds(properties: Dict[str, str], key: str, default: int, url: str) -> int:
    value = properties.get(key)
    if value is None or value == "":
        return default
    if not value.isdigit():
        raise ValueError("JdbcSink: %s=%s in %s is not a number of milliseconds"
                         % (key, value, url))
    return int(value)


_SSL_MODES = {"disabled": "off", "disable": "off", "preferred": "off", "required": "encrypt",
              "trust": "encrypt", "verify_ca": "verify-ca", "verify-ca": "verify-ca",
              "verify_identity": "verify-full", "verify-full": "verify-full"}


def _tls(properties: Dict[str, str], url: str) -> str:
    mode = properties.get("sslMode") or properties.get("sslmode")
    if mode:
        if mode.lower() not in _SSL_MODES:
            raise ValueError("JdbcSink: sslMode=%s in %s is none of %s"
                             % (mode, url, ", ".join(sorted(_SSL_MODES))))
        return _SSL_MODES[mode.lower()]
    use = properties.get("useSSL", properties.get("useSsl", ""))
    return "encrypt" if use.lower() == "true" else "off"
