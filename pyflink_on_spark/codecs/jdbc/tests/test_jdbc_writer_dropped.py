"""The JDBC batching writer against the session's MariaDB and PostgreSQL (no Spark): a
connection the server drops between flushes fails with one message naming the database's
host:port (no record is blamed), and with_max_retries reconnects and writes the batch again."""
import pymysql

from pyflink_on_spark.codecs.jdbc.drivers import driver_for
from pyflink_on_spark.codecs.jdbc.mysql import mysql_settings
from pyflink_on_spark.codecs.jdbc.writer import JdbcBatchWriter, JdbcWriteError


def _admin(url):
    settings = mysql_settings(url)
    host, port = settings.hosts[0]
    return pymysql.connect(**dict(settings.connect_kwargs(host, port), autocommit=True))


def _writer(url, table, retries):
    writer = JdbcBatchWriter("INSERT INTO %s (id) VALUES (?)" % table, driver_for(url), 10, 0,
                             retries, sleep=lambda s: None)
    writer.open()
    return writer


def _drop_connection(admin, writer):
    with admin.cursor() as cursor:
        cursor.execute("KILL CONNECTION %d" % writer._connection.thread_id())


def _ids(admin, table):
    with admin.cursor() as cursor:
        cursor.execute("SELECT id FROM %s ORDER BY id" % table)
        return [row[0] for row in cursor.fetchall()]


def test_a_dropped_connection_fails_naming_the_database_or_is_retried(mariadb):
    admin = _admin(mariadb)
    with admin.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS dropped")
        cursor.execute("CREATE TABLE dropped (id int PRIMARY KEY)")
    target = "%s:%d" % mysql_settings(mariadb).hosts[0]

    writer = _writer(mariadb, "dropped", retries=0)
    writer.add((1,))
    writer.flush()
    _drop_connection(admin, writer)
    writer.add((2,))
    try:
        writer.flush()
        raise AssertionError("the flush on a dropped connection did not fail")
    except JdbcWriteError as e:
        text = str(e)
    writer.close()
    assert "failed after 1 attempt (with_max_retries(0)): the connection to the database at " \
        "%s broke (PyMySQL: " % target in text, text
    assert "Check that the database server at %s is still running" % target in text
    assert "for the record" not in text         # no record is to blame

    writer = _writer(mariadb, "dropped", retries=1)
    _drop_connection(admin, writer)
    writer.add((3,))
    writer.flush()                              # reconnected, the batch written again
    writer.close()
    assert _ids(admin, "dropped") == [1, 3]
    admin.close()


def test_a_connection_postgresql_drops_fails_naming_the_database(postgres):
    import psycopg
    from pyflink_on_spark.codecs.jdbc.drivers import postgresql_settings
    admin = psycopg.connect(**postgresql_settings(postgres), autocommit=True)
    admin.execute("DROP TABLE IF EXISTS dropped")
    admin.execute("CREATE TABLE dropped (id int PRIMARY KEY)")
    settings = postgresql_settings(postgres)
    target = "%s:%s" % (settings["host"], settings["port"])
    writer = _writer(postgres, "dropped", retries=0)
    admin.execute("SELECT pg_terminate_backend(%s)", (writer._connection.info.backend_pid,))
    writer.add((1,))
    try:
        writer.flush()
        raise AssertionError("the flush on a dropped connection did not fail")
    except JdbcWriteError as e:
        text = str(e)
    writer.close()
    assert "the connection to the database at %s broke (psycopg: " % target in text, text
    assert "for the record" not in text
    admin.close()
