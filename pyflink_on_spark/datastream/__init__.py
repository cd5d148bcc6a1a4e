"""Mirror of `pyflink.datastream` (PyFlink 1.20)."""
