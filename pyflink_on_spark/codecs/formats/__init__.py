"""Record formats of files and messages, in pure Python: how a file's bytes become records
(decompression, charsets, Java's line splitting, CSV, JSON, Avro) and how records become
bytes again. The Spark layer reads files with Spark's readers and calls these only to turn
what Spark read into the records PyFlink would have produced."""
