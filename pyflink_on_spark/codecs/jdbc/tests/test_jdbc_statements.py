"""JDBC `?` placeholders -> the driver's parameter style, never inside literals or comments."""
import pytest

from pyflink_on_spark.codecs.jdbc.drivers import driver_for, postgresql_settings
from pyflink_on_spark.codecs.jdbc.statements import (FORMAT, NUMERIC_DOLLAR, QMARK,
                                                     convert_placeholders)


def test_upsert_placeholders_become_numbered_parameters():
    sql = ("INSERT INTO t (id, name) VALUES (?, ?) "
           "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name || '?'")
    assert convert_placeholders(sql, NUMERIC_DOLLAR) == (
        "INSERT INTO t (id, name) VALUES ($1, $2) "
        "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name || '?'", 2)
    assert convert_placeholders(sql, QMARK) == (sql, 2)


@pytest.mark.parametrize("text", [
    "'a ? b'", "'it''s ?'", "E'\\' ?'", '"col?"', "$$ ? $$", "$fn$ ? $fn$",
    "-- a ? comment\n", "/* ? /* nested ? */ ? */",
])
def test_question_marks_in_literals_and_comments_stay_text(text):
    sql = "SELECT " + text + " , ?"
    converted, count = convert_placeholders(sql, NUMERIC_DOLLAR)
    assert count == 1
    assert converted == "SELECT " + text + " , $1"


def test_format_style_doubles_percent_signs_and_pgjdbc_escape():
    assert convert_placeholders("SELECT '5%', ? % 2, data ?? 'k'", FORMAT) == (
        "SELECT '5%%', %s %% 2, data ? 'k'", 1)


def test_postgresql_url_settings():
    assert postgresql_settings("jdbc:postgresql://db.example:6432/shop?user=app&password=x"
                               "&reWriteBatchedInserts=true&sslmode=require") == {
        "host": "db.example", "port": "6432", "dbname": "shop", "user": "app",
        "password": "x", "sslmode": "require", "connect_timeout": "10"}
    # with_user_name / with_password win over the URL, as in PgJDBC; hosts lists and IPv6
    settings = postgresql_settings("jdbc:postgresql://a,[::1]:5433/db?user=u", "v", "secret")
    assert (settings["host"], settings["port"], settings["user"], settings["password"]) == \
        ("a,::1", "5432,5433", "v", "secret")


def test_unknown_url_scheme_names_it_and_what_is_supported():
    with pytest.raises(ValueError) as error:
        driver_for("jdbc:oracle:thin:@host:1521:orcl")
    assert "jdbc:oracle" in str(error.value)
    assert "jdbc:postgresql://" in str(error.value) and "jdbc:sqlite:" in str(error.value)
