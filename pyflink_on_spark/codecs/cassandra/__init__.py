"""The Cassandra sink's writer (writer.py): the program's CQL query prepared once per subtask
and executed asynchronously for each record through the DataStax Python driver
(cassandra-driver), as Flink's CassandraSinkBase runs CassandraRowSink / CassandraTupleSink."""
