"""JdbcSinks on a Spark whose executors have nothing of ours (issue 42): PyMySQL (MariaDB),
pure Python, reaches the bare executors in the zip the shim ships itself in; psycopg (compiled)
with psycopg-binary and typing-extensions as an archive of the driver's copies
(spark/package_shipping.py: OPTIONAL_SHIPPED_PACKAGES, PSYCOPG). The Table API's jdbc tables
(table/jdbc_tables.py), whose scans read through psycopg in the tasks, ship it the same way:
first, before anything has shipped it, a SELECT of a jdbc table (a Spark SQL job); then the
JdbcSinks' rows are that table's, read in the DataStream job's tasks (to_data_stream, as an
INSERT INTO a jdbc table reads its query's tables), not in a job of their own (CI's time)."""
from pyflink_on_spark.spark.tests.standalone_cluster import probe_python
from pyflink_on_spark.spark.tests.test_jdbc_sink_mariadb import _sql
from pyflink_on_spark.spark.tests.test_jdbc_sink_postgres import _sql as _pg_sql

JDBC_JOB = '''
import sys
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.jdbc import (JdbcConnectionOptions, JdbcExecutionOptions,
                                                JdbcSink)
from pyflink.table import StreamTableEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
t_env = StreamTableEnvironment.create(env)
postgres = next(url for url in sys.argv[1::2] if url.startswith("jdbc:postgresql:"))
t_env.execute_sql("CREATE TABLE src (id INT, name STRING) WITH ('connector' = 'jdbc', 'url' = "
                  "'%s', 'table-name' = 'on_cluster_table')" % postgres)
# first: nothing has shipped psycopg to the executors yet
with t_env.execute_sql("SELECT id, name FROM src WHERE id <= 3").collect() as rows:
    print("table read:", sorted(tuple(row) for row in rows))
row = Types.ROW_NAMED(["id", "name"], [Types.INT(), Types.STRING()])   # the table's Rows
rows = t_env.to_data_stream(t_env.from_path("src"))
for url, statement in zip(sys.argv[1::2], sys.argv[2::2]):   # one sink per (URL, statement)
    rows.add_sink(JdbcSink.sink(
        statement, row, JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url).build(),
        JdbcExecutionOptions.builder().with_batch_size(4).build()))
env.execute("jdbc on a cluster")
'''


def prepare_jdbc_job(mariadb: str, postgres: str, tmp_path):
    """The JDBC job's tables (the sinks' empty, the jdbc table's 20 rows) and its script;
    (script, its arguments). Run in one client application with the Kafka cluster test's job
    (client_jobs_on_the_cluster in conftest.py: each application costs its executors'
    start)."""
    _sql(mariadb, "DROP TABLE IF EXISTS on_cluster",
         "CREATE TABLE on_cluster (id int PRIMARY KEY, name varchar(20))")
    _pg_sql(postgres, "DROP TABLE IF EXISTS on_cluster",
            "CREATE TABLE on_cluster (id int PRIMARY KEY, name text)",
            "DROP TABLE IF EXISTS on_cluster_table",
            "CREATE TABLE on_cluster_table (id int PRIMARY KEY, name text)",
            "INSERT INTO on_cluster_table SELECT i, 'v' || i FROM generate_series(1, 20) i")
    script = tmp_path / "jdbc_job.py"
    script.write_text(JDBC_JOB)
    return str(script), [
        mariadb, "INSERT INTO on_cluster (id, name) VALUES (?, ?) "
                 "ON DUPLICATE KEY UPDATE name = VALUES(name)",
        postgres, "INSERT INTO on_cluster (id, name) VALUES (?, ?) "
                  "ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name"]


def test_jdbc_sinks_and_tables_run_on_a_cluster_without_pymysql_or_psycopg(
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
    # the jdbc table read by the SELECT's tasks (its rows, read by the job's, are the above)
    assert "table read: [(1, 'v1'), (2, 'v2'), (3, 'v3')]\n" in run.output_of("jdbc")
