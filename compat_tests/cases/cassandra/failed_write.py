"""A CassandraSink write that Cassandra rejects (a null partition key) fails the job with
Cassandra's own message, as Flink's default failure handler does; the record acknowledged
before it stays written (one request in flight at a time). build() checks the bound on
requests in flight as Flink does. The node's host:port comes from
PYFLINK_ON_SPARK_TEST_CASSANDRA (the tests' `cassandra` fixture).

Real PyFlink 1.20 needs flink-connector-cassandra_2.12 3.0.0-1.16 and metrics-core 3.2.2 from
the local Maven repository (see rows_tuples_upserts.py).
"""
import os

from cassandra.cluster import Cluster
from py4j.protocol import Py4JJavaError
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.cassandra import CassandraSink

HOST, PORT = os.environ["PYFLINK_ON_SPARK_TEST_CASSANDRA"].rsplit(":", 1)
M2 = os.path.expanduser("~/.m2/repository")
JARS = [M2 + "/org/apache/flink/flink-connector-cassandra_2.12/3.0.0-1.16/"
        "flink-connector-cassandra_2.12-3.0.0-1.16.jar",
        M2 + "/io/dropwizard/metrics/metrics-core/3.2.2/metrics-core-3.2.2.jar"]

cluster = Cluster([HOST], port=int(PORT))
session = cluster.connect()
session.execute("CREATE KEYSPACE IF NOT EXISTS compat WITH replication = "
                "{'class': 'SimpleStrategy', 'replication_factor': 1}")
session.execute("DROP TABLE IF EXISTS compat.failing")
session.execute("CREATE TABLE compat.failing (id int PRIMARY KEY, name text)")

env = StreamExecutionEnvironment.get_execution_environment()
env.add_jars(*["file://" + jar for jar in JARS if os.path.exists(jar)])
env.set_parallelism(1)
rows = env.from_collection([Row(1, "written"), Row(None, "no key")],
                           type_info=Types.ROW([Types.INT(), Types.STRING()]))
query = "INSERT INTO compat.failing (id, name) VALUES (?, ?)"
try:
    CassandraSink.add_sink(rows).set_query(query).set_host(HOST, int(PORT)) \
        .set_max_concurrent_requests(0).build()
except Exception as e:
    print("build:", "Max concurrent requests is expected to be positive" in str(e))
CassandraSink.add_sink(rows).set_query(query).set_host(HOST, int(PORT)) \
    .set_max_concurrent_requests(1).build()
try:
    env.execute("cassandra failed write")
    print("job finished")
except Py4JJavaError as e:
    print("job failed:", "Invalid null value in condition for column id" in str(e))
print(sorted(tuple(r) for r in session.execute("SELECT id, name FROM compat.failing")))
cluster.shutdown()
