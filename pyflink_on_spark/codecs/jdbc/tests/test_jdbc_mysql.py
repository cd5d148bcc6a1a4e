"""jdbc:mysql: / jdbc:mariadb: URLs -> PyMySQL's settings, MySQL's lexer for `?`, and FLOAT
fields written as Connector/J writes them."""
import decimal

import pytest

from pyflink_on_spark.codecs.jdbc.drivers import _float32_text, driver_for, redacted
from pyflink_on_spark.codecs.jdbc.mysql import mysql_settings
from pyflink_on_spark.codecs.jdbc.statements import FORMAT, MYSQL, convert_placeholders


def test_mariadb_url_hosts_database_and_properties():
    s = mysql_settings("jdbc:mariadb://db1:3307,address=(host=db2)(port=3308)(type=replica),"
                       "[::1]/shop?user=app&password=p%41&connectTimeout=1500&socketTimeout=20")
    assert s.hosts == (("db1", 3307), ("db2", 3308), ("::1", 3306))
    assert (s.database, s.user, s.password) == ("shop", "app", "p%41")  # taken as written
    kwargs = s.connect_kwargs("db1", 3307)
    # the handshake waits connectTimeout (drivers.py sets socketTimeout once connected)
    assert (kwargs["connect_timeout"], kwargs["read_timeout"], kwargs["autocommit"]) == \
        (1.5, 1.5, False)
    assert s.target == "db1:3307,db2:3308,[::1]:3306"


def test_mysql_url_forms():
    s = mysql_settings("jdbc:mysql://sandy:s%40cret@[h1:1111,(host=h2,port=2222)]/d%20b"
                       "?connectTimeout=0")
    assert s.hosts == (("h1", 1111), ("h2", 2222))
    assert (s.user, s.password, s.database) == ("sandy", "s@cret", "d b")
    kwargs = s.connect_kwargs("h1", 1111)
    # 0: no limit, as in Java (PyMySQL's longest), the handshake too
    assert kwargs["connect_timeout"] == 31536000 and "read_timeout" not in kwargs
    s = mysql_settings("jdbc:mysql:loadbalance://localhost")
    assert (s.hosts, s.database) == ((("localhost", 3306),), None)


def test_builder_credentials_win_on_mysql_and_fill_in_on_mariadb():
    # observed with PyFlink 1.20.5's JdbcSink: Connector/J 8.4 lets with_user_name win,
    # MariaDB Connector/J 3.5 keeps the URL's user
    mysql = mysql_settings("jdbc:mysql://h/db?user=url&password=urlpw", "builder", "bpw")
    assert (mysql.user, mysql.password) == ("builder", "bpw")
    mariadb = mysql_settings("jdbc:mariadb://h/db?user=url", "builder", "bpw")
    assert (mariadb.user, mariadb.password) == ("url", "bpw")


def test_the_default_connect_timeout_is_mariadb_connector_js_for_both_schemes():
    # Connector/J's default (0) would let a server that never answers hang the job
    assert mysql_settings("jdbc:mariadb://h/db").connect_timeout_ms == 30000
    assert mysql_settings("jdbc:mysql://h/db").connect_timeout_ms == 30000


@pytest.mark.parametrize("mode, tls", [("DISABLED", "off"), ("PREFERRED", "off"),
                                       ("REQUIRED", "encrypt"), ("verify-ca", "verify-ca"),
                                       ("VERIFY_IDENTITY", "verify-full"), ("trust", "encrypt")])
def test_ssl_modes(mode, tls):
    assert mysql_settings("jdbc:mysql://h/db?sslMode=" + mode).tls == tls


def test_bad_values_are_refused_naming_them():
    with pytest.raises(ValueError, match="connectTimeout=soon"):
        mysql_settings("jdbc:mariadb://h/db?connectTimeout=soon")
    with pytest.raises(ValueError, match="sslMode=maybe"):
        mysql_settings("jdbc:mysql://h/db?sslMode=maybe")
    with pytest.raises(ValueError, match="jdbc:mariadb://host:port/database"):
        mysql_settings("jdbc:mariadb:h/db")


def test_mysql_lexer_keeps_question_marks_in_literals_and_comments():
    sql = ("INSERT INTO t VALUES (?, 'it\\'s ?', \"?\", `c?`, ?) # ?\n -- ?\n /* ? */ "
           "ON DUPLICATE KEY UPDATE x = '5%' + ? ??")
    converted, count = convert_placeholders(sql, FORMAT, MYSQL)
    assert count == 5                      # `??` is two parameters on MySQL
    assert converted == ("INSERT INTO t VALUES (%s, 'it\\'s ?', \"?\", `c?`, %s) # ?\n -- ?\n "
                         "/* ? */ ON DUPLICATE KEY UPDATE x = '5%%' + %s %s%s")


def test_float_fields_go_as_javas_float_to_string():
    assert _float32_text(1 / 3) == decimal.Decimal("0.33333334")
    assert _float32_text(2.5) == decimal.Decimal("2.5")


def test_passwords_never_show_in_messages():
    assert redacted("jdbc:mariadb://h/db?user=a&password=secret&x=1") == \
        "jdbc:mariadb://h/db?user=a&password=***&x=1"
    assert redacted("jdbc:mysql://a:secret@h/db") == "jdbc:mysql://a:***@h/db"
    driver = driver_for("jdbc:mysql://h:1/db?password=secret")
    assert (driver.target, driver.url) == ("h:1", "jdbc:mysql://h:1/db?password=***")
