"""pyflink.table.explain_detail: ExplainDetail (table/explain.py)."""
from pyflink_on_spark.table.explain import ExplainDetail

__all__ = ['ExplainDetail']
