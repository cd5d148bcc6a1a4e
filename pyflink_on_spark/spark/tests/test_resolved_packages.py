"""The jars Ivy resolved, kept for the next start (spark/resolved_packages.py): file-level
rules, no Spark."""
import os

from pyflink_on_spark.spark.resolved_packages import known_jars, remember

KAFKA = ["org.apache.spark:spark-sql-kafka-0-10_2.13:4.2.0"]
EXCLUDES = ["org.apache.hadoop:hadoop-client-api"]


def _jars(tmp_path, *names):
    paths = []
    for name in names:
        path = tmp_path / "ivy" / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"x" * (10 + len(paths)))
        paths.append(str(path))
    return paths


def test_a_start_that_resolved_records_the_jars_it_added_and_the_next_start_takes_them(
        tmp_path):
    records = str(tmp_path / "records")
    users, kafka, clients = _jars(tmp_path, "users.jar", "kafka.jar", "clients.jar")
    assert known_jars(KAFKA, EXCLUDES, {}, "4.2.0", records) is None   # nothing yet
    # Spark writes the resolved jars as file:// URLs after the user's own spark.jars
    remember(KAFKA, EXCLUDES, users, ",".join([users, "file://" + kafka, "file://" + clients]),
             "4.2.0", records)
    assert known_jars(KAFKA, EXCLUDES, {}, "4.2.0", records) == [kafka, clients]
    assert oct(os.stat(records).st_mode & 0o777) == "0o700"


def test_another_resolution_has_its_own_record(tmp_path):
    records = str(tmp_path / "records")
    kafka, = _jars(tmp_path, "kafka.jar")
    remember(KAFKA, EXCLUDES, "", kafka, "4.2.0", records)
    assert known_jars(KAFKA, [], {}, "4.2.0", records) is None
    assert known_jars(KAFKA, EXCLUDES, {}, "4.1.0", records) is None
    assert known_jars(KAFKA + ["g:a:1"], EXCLUDES, {}, "4.2.0", records) is None
    assert known_jars(list(reversed(KAFKA)), list(EXCLUDES), {}, "4.2.0", records) == [kafka]


def test_a_jar_gone_or_changed_sends_the_start_back_to_ivy(tmp_path):
    records = str(tmp_path / "records")
    kafka, clients = _jars(tmp_path, "kafka.jar", "clients.jar")
    remember(KAFKA, EXCLUDES, "", "%s,%s" % (kafka, clients), "4.2.0", records)
    with open(clients, "ab") as f:
        f.write(b"more")
    assert known_jars(KAFKA, EXCLUDES, {}, "4.2.0", records) is None
    os.remove(clients)
    assert known_jars(KAFKA, EXCLUDES, {}, "4.2.0", records) is None


def test_the_users_own_ivy_settings_or_packages_always_go_through_ivy(tmp_path):
    records = str(tmp_path / "records")
    kafka, = _jars(tmp_path, "kafka.jar")
    remember(KAFKA, EXCLUDES, "", kafka, "4.2.0", records)
    for key in ("spark.jars.packages", "spark.jars.repositories", "spark.jars.ivy",
                "spark.jars.ivySettings"):
        assert known_jars(KAFKA, EXCLUDES, {key: "x"}, "4.2.0", records) is None, key
    assert known_jars([], EXCLUDES, {}, "4.2.0", records) is None


def test_nothing_added_records_nothing_and_a_directory_not_ours_is_not_read(tmp_path):
    records = str(tmp_path / "records")
    kafka, = _jars(tmp_path, "kafka.jar")
    remember(KAFKA, EXCLUDES, kafka, kafka, "4.2.0", records)   # no new jar: no record
    assert not os.path.exists(records) or os.listdir(records) == []
    remember(KAFKA, EXCLUDES, "", kafka, "4.2.0", records)
    link = str(tmp_path / "link")
    os.symlink(records, link)   # another's directory could name any jar for the class path
    assert known_jars(KAFKA, EXCLUDES, {}, "4.2.0", link) is None
    assert known_jars(KAFKA, EXCLUDES, {}, "4.2.0", records) == [kafka]
