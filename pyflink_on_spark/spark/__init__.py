"""Translation of a compiled job graph into Spark DataFrame operations."""
