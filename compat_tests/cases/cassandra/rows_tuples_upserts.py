"""CassandraSink writing a Row stream and a tuple stream with INSERT queries (Cassandra's
upserts): a key written twice stays one row holding the later values, enable_ignore_null_fields
leaves a None field's column as it was, set_max_concurrent_requests bounds the writes in
flight. The node's host:port comes from PYFLINK_ON_SPARK_TEST_CASSANDRA (set by the tests'
`cassandra` fixture); the keyspace is made and the table read back with the cassandra-driver
package.

Real PyFlink 1.20 needs flink-connector-cassandra (3.0.0-1.16: 3.2.0-1.19 was not served by
this machine's Maven Central) and the Metrics library its bundled Java driver loads, from the
local Maven repository:
  mvn dependency:get -Dartifact=org.apache.flink:flink-connector-cassandra_2.12:3.0.0-1.16 -Dtransitive=false
  mvn dependency:get -Dartifact=io.dropwizard.metrics:metrics-core:3.2.2 -Dtransitive=false
"""
import os

from cassandra.cluster import Cluster
from pyflink.common import Duration, Row, Types
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
for table in ("by_row", "by_tuple"):
    session.execute("DROP TABLE IF EXISTS compat.%s" % table)
    session.execute("CREATE TABLE compat.%s (id int PRIMARY KEY, name text, amount double, "
                    "big bigint, ok boolean)" % table)
session.execute("INSERT INTO compat.by_row (id, name) VALUES (2, 'kept')")

env = StreamExecutionEnvironment.get_execution_environment()
# PyFlink needs the connector jar (fetched with mvn where it is recorded); the shim writes
# with the Python driver, and add_jars of a missing file fails on both
env.add_jars(*["file://" + jar for jar in JARS if os.path.exists(jar)])
env.set_parallelism(1)

row_type = Types.ROW([Types.INT(), Types.STRING(), Types.DOUBLE(), Types.LONG(),
                      Types.BOOLEAN()])
rows = env.from_collection([Row(1, "one", 1.5, 2 ** 40, True), Row(2, None, 2.5, -7, False),
                            Row(1, "one again", 3.0, 1, False)], type_info=row_type)
CassandraSink.add_sink(rows) \
    .set_query("INSERT INTO compat.by_row (id, name, amount, big, ok) VALUES (?, ?, ?, ?, ?)") \
    .set_host(HOST, int(PORT)).set_max_concurrent_requests(1, Duration.of_seconds(30)) \
    .enable_ignore_null_fields().build().name("rows to Cassandra")

tuple_type = Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()])
tuples = env.from_collection([(3, "three", 0.25), (4, "four", 4.0)], type_info=tuple_type)
CassandraSink.add_sink(tuples) \
    .set_query("INSERT INTO compat.by_tuple (id, name, amount) VALUES (?, ?, ?)") \
    .set_host(HOST, int(PORT)).build()

env.execute("cassandra sink")
for table in ("by_row", "by_tuple"):
    for record in sorted(tuple(r) for r in session.execute(
            "SELECT id, name, amount, big, ok FROM compat.%s" % table)):
        print(table, record)
cluster.shutdown()
