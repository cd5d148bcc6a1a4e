"""Mirror of pyflink.datastream.formats (PyFlink 1.20): csv, json, avro, parquet, orc."""
