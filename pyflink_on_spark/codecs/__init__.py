"""Pure codecs and file writers, a neutral leaf package.

``formats``: how a file's or message's bytes become records and records become bytes
(charsets and Java line splitting, CSV, JSON, Avro, Arrow for Parquet/ORC).
``files``: the file sink's part files, bucket assigners, rolling policies and staged commit.
``jdbc``: the JDBC sink's statement runner (a JDBC URL -> a DB-API driver, `?` placeholders ->
the driver's, Flink's parameter types, batches with retries).

Both the API (formats and sinks describe themselves with these) and the engine (decoding inside
tasks, writing part files) use them; they import only the standard library, pyarrow and the
common value/type classes, never the engine, the graph or Spark.
"""
