"""The `pyflink-on-spark` command line."""
