"""JdbcSinks on a Spark whose executors have nothing of ours (issue 42): PyMySQL (MariaDB),
pure Python, reaches the bare executors in the zip the shim ships itself in; psycopg (compiled)
with psycopg-binary and typing-extensions as an archive of the driver's copies
(spark/package_shipping.py: OPTIONAL_SHIPPED_PACKAGES, PSYCOPG)."""
import sys

from pyflink_on_spark.spark.tests.standalone_cluster import probe_python
from pyflink_on_spark.spark.tests.test_jdbc_sink_mariadb import _sql
from pyflink_on_spark.spark.tests.test_jdbc_sink_postgres import _sql as _pg_sql
from pyflink_on_spark.spark.tests.test_runs_on_any_spark import CHECKOUT

JDBC_JOB = '''
import sys
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.jdbc import (JdbcConnectionOptions, JdbcExecutionOptions,
                                                JdbcSink)

url = sys.argv[1]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
row = Types.ROW([Types.INT(), Types.STRING()])
env.from_collection([Row(i, "v%d" % i) for i in range(1, 21)], type_info=row).add_sink(
    JdbcSink.sink(sys.argv[2], row,
                  JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(url).build(),
                  JdbcExecutionOptions.builder().with_batch_size(4).build()))
env.execute("jdbc on a cluster")
'''


def _run(cluster, tmp_path, url, statement):
    script = tmp_path / "jdbc_job.py"
    script.write_text(JDBC_JOB)
    code, _, err = cluster.run_client(
        [sys.executable, "-m", "pyflink_on_spark.cli.main", "run", str(script), url, statement],
        str(tmp_path), cwd=CHECKOUT)
    assert code == 0, err[-5000:] + cluster.executor_log_tails()


def test_a_mariadb_jdbc_sink_runs_on_a_cluster_without_pymysql(standalone_cluster, bare_python,
                                                                mariadb, tmp_path):
    assert probe_python(bare_python, ("pymysql",))["imports"]["pymysql"] is not None
    _sql(mariadb, "DROP TABLE IF EXISTS on_cluster",
         "CREATE TABLE on_cluster (id int PRIMARY KEY, name varchar(20))")
    _run(standalone_cluster, tmp_path, mariadb, "INSERT INTO on_cluster (id, name) VALUES "
         "(?, ?) ON DUPLICATE KEY UPDATE name = VALUES(name)")
    assert _sql(mariadb, fetch="SELECT id, name FROM on_cluster ORDER BY id") == \
        [(i, "v%d" % i) for i in range(1, 21)]


def test_a_postgresql_jdbc_sink_runs_on_a_cluster_without_psycopg(standalone_cluster, bare_python,
                                                                   postgres, tmp_path):
    assert probe_python(bare_python, ("psycopg",))["imports"]["psycopg"] is not None
    _pg_sql(postgres, "DROP TABLE IF EXISTS on_cluster",
            "CREATE TABLE on_cluster (id int PRIMARY KEY, name text)")
    _run(standalone_cluster, tmp_path, postgres, "INSERT INTO on_cluster (id, name) VALUES "
         "(?, ?) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name")
    assert _pg_sql(postgres, fetch="SELECT id, name FROM on_cluster ORDER BY id") == \
        [(i, "v%d" % i) for i in range(1, 21)]
