"""The engine: runs an operator chain inside one task. Pure Python; knows nothing of Spark."""
