"""JdbcSinks on a Spark whose executors have nothing of ours (issue 42): PyMySQL (MariaDB),
pure Python, reaches the bare executors in the zip the shim ships itself in; psycopg (compiled)
with psycopg-binary and typing-extensions as an archive of the driver's copies
(spark/package_shipping.py: OPTIONAL_SHIPPED_PACKAGES, PSYCOPG)."""
from pyflink_on_spark.spark.tests.standalone_cluster import probe_python
from pyflink_on_spark.spark.tests.test_jdbc_sink_mariadb import _sql
from pyflink_on_spark.spark.tests.test_jdbc_sink_postgres import _sql as _pg_sql

JDBC_JOB = '''
import sys
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.jdbc import (JdbcConnectionOptions, JdbcExecutionOptions,
                                                JdbcSink)

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
row = Types.ROW([Types.INT(), Types.STRING()])
rows = env.from_collection([Row(i, "v%d" % i) for i in range(1, 21)], type_info=row)
for url, statement in zip(sys.argv[1::2], sys.argv[2::2]):   # one sink per (URL, statement)
    rows.add_sink(JdbcSink.sink(
        statement, row, JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url).build(),
        JdbcExecutionOptions.builder().with_batch_size(4).build()))
env.execute("jdbc on a cluster")
'''


def prepare_jdbc_job(mariadb: str, postgres: str, tmp_path):
    """The JDBC job's tables (empty) and its script; (script, its arguments). Run in one
    client application with the Kafka cluster test's job (client_jobs_on_the_cluster in
    conftest.py: each application costs its executors' start)."""
    _sql(mariadb, "DROP TABLE IF EXISTS on_cluster",
         "CREATE TABLE on_cluster (id int PRIMARY KEY, name varchar(20))")
    _pg_sql(postgres, "DROP TABLE IF EXISTS on_cluster",
            "CREATE TABLE on_cluster (id int PRIMARY KEY, name text)")
    script = tmp_path / "jdbc_job.py"
    script.write_text(JDBC_JOB)
    return str(script), [
        mariadb, "INSERT INTO on_cluster (id, name) VALUES (?, ?) "
                 "ON DUPLICATE KEY UPDATE name = VALUES(name)",
        postgres, "INSERT INTO on_cluster (id, name) VALUES (?, ?) "
                  "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name"]


def test_mariadb_and_postgresql_jdbc_sinks_run_on_a_cluster_without_pymysql_or_psycopg(
        client_jobs_on_the_cluster, standalone_cluster, bare_python, mariadb, postgres):
    # one application for both drivers (and for the Kafka cluster test's job and the compat
    # cases of test_runs_on_any_spark.py): each cluster application costs its executors' start
    imports = probe_python(bare_python, ("pymysql", "psycopg"))["imports"]
    assert imports["pymysql"] is not None and imports["psycopg"] is not None
    run = client_jobs_on_the_cluster
    assert run.code == 0, run.err[-5000:] + standalone_cluster.executor_log_tails()
    assert run.finished("jdbc"), run.out[-3000:] + run.err[-5000:]
    expected = [(i, "v%d" % i) for i in range(1, 21)]
    assert _sql(mariadb, fetch="SELECT id, name FROM on_cluster ORDER BY id") == expected
    assert _pg_sql(postgres, fetch="SELECT id, name FROM on_cluster ORDER BY id") == expected
