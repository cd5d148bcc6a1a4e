"""The logical DAG built by the API, and its compilation into chained stages."""
