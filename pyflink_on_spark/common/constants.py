"""Numeric limits and names shared with PyFlink (pyflink.common.constants)."""

# Java's Long.MAX_VALUE / Long.MIN_VALUE: Flink timestamps and watermarks are Java longs.
MAX_LONG_VALUE = 2 ** 63 - 1
MIN_LONG_VALUE = -(2 ** 63)

# Output tag id of the main output (side outputs carry their tag's name).
DEFAULT_OUTPUT_TAG = ""
