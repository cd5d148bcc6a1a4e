"""The JDBC sink's writer: the program's own statement run in batches through a DB-API driver
chosen from the JDBC URL (drivers.py), its `?` placeholders rewritten for that driver
(statements.py), the record's fields converted as Flink's JDBC connector sets them
(parameters.py), batches flushed and retried as Flink's JdbcOutputFormat does (writer.py)."""
