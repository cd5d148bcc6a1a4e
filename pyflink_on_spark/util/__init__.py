"""pyflink.util mirror (PyFlink 1.20): java_utils, for the configuration idiom programs use."""
